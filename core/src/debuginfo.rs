//! Debug information: what the compiler knows about each instruction and variable, kept
//! beside the image so a debugger can name the machine's state in C's words.
//!
//! Every instruction belongs to a *scope* (a block of a function's body). A scope that
//! starts a function's activation is a frame: an inlined call (its caller is the parent
//! scope, at the call's line), an out-of-line recursive function (its caller is found
//! on the run-time stack by the return-site number the call pushed), an output routine
//! (a library frame, its caller named by the site number in a slot of its own) or
//! `main`. Variables live in a memory slot or, when the compiler substituted a constant
//! argument, nowhere but the code (`Home::Const`).
//!
//! Built by code generation from what it records anyway (the scope it generates, the
//! words an unfinished call sequence has pushed) and placed by layout. An image from the
//! assembler has none (`DebugInfo::default()`): a debugger then knows only instructions.

use crate::ctypes::IntTy;

/// The side table of a compiled image.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct DebugInfo {
    pub scopes: Vec<Scope>,
    pub vars: Vec<Var>,
    /// The global variables, indices into `vars`.
    pub globals: Vec<u32>,
    /// One entry per instruction (empty for an image without debug information).
    pub at: Vec<At>,
    /// The return sites of out-of-line calls (recursive functions, output routines).
    pub sites: Vec<Site>,
    /// The structures, by [`CType::Struct`]'s `id` (one without members only named).
    pub structs: Vec<StructInfo>,
}

/// A structure's members, for a debugger to show an object of it field by field.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StructInfo {
    pub name: String,
    /// A `union`: every member starts at offset 0 (as [`CType::Struct`]'s `union` says).
    pub union: bool,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    pub name: String,
    pub ty: CType,
    /// Its first word's offset in the structure, in words.
    pub offset: usize,
}

/// Where an instruction is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct At {
    /// Index into [`DebugInfo::scopes`].
    pub scope: u32,
    /// Words an unfinished call sequence of this activation has pushed on the run-time
    /// stack before the instruction executes (−1 in a return dispatch, which has popped
    /// the site number): the activation's base is the stack pointer minus this.
    pub pushed: i32,
    /// Between the push of a return-site number and the last pop after the return: the
    /// site (index into [`DebugInfo::sites`]). The activation's own words of the
    /// out-of-line region are then the copies it saved, from its base up.
    pub call: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Scope {
    /// The enclosing scope; `None` for a frame whose caller is found at run time, or `main`.
    pub parent: Option<u32>,
    /// Set when the scope starts a function's activation.
    pub frame: Option<Frame>,
    /// Variables declared in this scope, indices into [`DebugInfo::vars`], in order.
    pub vars: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Frame {
    pub func: String,
    pub call: Call,
    /// Where the function's result is when it returns (`None` for `void`, or an unused result).
    pub result: Option<Home>,
}

/// How an activation was entered, which says how to find its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Call {
    /// `main`: no caller.
    Entry,
    /// Inlined: the caller is the parent scope, stopped at `line`.
    Inline { line: u32 },
    /// A recursive function: the return-site number is the word below the activation's base.
    Outlined,
    /// An output routine (a library frame): the return-site number is in `site`.
    Library { site: usize },
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Var {
    pub name: String,
    pub ty: CType,
    pub home: Home,
    /// The declaration's line.
    pub line: u32,
}

/// Where a variable's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", content = "at", rename_all = "lowercase")]
pub enum Home {
    /// The first memory slot of the object.
    Slot(usize),
    /// A constant the compiler substituted for a parameter the callee never assigns.
    Const(i32),
}

/// A C type as a debugger shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CType {
    /// One of C's integer types (`ctypes`), one memory slot whatever its width.
    Int(IntTy),
    Ptr(Box<CType>),
    Array(Box<CType>, usize),
    /// A structure: its members are in [`DebugInfo::structs`] at `id` (a member may point
    /// to its own structure, so the type names them rather than holding them). `union`:
    /// the compiler's type is a `union` (its members share its words).
    Struct {
        id: u32,
        name: String,
        words: usize,
        union: bool,
    },
}

impl CType {
    /// Memory words an object of this type occupies.
    pub fn words(&self) -> usize {
        match self {
            CType::Int(_) | CType::Ptr(_) => 1,
            CType::Array(t, n) => n * t.words(),
            CType::Struct { words, .. } => *words,
        }
    }

    /// C's spelling: `int`, `unsigned char *`, `int[4]`, `int[2][3]`, `int (*)[4]`,
    /// `struct node *`, `union word`.
    pub fn describe(&self) -> String {
        match self {
            CType::Int(t) => t.name().into(),
            CType::Ptr(t) if matches!(**t, CType::Array(..)) => format!("{} (*){}", t.base().describe(), t.dims()),
            CType::Ptr(t) => format!("{} *", t.describe()),
            CType::Array(..) => format!("{}{}", self.base().describe(), self.dims()),
            CType::Struct { name, union, .. } => format!("{} {name}", keyword(*union)),
        }
    }

    fn dims(&self) -> String {
        match self {
            CType::Array(t, n) => format!("[{n}]{}", t.dims()),
            _ => String::new(),
        }
    }

    /// An array's element type, all dimensions down (any other type itself).
    pub fn base(&self) -> &CType {
        match self {
            CType::Array(t, _) => t.base(),
            t => t,
        }
    }
}

/// The keyword that introduces a structure's type.
fn keyword(union: bool) -> &'static str {
    if union {
        "union"
    } else {
        "struct"
    }
}

/// A return site of an out-of-line call.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Site {
    /// The callee's frame scope.
    pub callee: u32,
    /// The number the callee's return dispatch compares (from 1).
    pub number: i32,
    /// The caller's scope at the call.
    pub scope: u32,
    /// The call's line.
    pub line: u32,
    /// Words of the caller's frame pushed below the site number: a recursive call from an
    /// out-of-line body saves its slots `saved_from ..` that are live across the call.
    pub saved: usize,
    /// The first slot of the out-of-line bodies' region, when the caller is one of them:
    /// its slots from there on hold the callee's values; the caller's are the saved copies.
    pub saved_from: Option<usize>,
}

impl DebugInfo {
    /// The scopes from the one at instruction `k` outwards, through inlined callers, to the
    /// first frame whose caller is found at run time.
    pub fn chain(&self, k: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let mut s = self.at.get(k).map(|a| a.scope);
        while let Some(id) = s {
            out.push(id);
            s = self.scopes[id as usize].parent;
        }
        out
    }

    /// The site of an out-of-line call of the frame scope `callee` numbered `number`.
    pub fn site(&self, callee: u32, number: i32) -> Option<&Site> {
        self.sites.iter().find(|s| s.callee == callee && s.number == number)
    }
}

impl std::fmt::Display for Home {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Home::Slot(s) => write!(f, "slot {s}"),
            Home::Const(v) => write!(f, "constant {v}"),
        }
    }
}

/// A readable dump (the golden files pin it): scopes with their variables, the sites,
/// and the instructions' positions as runs of equal ones.
impl std::fmt::Display for DebugInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let var = |f: &mut std::fmt::Formatter<'_>, v: u32| {
            let v = &self.vars[v as usize];
            writeln!(f, "    {}: {} at {} (line {})", v.name, v.ty.describe(), v.home, v.line)
        };
        writeln!(f, "globals")?;
        for &v in &self.globals {
            var(f, v)?;
        }
        for (i, s) in self.scopes.iter().enumerate() {
            let parent = s.parent.map_or(String::new(), |p| format!(" in {p}"));
            let what = match &s.frame {
                None => "block".to_string(),
                Some(fr) => {
                    let call = match fr.call {
                        Call::Entry => "entry".to_string(),
                        Call::Inline { line } => format!("inlined at line {line}"),
                        Call::Outlined => "out of line".to_string(),
                        Call::Library { site } => format!("library, site number in slot {site}"),
                    };
                    let result = fr.result.map_or(String::new(), |h| format!(", result at {h}"));
                    format!("frame {} ({call}{result})", fr.func)
                }
            };
            writeln!(f, "scope {i}{parent}: {what}")?;
            for &v in &s.vars {
                var(f, v)?;
            }
        }
        for s in self.structs.iter().filter(|s| !s.fields.is_empty()) {
            let fields: Vec<String> =
                s.fields.iter().map(|m| format!("{}: {} at +{}", m.name, m.ty.describe(), m.offset)).collect();
            writeln!(f, "{} {} {{ {} }}", keyword(s.union), s.name, fields.join(", "))?;
        }
        for (i, s) in self.sites.iter().enumerate() {
            let from = s.saved_from.map_or(String::new(), |x| format!(" from slot {x}"));
            writeln!(
                f,
                "site {i}: scope {} #{} from scope {} at line {}, saves {}{from}",
                s.callee, s.number, s.scope, s.line, s.saved
            )?;
        }
        let mut k = 0;
        while k < self.at.len() {
            let a = self.at[k];
            let end = k + self.at[k..].iter().take_while(|&&b| b == a).count();
            let call = a.call.map_or(String::new(), |c| format!(" in call {c}"));
            writeln!(f, "{k}..{end}: scope {} pushed {}{call}", a.scope, a.pushed)?;
            k = end;
        }
        Ok(())
    }
}
