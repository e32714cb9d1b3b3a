//! The syntax tree. The checker fills in the `Option` resolution fields
//! (which variable or function a name means); code generation trusts them.

use crate::diag::Span;

pub type VarId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn is_compare(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }

    /// The operators [`Gen::apply`](super::codegen) computes in place (`dst op= r`): all but
    /// comparisons and `&&`/`||`, which are lowered through jumps.
    pub fn is_arith(self) -> bool {
        !self.is_compare() && !matches!(self, BinOp::LogAnd | BinOp::LogOr)
    }

    pub fn commutes(self) -> bool {
        matches!(self, BinOp::Add | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

/// The builtin functions (documented for users in `BUILTINS.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `abs(x)`: absolute value, wrapping (`abs(MIN) = MIN`).
    Abs,
    /// `min(a, b)`: the smaller value, compared exactly.
    Min,
    /// `max(a, b)`: the larger value, compared exactly.
    Max,
    /// `assert(c)`: stops with the trap "assertion failed" at its line when `c` is 0.
    Assert,
    /// `frame()`: a no-op instruction recorded in `Program.frames`, where the host may pause.
    Frame,
}

impl Builtin {
    pub fn lookup(name: &str) -> Option<Builtin> {
        Some(match name {
            "abs" => Builtin::Abs,
            "min" => Builtin::Min,
            "max" => Builtin::Max,
            "assert" => Builtin::Assert,
            "frame" => Builtin::Frame,
            _ => return None,
        })
    }

    pub fn arity(self) -> usize {
        match self {
            Builtin::Abs | Builtin::Assert => 1,
            Builtin::Min | Builtin::Max => 2,
            Builtin::Frame => 0,
        }
    }

    pub fn returns_value(self) -> bool {
        !matches!(self, Builtin::Assert | Builtin::Frame)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    User(usize),
    Builtin(Builtin),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Num(i64),
    Var(String, Option<VarId>),
    Index(String, Option<VarId>, Box<Expr>),
    Call(String, Vec<Expr>, Option<Callee>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` (op `None`) or `lhs op= rhs`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `++x`, `x--`…: `inc` is +1 / −1, `post` returns the old value.
    IncDec {
        inc: bool,
        post: bool,
        target: Box<Expr>,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum Init {
    Scalar(Expr),
    List(Vec<Expr>, Span),
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: String,
    pub span: Span,
    /// Array length expression, for arrays.
    pub len: Option<Expr>,
    pub init: Option<Init>,
    pub id: Option<VarId>,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Decl(Vec<VarDecl>),
    Expr(Expr),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For { init: Option<Box<Stmt>>, cond: Option<Expr>, step: Option<Expr>, body: Box<Stmt> },
    Break(Span),
    Continue(Span),
    Return(Option<Expr>, Span),
    Block(Vec<Stmt>),
    Empty,
}

#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub span: Span,
    pub returns_int: bool,
    pub params: Vec<VarDecl>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, Default)]
pub struct Unit {
    pub globals: Vec<VarDecl>,
    pub funcs: Vec<Func>,
}
