//! The syntax tree, as the parser builds it: names are strings, and every
//! expression and declaration carries a [`NodeId`]. What the checker learns
//! (which variable or function a name means, each expression's type, the call
//! graph) lives in side tables keyed by those ids (`checker::Resolved`), never
//! inside the tree.

use crate::ctypes::IntTy;
use crate::diag::Span;

pub type VarId = usize;

/// Numbers the parser gives expressions and declarations (dense, from 0).
pub type NodeId = u32;

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

    /// The operators `Gen::apply` computes in place (`dst op= r`): all but comparisons
    /// and `&&`/`||`, which are lowered through jumps.
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
    /// `putchar(c)`: prints the character `c` (its low byte) through the console slot.
    Putchar,
    /// `puts(s)`: prints the string `s` and a newline.
    Puts,
    /// `printf(format, …)`: prints a literal format with its arguments converted.
    Printf,
    /// `sprintf(buffer, format, …)`: what `printf` would print, into a `char` array, and a `'\0'`.
    Sprintf,
    /// `snprintf(buffer, n, format, …)`: the same, at most `n − 1` characters and the `'\0'`.
    Snprintf,
    /// `getchar()`: the next byte of the input, consumed (`EOF`, −1, at its end).
    Getchar,
    /// `__input_peek()`: the next byte of the input, left unread (the library's `scanf`
    /// looks one character ahead, as C's does).
    InputPeek,
    /// `__input_next()`: consumes the byte `__input_peek` sees.
    InputNext,
    /// `exit(status)`: ends the program (a HALT) wherever it is called.
    Exit,
}

impl Builtin {
    pub fn lookup(name: &str) -> Option<Builtin> {
        Some(match name {
            "abs" => Builtin::Abs,
            "min" => Builtin::Min,
            "max" => Builtin::Max,
            "assert" => Builtin::Assert,
            "frame" => Builtin::Frame,
            "putchar" => Builtin::Putchar,
            "puts" => Builtin::Puts,
            "printf" => Builtin::Printf,
            "sprintf" => Builtin::Sprintf,
            "snprintf" => Builtin::Snprintf,
            "getchar" => Builtin::Getchar,
            "__input_peek" => Builtin::InputPeek,
            "__input_next" => Builtin::InputNext,
            "exit" => Builtin::Exit,
            _ => return None,
        })
    }

    /// The number of `int` arguments; `None` for the output builtins, whose arguments the
    /// checker reads by what they print.
    pub fn arity(self) -> Option<usize> {
        match self {
            Builtin::Abs | Builtin::Assert | Builtin::Exit => Some(1),
            Builtin::Min | Builtin::Max => Some(2),
            Builtin::Frame | Builtin::Getchar | Builtin::InputPeek | Builtin::InputNext => Some(0),
            Builtin::Putchar | Builtin::Puts | Builtin::Printf | Builtin::Sprintf | Builtin::Snprintf => None,
        }
    }

    pub fn returns_value(self) -> bool {
        matches!(self, Builtin::Abs | Builtin::Min | Builtin::Max | Builtin::Getchar | Builtin::InputPeek)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    User(usize),
    Builtin(Builtin),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub id: NodeId,
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer constant: its value (in its type's range) and its C type.
    Num(i64, IntTy),
    /// A string literal's bytes (escapes decoded, no terminating zero). Where a string may
    /// stand is the checker's business.
    Str(Vec<u8>),
    Var(String),
    /// A function's name used as a value (not called): `add` in `f = add`, `&add`.
    Func(String),
    /// A call through a function pointer: `f(1, 2)` for a variable `f`, `(*f)(1, 2)`, `ops[i](a, b)`.
    CallPtr(Box<Expr>, Vec<Expr>),
    /// `base[index]`: `base` is an array or a pointer.
    Index(Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
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
    /// `&place`.
    AddrOf(Box<Expr>),
    /// `*pointer`.
    Deref(Box<Expr>),
    /// `(type) e`.
    Cast(TypeSpec, Box<Expr>),
    /// `sizeof(type)`.
    SizeofType(TypeSpec),
    /// `sizeof e`: the type of `e`, which is not evaluated.
    SizeofExpr(Box<Expr>),
    /// `a, b`: `a` for its effects, then the value of `b`.
    Comma(Box<Expr>, Box<Expr>),
    /// `s.name` (`arrow` false) or `p->name` (`arrow` true).
    Member {
        base: Box<Expr>,
        name: String,
        arrow: bool,
    },
}

impl Expr {
    /// The direct subexpressions, in evaluation order (with the operand of `sizeof`, which
    /// is not evaluated: walkers asking what an expression may do stay conservative).
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Num(..) | ExprKind::Str(_) | ExprKind::Var(_) | ExprKind::Func(_) | ExprKind::SizeofType(_) => {
                Vec::new()
            }
            ExprKind::Call(_, args) => args.iter().collect(),
            ExprKind::CallPtr(f, args) => std::iter::once(&**f).chain(args).collect(),
            ExprKind::Unary(_, x) | ExprKind::AddrOf(x) | ExprKind::Deref(x) | ExprKind::Cast(_, x) => vec![x],
            ExprKind::Member { base, .. } => vec![base],
            ExprKind::SizeofExpr(x) => vec![x],
            ExprKind::IncDec { target, .. } => vec![target],
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Comma(a, b) => {
                vec![a, b]
            }
            ExprKind::Cond(c, a, b) => vec![c, a, b],
        }
    }

    /// Whether `f` holds for this expression or any expression inside it.
    pub fn any(&self, f: &mut impl FnMut(&Expr) -> bool) -> bool {
        f(self) || self.children().into_iter().any(|c| c.any(f))
    }
}

/// The base of a declared type: `void`, an integer type or a structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Void,
    Int(IntTy),
    /// A `struct`, by its index in [`Unit::structs`].
    Struct(usize),
}

/// A `struct` type as declared: its tag, and its members once defined (`None` while it is
/// only named, as in `struct node;` or a pointer to it inside its own definition).
#[derive(Clone, Debug)]
pub struct StructDef {
    pub tag: Option<String>,
    /// A `union`: every member at offset 0, sharing its storage.
    pub union: bool,
    pub members: Option<Vec<VarDecl>>,
}

/// A declared type as written: `int`, `char *p`, `unsigned a[3][4]`, `int v[]`; also a
/// type name (`(unsigned char)`, `sizeof(int *)`), which has no dimensions left out.
#[derive(Clone, Debug)]
pub struct TypeSpec {
    pub base: Base,
    /// The number of `*`.
    pub pointers: u32,
    /// Array dimensions, outermost first; `None` for `[]` (a parameter, or sized by its initializer).
    pub dims: Vec<Option<Expr>>,
    /// Set for a pointer to a function (`int (*f)(int)`): then `base` and `pointers` are the
    /// function's result, and `dims` apply to the pointer (`int (*ops[4])(int, int)`).
    pub func: Option<Box<FnSpec>>,
}

/// The function part of a function-pointer type: its parameters and the `*`s before its name.
#[derive(Clone, Debug)]
pub struct FnSpec {
    pub params: Vec<TypeSpec>,
    /// `*`s inside the parentheses: 1 for `int (*f)(int)`, 2 for a pointer to one.
    pub ptrs: u32,
}

#[derive(Clone, Debug)]
pub enum Init {
    Scalar(Expr),
    /// `{a, b, …}`, possibly nested for 2-D arrays.
    List(Vec<Init>, Span),
    /// An item of a list with designators: `.x = 1`, `[2] = 5`, `[1].y = 3`.
    At(Vec<Designator>, Box<Init>),
}

/// One step of a designated initializer's path.
#[derive(Clone, Debug)]
pub enum Designator {
    /// `.name`
    Member(String, Span),
    /// `[k]`: a constant expression (not evaluated at run time).
    Index(Expr),
}

/// Storage classes: what a declaration says about where its object lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// One object for the whole run: a global, or a local that keeps its value across calls.
    Static,
    /// A declaration of a global defined elsewhere in the file.
    Extern,
    /// `auto` and `register`: a local's ordinary storage (there are no registers to ask for).
    Auto,
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub id: NodeId,
    pub name: String,
    pub span: Span,
    pub ty: TypeSpec,
    pub init: Option<Init>,
    /// The storage class written, with its span.
    pub storage: Option<(Storage, Span)>,
    /// Declared `const` (the variable itself: `const int n`, `int *const p`).
    pub konst: bool,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Decl(Vec<VarDecl>),
    Expr(Expr),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `switch (e) { … }`: the body's statements, with `case` and `default` labels among them.
    Switch(Expr, Vec<Stmt>),
    /// `case k:` (the constant expression) or `default:` (`None`).
    Case(Option<Expr>, Span),
    Break(Span),
    Continue(Span),
    Return(Option<Expr>, Span),
    Block(Vec<Stmt>),
    /// `goto label;`
    Goto(String, Span),
    /// `label: statement`.
    Labeled(String, Span, Box<Stmt>),
    Empty,
}

impl Stmt {
    /// The expressions this statement evaluates itself and the statements directly inside it.
    pub fn parts(&self) -> (Vec<&Expr>, Vec<&Stmt>) {
        match self {
            Stmt::Decl(ds) => (ds.iter().flat_map(|d| d.init.iter().flat_map(Init::exprs)).collect(), Vec::new()),
            Stmt::Expr(e) => (vec![e], Vec::new()),
            Stmt::If(c, a, b) => (vec![c], [Some(&**a), b.as_deref()].into_iter().flatten().collect()),
            Stmt::While(c, b) | Stmt::DoWhile(b, c) => (vec![c], vec![b]),
            Stmt::For { init, cond, step, body } => {
                (cond.iter().chain(step).collect(), init.as_deref().into_iter().chain([&**body]).collect())
            }
            Stmt::Switch(e, body) => (vec![e], body.iter().collect()),
            Stmt::Case(e, _) => (e.iter().collect(), Vec::new()),
            Stmt::Return(e, _) => (e.iter().collect(), Vec::new()),
            Stmt::Block(b) => (Vec::new(), b.iter().collect()),
            Stmt::Labeled(_, _, s) => (Vec::new(), vec![s]),
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Goto(..) | Stmt::Empty => (Vec::new(), Vec::new()),
        }
    }

    /// Whether `f` holds for an expression evaluated anywhere in this statement.
    pub fn any_expr(&self, f: &mut impl FnMut(&Expr) -> bool) -> bool {
        let (exprs, stmts) = self.parts();
        exprs.into_iter().any(|e| e.any(f)) || stmts.into_iter().any(|s| s.any_expr(f))
    }
}

impl Init {
    /// The expressions of an initializer, in order.
    pub fn exprs(&self) -> Vec<&Expr> {
        match self {
            Init::Scalar(e) => vec![e],
            Init::List(items, _) => items.iter().flat_map(Init::exprs).collect(),
            Init::At(_, init) => init.exprs(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub span: Span,
    /// The result type (an integer or a pointer); `None` for `void`.
    pub ret: Option<TypeSpec>,
    pub params: Vec<VarDecl>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, Default)]
pub struct Unit {
    pub globals: Vec<VarDecl>,
    pub structs: Vec<StructDef>,
    pub funcs: Vec<Func>,
    /// How many [`NodeId`]s the parser handed out.
    pub nodes: u32,
    /// The spans of the `#include`s: what is declared there is the library's (its locals
    /// are hidden from the variables a front end lists).
    pub library: Vec<Span>,
}
