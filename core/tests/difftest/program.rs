//! The generated program: one structure, printed twice by `text` (our C and
//! gcc's C), so both compilers see the same program.

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
    pub const ALL: [BinOp; 18] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::Shr,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::LogAnd,
        BinOp::LogOr,
    ];

    /// The operators that have a compound assignment (`+=` …).
    pub const COMPOUND: [BinOp; 10] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::Shr,
    ];

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }

    /// C's precedence (higher binds tighter); all of these associate to the left.
    pub fn prec(self) -> u8 {
        match self {
            BinOp::Mul | BinOp::Div | BinOp::Rem => 13,
            BinOp::Add | BinOp::Sub => 12,
            BinOp::Shl | BinOp::Shr => 11,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 10,
            BinOp::Eq | BinOp::Ne => 9,
            BinOp::And => 8,
            BinOp::Xor => 7,
            BinOp::Or => 6,
            BinOp::LogAnd => 5,
            BinOp::LogOr => 4,
        }
    }

    /// Whether the exact result can leave the N-bit range (gcc's side wraps it).
    pub fn wraps(self) -> bool {
        matches!(self, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
    Plus,
}

impl UnOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Plus => "+",
            UnOp::Neg => "-",
            UnOp::Not => "!",
            UnOp::BitNot => "~",
        }
    }
}

/// A C integer type, on the 32-bit machines (ILP32: `long` is 32 bits). gcc's
/// text (x86-64, where `long` has 64) spells `long` as `int`: the same width,
/// so the same values under every conversion the generator can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CTy {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
}

impl CTy {
    pub const ALL: [CTy; 9] =
        [CTy::Char, CTy::SChar, CTy::UChar, CTy::Short, CTy::UShort, CTy::Int, CTy::UInt, CTy::Long, CTy::ULong];

    /// How our text spells it (several spellings, chosen by `variant`).
    pub fn ours(self, variant: usize) -> &'static str {
        let names: &[&str] = match self {
            CTy::Char => &["char"],
            CTy::SChar => &["signed char"],
            CTy::UChar => &["unsigned char"],
            CTy::Short => &["short", "short int", "signed short"],
            CTy::UShort => &["unsigned short", "unsigned short int"],
            CTy::Int => &["int", "signed", "signed int"],
            CTy::UInt => &["unsigned", "unsigned int"],
            CTy::Long => &["long", "long int", "signed long"],
            CTy::ULong => &["unsigned long", "unsigned long int"],
        };
        names[variant % names.len()]
    }

    /// How gcc's text spells it: ILP32's `long` is x86-64's `int`.
    pub fn gcc(self) -> &'static str {
        match self {
            CTy::Long => "int",
            CTy::ULong => "unsigned",
            t => t.ours(0),
        }
    }
}

/// How a literal is spelled in our text (gcc's text always spells the value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lit {
    Dec,
    /// Any N-bit pattern: `0xFF` is −1 on 8 bits.
    Hex,
    Oct,
    /// A character literal; only for values that have one.
    Char,
    /// Decimal with a suffix (`u`, `L`, `ul` …; 32-bit words only): with `u`, the
    /// value's 32-bit pattern, an `unsigned` constant. gcc's text drops the `l`.
    Suffix(&'static str),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Abs,
    Min,
    Max,
}

impl Builtin {
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Abs => "abs",
            Builtin::Min => "min",
            Builtin::Max => "max",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A value in the signed N-bit range, and its spelling.
    Num(i64, Lit),
    /// A `#define` name and its value.
    Macro(String, i64),
    /// `*p` for a pointer parameter `p`.
    Deref(String),
    /// `&x`, an argument for a pointer parameter.
    AddrOf(String),
    /// `a + k`: the array `a` from element `k` on, an argument for an array parameter.
    Offset(String, usize),
    Var(String),
    Index(String, Box<Expr>),
    Call(String, Vec<Expr>),
    Builtin(Builtin, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` or `lhs op= rhs`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    IncDec {
        inc: bool,
        post: bool,
        target: Box<Expr>,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(e)`: parentheses our text keeps even where precedence does not need them.
    Paren(Box<Expr>),
    /// `(T)e` (32-bit words only).
    Cast(CTy, Box<Expr>),
    /// `a, b`: the comma operator (its operands are kept apart like any other's).
    Comma(Box<Expr>, Box<Expr>),
    /// `M(a, b)`: a function-like macro whose body is `((a) op (b))`; it reads its
    /// operands like the operator would (each parameter appears once in the body).
    MacroCall(String, BinOp, Box<Expr>, Box<Expr>),
    /// A call of the C library's (`<ctype.h>`, `<string.h>`, `<stdlib.h>`).
    Lib(Lib),
}

/// What the generator calls in the C library: each call is defined for every
/// argument it gets, and each result has one value in both compilers.
#[derive(Clone, Debug, PartialEq)]
pub enum Lib {
    /// `(isdigit((e) & 127) != 0)` or `toupper((e) & 127)`: the argument is an
    /// `unsigned char`'s value (anything else is undefined), a predicate's result is
    /// compared with 0 (C says only "nonzero").
    Ctype(&'static str, Box<Expr>),
    /// `(int)strlen(s)` of a read-only `char` array holding its 0 (32-bit words).
    Strlen(String),
    /// `atoi(s)`: a short string, so the value fits an `int` (32-bit words).
    Atoi(String),
    /// `(strcmp(s, t) op 0)`: only the sign is C's.
    Strcmp(String, String, BinOp),
}

impl Lib {
    /// The `<ctype.h>` functions; the first ones are predicates.
    pub const CTYPE: [&'static str; 10] =
        ["isdigit", "isalpha", "isalnum", "isupper", "islower", "isspace", "isxdigit", "ispunct", "toupper", "tolower"];

    pub fn predicate(name: &str) -> bool {
        name.starts_with("is")
    }

    /// The read-only strings it reads.
    pub fn strings(&self) -> Vec<&str> {
        match self {
            Lib::Ctype(..) => vec![],
            Lib::Strlen(s) | Lib::Atoi(s) => vec![s],
            Lib::Strcmp(s, t, _) => vec![s, t],
        }
    }
}

/// `struct tag { T m1; … };`: integer members, one slot each on our machine; or
/// `union tag { T m1; T m2; };`, whose members (all of one type) share one object.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    pub tag: String,
    pub fields: Vec<(String, CTy)>,
    pub union: bool,
}

impl StructDef {
    pub fn keyword(&self) -> &'static str {
        if self.union {
            "union"
        } else {
            "struct"
        }
    }
}

/// `R (*name)(int, …) = f;` or `R (*name[len])(int, …) = {f, g};`: pointers to
/// functions of one signature, declared just before `main` (which calls through them).
#[derive(Clone, Debug, PartialEq)]
pub struct FnPointer {
    pub name: String,
    pub len: Option<usize>,
    pub targets: Vec<String>,
    pub arity: usize,
    pub returns_int: bool,
    /// Spell the initializers `&f`.
    pub ampersand: bool,
}

/// `struct tag name = {…};` or `struct tag name[len] = {{…}, …};` at file scope.
/// Its members are variables named `name.m` (or `name[].m`, element-wise, for an
/// array: the generator tracks each member of all elements as one object).
#[derive(Clone, Debug, PartialEq)]
pub struct StructGlobal {
    pub name: String,
    pub tag: String,
    pub len: Option<usize>,
    /// One brace list per element (may be fewer than `len`, and shorter than the members).
    pub init: Vec<Vec<Expr>>,
}

/// A loop that cannot run away: `guard` counts iterations up to `bound`.
#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    pub var: String,
    pub bound: i64,
}

/// One declarator: `name = e` or `name[len] = {…}` (a list may be shorter than `len`),
/// or a `char` array holding a string (`name[len] = "text"`).
#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    pub name: String,
    pub len: Option<usize>,
    pub init: Vec<Expr>,
    /// Declared `char` (an N-bit word like `int` on our machine).
    pub char: bool,
    pub string: Option<String>,
    /// Its C type (`int` but on 32-bit words; a declaration's first declarator's type is all of theirs).
    pub ty: CTy,
    /// A `typedef` name our text spells the type with.
    pub alias: Option<String>,
}

/// `case label:` (or `default:` without one) and its statements, in braces.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm {
    pub label: Option<Expr>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `int a = 1, b[2] = {a};`: each declarator sees the ones before it.
    Decl(Vec<Local>),
    Expr(Expr),
    If(Expr, Vec<Stmt>, Option<Vec<Stmt>>),
    /// `for (int var = from; var CMP to; var += step)`; `var` is never written in
    /// the body. Without a guard the bounds are literals that give a known number
    /// of trips; with one (`int g = 0; for (…; g < bound && var CMP to; …) { g++; … }`)
    /// they are any expressions.
    For {
        var: String,
        from: Expr,
        cmp: BinOp,
        to: Expr,
        step: i64,
        guard: Option<Guard>,
        body: Vec<Stmt>,
    },
    /// `int g = 0; while (g < bound && cond) { g++; … }`, or the `do … while` form.
    While {
        guard: Guard,
        cond: Expr,
        body: Vec<Stmt>,
        do_while: bool,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Block(Vec<Stmt>),
    Assert(Expr),
    Frame,
    Switch(Expr, Vec<Arm>),
    /// `printf("…", args…)`: each argument printed by its conversion, between literal text.
    Printf(Vec<Conv>, Vec<Expr>),
    /// `static T name = constant;` in a function: one object for every call.
    Static(Local),
    /// `if (cond) goto label; { skipped } label: ;`: a forward jump over a block.
    Goto {
        cond: Expr,
        skipped: Vec<Stmt>,
        label: String,
    },
    /// `putchar(e)`.
    Putchar(Expr),
    /// `scanf("%d", &x);` for an `int` `x` (unchanged when the input has no number).
    Scan(String),
    /// `x = getchar();`
    GetChar(String),
    /// `d = s;` for two structures of one type: names and constant element indices.
    StructCopy {
        dst: (String, Option<usize>),
        src: (String, Option<usize>),
    },
}

/// One `printf` conversion: `%` flags width letter (`%-3d`, `%02x`, `%c`).
#[derive(Clone, Debug, PartialEq)]
pub struct Conv {
    pub flag: &'static str,
    pub width: u32,
    pub letter: char,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub len: Option<usize>,
    /// A `#define` that spells the length.
    pub len_macro: Option<String>,
    /// Constant expressions (may be fewer than the array's length; none: no initializer).
    pub init: Vec<Expr>,
    pub char: bool,
    /// A `char` array's string initializer.
    pub string: Option<String>,
    pub ty: CTy,
    pub alias: Option<String>,
}

/// How a parameter is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    /// `int *p`, used as `*p`: the caller passes `&x`.
    Pointer,
    /// `int v[]`, indexed below `len`: the caller passes an array (or `a + k`) that long.
    Array(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    pub params: Vec<Param>,
    pub returns_int: bool,
    pub body: Vec<Stmt>,
}

/// One enumerator of an `enum`: its name, value, and whether our text spells the
/// value (otherwise it is the previous one's plus one, or 0 first).
#[derive(Clone, Debug, PartialEq)]
pub struct Enumerator {
    pub name: String,
    pub value: i64,
    pub explicit: bool,
}

/// A whole program; `funcs` ends with `main`, and a function calls only earlier ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub bits: u32,
    /// `#define NAME value` lines at the top.
    pub defines: Vec<(String, i64, Lit)>,
    /// `enum { … };` declarations, after the defines (gcc's text spells every value).
    pub enums: Vec<Vec<Enumerator>>,
    /// `typedef T name;` declarations, after the enums.
    pub typedefs: Vec<(String, CTy)>,
    pub globals: Vec<Global>,
    pub funcs: Vec<Func>,
    /// Declare every function before the first definition (mutual recursion needs it).
    pub prototypes: bool,
    /// `#define M(a, b) ((a) op (b))` lines, after the object-like ones.
    pub macros: Vec<(String, BinOp)>,
    pub structs: Vec<StructDef>,
    pub struct_globals: Vec<StructGlobal>,
    /// What the program reads from its standard input.
    pub input: String,
    pub fn_pointers: Vec<FnPointer>,
}

impl Expr {
    /// The direct subexpressions.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Num(..)
            | Expr::Macro(..)
            | Expr::Var(_)
            | Expr::Deref(_)
            | Expr::AddrOf(_)
            | Expr::Offset(..)
            | Expr::Lib(Lib::Strlen(_) | Lib::Atoi(_) | Lib::Strcmp(..)) => vec![],
            Expr::Lib(Lib::Ctype(_, a)) => vec![a],
            Expr::Index(_, i) => vec![i],
            Expr::Call(_, args) | Expr::Builtin(_, args) => args.iter().collect(),
            Expr::Unary(_, a) | Expr::Paren(a) | Expr::Cast(_, a) | Expr::IncDec { target: a, .. } => vec![a],
            Expr::Binary(_, a, b) | Expr::Assign(_, a, b) | Expr::Comma(a, b) | Expr::MacroCall(_, _, a, b) => {
                vec![a, b]
            }
            Expr::Cond(c, a, b) => vec![c, a, b],
        }
    }

    /// The direct subexpressions, to change them.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Num(..)
            | Expr::Macro(..)
            | Expr::Var(_)
            | Expr::Deref(_)
            | Expr::AddrOf(_)
            | Expr::Offset(..)
            | Expr::Lib(Lib::Strlen(_) | Lib::Atoi(_) | Lib::Strcmp(..)) => vec![],
            Expr::Lib(Lib::Ctype(_, a)) => vec![a],
            Expr::Index(_, i) => vec![i],
            Expr::Call(_, args) | Expr::Builtin(_, args) => args.iter_mut().collect(),
            Expr::Unary(_, a) | Expr::Paren(a) | Expr::Cast(_, a) | Expr::IncDec { target: a, .. } => vec![a],
            Expr::Binary(_, a, b) | Expr::Assign(_, a, b) | Expr::Comma(a, b) | Expr::MacroCall(_, _, a, b) => {
                vec![a, b]
            }
            Expr::Cond(c, a, b) => vec![c, a, b],
        }
    }

    /// Calls `f` on this expression, then on the ones inside what it leaves.
    pub fn visit_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        f(self);
        for c in self.children_mut() {
            c.visit_mut(f);
        }
    }

    /// Whether the variable `n` appears in it (C puts a declared name in scope
    /// before its initializer, so a shadowing declaration must not use it).
    pub fn names(&self, n: &str) -> bool {
        self.any(&mut |x| match x {
            Expr::Var(v) | Expr::Index(v, _) | Expr::Deref(v) | Expr::AddrOf(v) | Expr::Offset(v, _) => v == n,
            Expr::Lib(l) => l.strings().contains(&n),
            _ => false,
        })
    }

    /// Whether `f` holds for this expression or any inside it.
    pub fn any(&self, f: &mut impl FnMut(&Expr) -> bool) -> bool {
        f(self) || self.children().into_iter().any(|c| c.any(f))
    }
}

impl Stmt {
    /// The expressions directly in this statement, and its nested statement lists.
    pub fn parts(&self) -> (Vec<&Expr>, Vec<&[Stmt]>) {
        match self {
            Stmt::Decl(locals) => (locals.iter().flat_map(|l| &l.init).collect(), vec![]),
            Stmt::Static(l) => (l.init.iter().collect(), vec![]),
            Stmt::Goto { cond, skipped, .. } => (vec![cond], vec![skipped]),
            Stmt::Expr(e) | Stmt::Return(Some(e)) | Stmt::Assert(e) | Stmt::Putchar(e) => (vec![e], vec![]),
            Stmt::Scan(_) | Stmt::GetChar(_) | Stmt::StructCopy { .. } => (vec![], vec![]),
            Stmt::Printf(_, args) => (args.iter().collect(), vec![]),
            Stmt::If(c, a, b) => (vec![c], [Some(&a[..]), b.as_deref()].into_iter().flatten().collect()),
            Stmt::For { from, to, body, .. } => (vec![from, to], vec![body]),
            Stmt::While { cond, body, .. } => (vec![cond], vec![body]),
            Stmt::Block(b) => (vec![], vec![b]),
            Stmt::Switch(c, arms) => (
                std::iter::once(c).chain(arms.iter().flat_map(|a| &a.label)).collect(),
                arms.iter().map(|a| &a.body[..]).collect(),
            ),
            Stmt::Break | Stmt::Continue | Stmt::Return(None) | Stmt::Frame => (vec![], vec![]),
        }
    }

    /// Calls `f` on every expression in this statement and the ones nested in it.
    pub fn visit_exprs_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        let (exprs, blocks): (Vec<&mut Expr>, Vec<&mut Vec<Stmt>>) = match self {
            Stmt::Decl(locals) => (locals.iter_mut().flat_map(|l| &mut l.init).collect(), vec![]),
            Stmt::Static(l) => (l.init.iter_mut().collect(), vec![]),
            Stmt::Goto { cond, skipped, .. } => (vec![cond], vec![skipped]),
            Stmt::Expr(e) | Stmt::Return(Some(e)) | Stmt::Assert(e) | Stmt::Putchar(e) => (vec![e], vec![]),
            Stmt::Printf(_, args) => (args.iter_mut().collect(), vec![]),
            Stmt::If(c, a, b) => (vec![c], std::iter::once(a).chain(b).collect()),
            Stmt::For { from, to, body, .. } => (vec![from, to], vec![body]),
            Stmt::While { cond, body, .. } => (vec![cond], vec![body]),
            Stmt::Block(b) => (vec![], vec![b]),
            Stmt::Switch(c, arms) => {
                let (labels, bodies): (Vec<_>, Vec<_>) = arms.iter_mut().map(|a| (&mut a.label, &mut a.body)).unzip();
                (std::iter::once(c).chain(labels.into_iter().flatten()).collect(), bodies)
            }
            Stmt::Break
            | Stmt::Continue
            | Stmt::Return(None)
            | Stmt::Frame
            | Stmt::Scan(_)
            | Stmt::GetChar(_)
            | Stmt::StructCopy { .. } => (vec![], vec![]),
        };
        for e in exprs {
            e.visit_mut(f);
        }
        for b in blocks {
            b.iter_mut().for_each(|s| s.visit_exprs_mut(f));
        }
    }
}

impl Program {
    /// Whether `f` holds for any statement of the program, nested ones included.
    pub fn any_stmt(&self, f: &mut impl FnMut(&Stmt) -> bool) -> bool {
        fn stmts(ss: &[Stmt], f: &mut impl FnMut(&Stmt) -> bool) -> bool {
            ss.iter().any(|s| f(s) || s.parts().1.into_iter().any(|b| stmts(b, f)))
        }
        self.funcs.iter().any(|fun| stmts(&fun.body, f))
    }

    /// Whether `f` holds for any expression of the program.
    pub fn any_expr(&self, f: &mut impl FnMut(&Expr) -> bool) -> bool {
        self.globals.iter().flat_map(|g| &g.init).any(|e| e.any(f))
            || self.struct_globals.iter().flat_map(|g| g.init.iter().flatten()).any(|e| e.any(f))
            || self.any_stmt(&mut |s| s.parts().0.into_iter().any(|e| e.any(f)))
    }

    /// Calls `f` on every expression of the program, top-down.
    pub fn visit_exprs_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        for e in self.globals.iter_mut().flat_map(|g| &mut g.init) {
            e.visit_mut(f);
        }
        for e in self.struct_globals.iter_mut().flat_map(|g| g.init.iter_mut().flatten()) {
            e.visit_mut(f);
        }
        for s in self.funcs.iter_mut().flat_map(|fun| &mut fun.body) {
            s.visit_exprs_mut(f);
        }
    }

    /// The parts of C this program uses that a report counts.
    pub fn uses(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if !self.struct_globals.is_empty() {
            out.push("structs");
        }
        if self.structs.iter().any(|d| d.union) {
            out.push("unions");
        }
        if !self.fn_pointers.is_empty() {
            out.push("function pointers");
        }
        if self.any_stmt(&mut |s| matches!(s, Stmt::Scan(_) | Stmt::GetChar(_))) {
            out.push("input");
        }
        if self.any_expr(&mut |e| matches!(e, Expr::Lib(_))) {
            out.push("library");
        }
        if self.any_expr(&mut |e| matches!(e, Expr::MacroCall(..))) {
            out.push("macros");
        }
        out
    }

    /// The structure a struct global has.
    pub fn struct_def(&self, tag: &str) -> Option<&StructDef> {
        self.structs.iter().find(|d| d.tag == tag)
    }
}
