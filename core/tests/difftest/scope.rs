//! What the generator knows while it writes: the variables in scope, the
//! functions written so far (what globals they touch, whether they can fault)
//! and the footprint of the expression being written, which keeps every
//! generated expression free of unsequenced side effects (whose result C
//! leaves open, so gcc and we could both be right and still differ).

use super::alias::Aliases;
use std::collections::BTreeSet;

pub type Names = BTreeSet<String>;

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub len: Option<usize>,
    /// Loop counters and guards are read-only: the loops must terminate.
    pub writable: bool,
    pub global: bool,
    /// A pointer parameter: the variable is `*name`.
    pub deref: bool,
    /// Only an `int` can be passed to an `int *` or `int []` parameter.
    pub ty: super::program::CTy,
}

impl Var {
    /// A read-only `int` local: a loop's counter or guard, or a recursion's depth.
    pub fn counter(name: &str) -> Var {
        let ty = super::program::CTy::Int;
        Var { name: name.to_string(), len: None, writable: false, global: false, deref: false, ty }
    }
}

/// A function's summary, for calling it safely.
#[derive(Clone, Debug)]
pub struct FnInfo {
    pub name: String,
    pub params: Vec<super::program::Kind>,
    pub returns_int: bool,
    /// Globals read and written (including by the functions it calls).
    pub reads: Names,
    pub writes: Names,
    /// Whether a call can stop the program (a division by a maybe-zero, an assert).
    pub may_fault: bool,
    /// The most times one statement of it runs per call (products of loop bounds).
    pub mult: u64,
    /// Expression and statement nodes once every call is inlined.
    pub size: usize,
    /// Recursive: the first parameter is a depth in `0..=3` that each self-call lowers.
    pub recursive: bool,
}

/// The variables and calls of one full expression so far. Each access is
/// recorded under every name that may denote its object (`alias`), so the
/// checks below see through pointer and array parameters.
#[derive(Clone, Debug, Default)]
pub struct Footprint {
    reads: Names,
    writes: Names,
    /// Globals written by the bodies of called functions.
    call_writes: Names,
    /// Targets of enclosing assignments: they may be read, not written again.
    reserved: Names,
    aliases: Aliases,
}

impl Footprint {
    pub fn new(aliases: Aliases) -> Footprint {
        Footprint { aliases, ..Footprint::default() }
    }

    pub fn can_read(&self, v: &str) -> bool {
        !self.writes.contains(v) && !self.call_writes.contains(v)
    }

    pub fn can_write(&self, v: &str) -> bool {
        self.can_read(v) && !self.reads.contains(v) && !self.reserved.contains(v)
    }

    /// A call's body runs unsequenced (indeterminately) with the rest of the expression.
    pub fn can_call(&self, f: &FnInfo) -> bool {
        f.reads.iter().all(|v| self.can_read(v)) && f.writes.iter().all(|v| self.can_read(v) && !self.reads.contains(v))
    }

    pub fn read(&mut self, v: &str) {
        self.aliases.insert(&mut self.reads, v);
    }

    pub fn write(&mut self, v: &str) {
        self.aliases.insert(&mut self.writes, v);
    }

    pub fn reserve(&mut self, v: &str) {
        self.aliases.insert(&mut self.reserved, v);
    }

    pub fn call(&mut self, f: &FnInfo) {
        for v in &f.reads {
            self.aliases.insert(&mut self.reads, v);
        }
        for v in &f.writes {
            self.aliases.insert(&mut self.call_writes, v);
        }
    }
}

/// What an expression may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// No side effects; divisions by anything and calls that can fault. A fault
    /// then leaves the same state in C and in our machine.
    Pure,
    /// Side effects (assignments, `++`, calls that write), nothing that can fault.
    Effects,
}

/// The scopes of the function being written, innermost last.
#[derive(Default)]
pub struct Scopes(Vec<Vec<Var>>);

impl Scopes {
    pub fn push(&mut self) {
        self.0.push(Vec::new());
    }

    pub fn pop(&mut self) {
        self.0.pop();
    }

    pub fn declare(&mut self, v: Var) {
        self.0.last_mut().expect("a scope").push(v);
    }

    /// Every visible variable (the innermost of each name).
    pub fn visible(&self) -> Vec<&Var> {
        let mut out: Vec<&Var> = Vec::new();
        for v in self.0.iter().flatten() {
            out.retain(|o| o.name != v.name);
            out.push(v);
        }
        out
    }

    pub fn lookup(&self, name: &str) -> Option<&Var> {
        self.0.iter().rev().flat_map(|s| s.iter().rev()).find(|v| v.name == name)
    }

    /// Names declared in the innermost scope (a redeclaration there is an error).
    pub fn innermost(&self) -> Vec<String> {
        self.0.last().map(|s| s.iter().map(|v| v.name.clone()).collect()).unwrap_or_default()
    }

    pub fn depth(&self) -> usize {
        self.0.len()
    }
}
