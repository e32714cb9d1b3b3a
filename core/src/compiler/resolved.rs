//! The checker's output, between it and code generation: the syntax tree as
//! parsed plus side tables keyed by [`NodeId`] (which variable a name means,
//! which function a call calls, each expression's type) and the call graph,
//! built once. Code generation reads them through accessors that fail loudly
//! when an invariant is broken: the checker resolved every name of a program
//! without errors, so a missing entry is a compiler bug, never a default.

use super::ast::*;
use crate::ctypes::IntTy;
use crate::diag::Span;
use std::collections::{HashMap, HashSet};

/// A structure as a type: its identity and sizes, without its members (the checker keeps
/// those, so a member may point to its own structure). `complete` is false for a `struct`
/// only named (`struct node;`), which only a pointer may refer to.
#[derive(Clone, Debug)]
pub struct StructTy {
    pub id: usize,
    pub name: String,
    pub words: usize,
    /// `sizeof`: C's bytes with gcc's padding, of the clipped widths (see `Ty::size`).
    pub bytes: i64,
    pub align: i64,
    pub complete: bool,
    /// A `union` (its members share its words).
    pub union: bool,
}

/// One structure is one type, however complete the copy at hand (a member pointing to its
/// own structure was typed while the structure was being sized).
impl PartialEq for StructTy {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for StructTy {}

/// A function's type: what a function pointer points to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnTy {
    pub params: Vec<Ty>,
    /// `None` for `void`.
    pub ret: Option<Ty>,
}

/// A C type. Every scalar (an integer of any width, a pointer) occupies one memory word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Int(IntTy),
    Ptr(Box<Ty>),
    Array(Box<Ty>, usize),
    Struct(StructTy),
    /// A function (a function's name, `*f`): it decays to a pointer to itself, whose value
    /// is the function's number (see `Resolved::fn_value`).
    Func(Box<FnTy>),
    /// `void`, only as what a `void *` points to (it converts to and from any object pointer).
    Void,
    /// The type of an expression already reported as wrong (an undefined name): accepted
    /// everywhere, so one mistake gives one message. Never reaches code generation.
    Error,
}

impl Ty {
    /// Memory words an object of this type occupies.
    pub fn words(&self) -> usize {
        match self {
            Ty::Int(_) | Ty::Ptr(_) | Ty::Func(_) | Ty::Void | Ty::Error => 1,
            Ty::Array(t, n) => n * t.words(),
            Ty::Struct(s) => s.words,
        }
    }

    /// The type of this type's value: an array decays to a pointer to its first element.
    pub fn decayed(&self) -> Ty {
        match self {
            Ty::Array(t, _) => Ty::Ptr(t.clone()),
            Ty::Func(_) => Ty::Ptr(Box::new(self.clone())),
            t => t.clone(),
        }
    }

    /// What a pointer (or an array, decayed) points to.
    pub fn pointee(&self) -> Option<&Ty> {
        match self {
            Ty::Ptr(t) | Ty::Array(t, _) => Some(t),
            Ty::Int(_) | Ty::Struct(_) | Ty::Func(_) | Ty::Void | Ty::Error => None,
        }
    }

    /// `int`.
    pub const INT: Ty = Ty::Int(IntTy::Int);

    /// The integer type, when this is one.
    pub fn int(&self) -> Option<IntTy> {
        match self {
            Ty::Int(t) => Some(*t),
            _ => None,
        }
    }

    /// A character type (`char`, `signed char`, `unsigned char`): strings are arrays of them.
    pub fn is_char(&self) -> bool {
        matches!(self, Ty::Int(IntTy::Char | IntTy::SChar | IntTy::UChar))
    }

    /// Bytes `sizeof` reports on a machine with `word`-bit words: an integer's clipped width,
    /// a pointer's word (see BUILTINS.md: memory holds one value per slot, whatever its size).
    pub fn size(&self, word: u32) -> i64 {
        match self {
            Ty::Int(t) => t.size(word),
            Ty::Ptr(_) | Ty::Error => i64::from(word / 8),
            Ty::Array(t, n) => *n as i64 * t.size(word),
            Ty::Struct(s) => s.bytes,
            // gcc's extension: `sizeof` of a function or of `void` is 1.
            Ty::Func(_) | Ty::Void => 1,
        }
    }

    /// gcc's alignment of the type in bytes (a structure's members are placed by it).
    pub fn align(&self, word: u32) -> i64 {
        match self {
            Ty::Array(t, _) => t.align(word),
            Ty::Struct(s) => s.align,
            t => t.size(word),
        }
    }

    pub fn is_struct(&self) -> bool {
        matches!(self, Ty::Struct(_))
    }

    /// An array or a structure: several words, shown as a list.
    pub fn is_aggregate(&self) -> bool {
        self.is_array() || self.is_struct()
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Ty::Array(..))
    }

    pub fn is_ptr(&self) -> bool {
        matches!(self, Ty::Ptr(_))
    }

    /// A `void *`.
    pub fn is_void_ptr(&self) -> bool {
        matches!(self, Ty::Ptr(t) if **t == Ty::Void)
    }

    /// The function a function pointer points to.
    pub fn fn_pointee(&self) -> Option<&FnTy> {
        match self {
            Ty::Ptr(t) => match &**t {
                Ty::Func(f) => Some(f),
                _ => None,
            },
            _ => None,
        }
    }

    /// C's spelling, for messages: `int`, `int *`, `int[4]`, `int (*)[4]`.
    pub fn describe(&self) -> String {
        match self {
            Ty::Int(t) => t.name().into(),
            Ty::Error => "int".into(),
            Ty::Void => "void".into(),
            Ty::Ptr(t) if t.is_array() => format!("int (*){}", t.dims()),
            Ty::Ptr(t) if matches!(**t, Ty::Func(_)) => t.describe().replacen("(", "(*)(", 1),
            Ty::Func(f) => {
                let ret = f.ret.as_ref().map_or("void".to_string(), Ty::describe);
                let params: Vec<String> = f.params.iter().map(Ty::describe).collect();
                let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
                format!("{ret} ({params})")
            }
            Ty::Ptr(t) => format!("{} *", t.describe()),
            Ty::Array(..) => format!("{}{}", self.element_base().describe(), self.dims()),
            Ty::Struct(s) => format!("{} {}", if s.union { "union" } else { "struct" }, s.name),
        }
    }

    fn dims(&self) -> String {
        match self {
            Ty::Array(t, n) => format!("[{n}]{}", t.dims()),
            _ => String::new(),
        }
    }

    /// The type of each word of an object of this type (an array's innermost element).
    pub fn element_base(&self) -> &Ty {
        match self {
            Ty::Array(t, _) => t.element_base(),
            t => t,
        }
    }
}

/// One word of an initialized object.
#[derive(Clone, Debug)]
pub enum InitWord {
    Zero,
    Value(i64),
    /// An expression, converted to the word's type (an element's, or a member's).
    Expr(Expr, Ty),
}

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub span: Span,
    pub ty: Ty,
    /// Memory slot of a global; locals are placed by code generation.
    pub global_slot: Option<usize>,
    /// `"global"` or the declaring function's name (also for a `static` local, which has a global slot).
    pub scope: String,
    /// Declared `const`: the checker refuses writes to it.
    pub konst: bool,
}

/// Who calls whom, built once by the checker.
#[derive(Debug, Default)]
pub struct CallGraph {
    /// The user functions each function calls directly, with the first call's span.
    pub callees: Vec<Vec<(usize, Span)>>,
    /// Functions on a cycle of calls (direct or mutual recursion): compiled once, out of line.
    pub recursive: Vec<bool>,
    /// Functions that are recursive or call one, directly or not.
    pub reaches_recursion: Vec<bool>,
    /// The globals each function reads or writes, directly or through its calls.
    pub globals_used: Vec<HashSet<VarId>>,
    /// Functions that read or write through a pointer, directly or through their calls.
    pub through_pointers: Vec<bool>,
}

impl CallGraph {
    pub fn new(callees: Vec<Vec<(usize, Span)>>, direct_globals: Vec<HashSet<VarId>>, derefs: Vec<bool>) -> CallGraph {
        let n = callees.len();
        let reach = |f: usize| {
            let (mut seen, mut todo) = (HashSet::new(), vec![f]);
            while let Some(g) = todo.pop() {
                for &(h, _) in &callees[g] {
                    if seen.insert(h) {
                        todo.push(h);
                    }
                }
            }
            seen
        };
        let reachable: Vec<HashSet<usize>> = (0..n).map(reach).collect();
        let recursive: Vec<bool> = (0..n).map(|f| reachable[f].contains(&f)).collect();
        let reaches_recursion = (0..n).map(|f| recursive[f] || reachable[f].iter().any(|&g| recursive[g])).collect();
        let globals_used = (0..n)
            .map(|f| {
                let mut all = direct_globals[f].clone();
                reachable[f].iter().for_each(|&g| all.extend(direct_globals[g].iter().copied()));
                all
            })
            .collect();
        let through_pointers = (0..n).map(|f| derefs[f] || reachable[f].iter().any(|&g| derefs[g])).collect();
        CallGraph { callees, recursive, reaches_recursion, globals_used, through_pointers }
    }
}

/// A checked program: the tree, its side tables and its call graph.
pub struct Resolved {
    pub unit: Unit,
    /// Each function's type, by its index in `unit.funcs`.
    pub sigs: Vec<FnTy>,
    pub vars: Vec<VarInfo>,
    pub main: usize,
    /// Initial words of the globals (and of string literals), by slot.
    pub data: Vec<i64>,
    pub calls: CallGraph,
    /// By node: the variable a name or declaration means.
    pub(super) names: HashMap<NodeId, VarId>,
    pub(super) callees: HashMap<NodeId, Callee>,
    pub(super) types: HashMap<NodeId, Ty>,
    /// By node: the slot of a string literal's characters (a hidden global).
    pub(super) strings: HashMap<NodeId, usize>,
    /// By node: the value of a `case` label (converted to the promoted type of its `switch`).
    pub(super) cases: HashMap<NodeId, i64>,
    /// By function-pointer call: the functions it may call (those whose address the program
    /// takes, of the pointer's type), in order; their numbers are `fn_value`.
    pub(super) indirect: HashMap<NodeId, Vec<usize>>,
    /// By node: the value of a `sizeof`.
    pub(super) sizes: HashMap<NodeId, i64>,
    /// By member access (`s.x`, `p->x`): the member's offset in words.
    pub(super) members: HashMap<NodeId, usize>,
    /// Variables whose address is taken (`&x`, an array used as a pointer): a write through
    /// a pointer may change them.
    pub exposed: HashSet<VarId>,
    /// By local declaration: its initializer, one entry per word.
    pub(super) inits: HashMap<NodeId, Vec<InitWord>>,
    /// By structure number: its name, whether it is a `union`, and members (none for one only named).
    pub structs: Vec<(String, bool, Vec<super::checker::Member>)>,
}

/// A function pointer's value: the function's number plus one, so no function is `NULL`
/// (memory is not code: a pointer to a function names it, and a call through it dispatches).
pub fn fn_value(f: usize) -> i64 {
    f as i64 + 1
}

impl Resolved {
    /// The variable a `Var` expression names.
    pub fn var(&self, e: &Expr) -> VarId {
        *self.names.get(&e.id).expect("invariant: the checker resolved every name")
    }

    /// The variable a declaration declares.
    pub fn decl(&self, d: &VarDecl) -> VarId {
        *self.names.get(&d.id).expect("invariant: the checker declared every declaration")
    }

    pub fn callee(&self, e: &Expr) -> Callee {
        *self.callees.get(&e.id).expect("invariant: the checker resolved every call")
    }

    /// The type of an expression (before an array decays).
    pub fn ty(&self, e: &Expr) -> &Ty {
        self.types.get(&e.id).expect("invariant: the checker typed every expression")
    }

    /// The functions a call through a pointer may call.
    pub fn candidates(&self, e: &Expr) -> &[usize] {
        self.indirect.get(&e.id).expect("invariant: the checker resolved every call through a pointer")
    }

    /// The function a function's name (`ExprKind::Func`) means.
    pub fn func(&self, e: &Expr) -> usize {
        match self.callees.get(&e.id) {
            Some(Callee::User(f)) => *f,
            _ => unreachable!("invariant: the checker resolved every function's name"),
        }
    }

    /// The slot holding a string literal's characters.
    pub fn string_slot(&self, e: &Expr) -> usize {
        *self.strings.get(&e.id).expect("invariant: the checker placed every string literal")
    }

    /// A local declaration's initializer, flattened to its words.
    pub fn init_words(&self, d: &VarDecl) -> &[InitWord] {
        self.inits.get(&d.id).expect("invariant: the checker flattened every local initializer")
    }

    /// The offset in words of the member a member access names.
    pub fn member_offset(&self, e: &Expr) -> usize {
        *self.members.get(&e.id).expect("invariant: the checker resolved every member access")
    }

    pub fn case_value(&self, e: &Expr) -> i64 {
        *self.cases.get(&e.id).expect("invariant: the checker folded every case label")
    }

    /// What constant folding reads about the program.
    pub fn facts<'a>(&'a self, cfg: &'a crate::config::Config) -> super::fold::Facts<'a> {
        super::fold::Facts { cfg, types: &self.types, sizes: &self.sizes }
    }

    /// The variable `e` names, when it is a plain name.
    pub fn var_of(&self, e: &Expr) -> Option<VarId> {
        matches!(e.kind, ExprKind::Var(_)).then(|| self.var(e))
    }
}
