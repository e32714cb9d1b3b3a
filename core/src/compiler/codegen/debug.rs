//! The debug information code generation records as it goes (see
//! [`crate::debuginfo`]): the scope each instruction is generated in, the words an
//! unfinished out-of-line call has pushed, each variable's storage, and the return sites.
//! Layout turns the storage into slots.

use super::{Gen, Label, Mem};
use crate::compiler::ast::VarId;
use crate::compiler::resolved::Ty;
use crate::ctypes::IntTy;
use crate::debuginfo::{At, CType};
use std::collections::HashMap;

/// How an activation is entered, before layout places slots.
#[derive(Clone, Copy, Debug)]
pub enum CallGen {
    Entry,
    Inline {
        line: u32,
    },
    Outlined,
    /// An output routine; its site number's slot is placed by `print_routines`.
    Library {
        site: Mem,
    },
}

#[derive(Clone, Debug)]
pub struct FrameGen {
    pub func: String,
    pub call: CallGen,
    pub result: Option<Mem>,
}

#[derive(Clone, Debug)]
pub struct ScopeGen {
    pub parent: Option<u32>,
    pub frame: Option<FrameGen>,
    pub vars: Vec<(VarId, Mem)>,
}

#[derive(Clone, Debug)]
pub struct SiteGen {
    pub callee: u32,
    pub number: i32,
    pub scope: u32,
    pub line: u32,
    pub saved: usize,
    /// The first saved slot (the out-of-line region's start), when the caller is in it.
    pub saved_from: Option<Mem>,
}

/// What code generation hands layout for [`crate::debuginfo::DebugInfo`].
#[derive(Default)]
pub struct Tracker {
    pub scopes: Vec<ScopeGen>,
    pub sites: Vec<SiteGen>,
    /// The debug position of each trap, in the order of `Gen::traps`.
    pub traps: Vec<At>,
    current: u32,
    pushed: i32,
    call: Option<u32>,
    /// The frame scope of each out-of-line body, by its entry label.
    roots: HashMap<Label, u32>,
}

impl Tracker {
    pub fn at(&self) -> At {
        At { scope: self.current, pushed: self.pushed, call: self.call }
    }

    fn open(&mut self, parent: Option<u32>, frame: Option<FrameGen>) -> u32 {
        self.scopes.push(ScopeGen { parent, frame, vars: Vec::new() });
        (self.scopes.len() - 1) as u32
    }
}

/// A C type as the debugger shows it.
pub fn ctype(t: &Ty) -> CType {
    match t {
        Ty::Int(t) => CType::Int(*t),
        // Never reaches code generation (see `Ty::Error`); shown as C's default type.
        Ty::Error => CType::Int(IntTy::Int),
        // `debuginfo` has no function type: a function pointer shows the number it holds.
        Ty::Func(_) | Ty::Void => CType::Int(IntTy::UInt),
        // Nor a `void *`, which points to no value to show.
        Ty::Ptr(t) if matches!(**t, Ty::Func(_) | Ty::Void) => CType::Int(IntTy::UInt),
        Ty::Ptr(t) => CType::Ptr(Box::new(ctype(t))),
        Ty::Array(t, n) => CType::Array(Box::new(ctype(t)), *n),
        Ty::Struct(s) => CType::Struct { id: s.id as u32, name: s.name.clone(), words: s.words, union: s.union },
    }
}

impl Gen<'_> {
    /// Opens `main`'s scope: the first one.
    pub(super) fn debug_main(&mut self) {
        let name = self.r.unit.funcs[self.r.main].name.clone();
        let s = self.debug.open(None, Some(FrameGen { func: name, call: CallGen::Entry, result: None }));
        self.debug.current = s;
    }

    /// Generates `body` in a new block scope; returns what it returns.
    pub(super) fn in_block<T>(&mut self, body: impl FnOnce(&mut Self) -> T) -> T {
        let outer = self.debug.current;
        self.debug.current = self.debug.open(Some(outer), None);
        let out = body(self);
        self.debug.current = outer;
        out
    }

    /// Enters the scope of an inlined call of `f` (the arguments are evaluated); returns the
    /// caller's scope, for [`Gen::debug_leave`].
    pub(super) fn debug_inline(&mut self, f: usize, ret: Option<Mem>, line: u32) -> u32 {
        let outer = self.debug.current;
        let func = self.r.unit.funcs[f].name.clone();
        let frame = FrameGen { func, call: CallGen::Inline { line }, result: ret };
        self.debug.current = self.debug.open(Some(outer), Some(frame));
        outer
    }

    pub(super) fn debug_leave(&mut self, outer: u32) {
        self.debug.current = outer;
    }

    /// The frame scope of the out-of-line body entered at `entry` (created on first use).
    pub(super) fn debug_root(&mut self, entry: Label, func: &str, call: CallGen, result: Option<Mem>) -> u32 {
        if let Some(&s) = self.debug.roots.get(&entry) {
            return s;
        }
        let s = self.debug.open(None, Some(FrameGen { func: func.to_string(), call, result }));
        self.debug.roots.insert(entry, s);
        s
    }

    /// Generation continues in out-of-line body `scope`, with nothing pushed.
    pub(super) fn debug_enter_root(&mut self, scope: u32) {
        self.debug.pushed = 0;
        self.debug.current = scope;
    }

    /// Records a return site of an out-of-line call (the caller's scope is the current one);
    /// returns its index.
    pub(super) fn debug_site(&mut self, callee: u32, number: usize, saved: usize, saved_from: Option<Mem>) -> u32 {
        let line = self.loc.map_or(0, |l| l.line);
        let (scope, number) = (self.debug.current, number as i32);
        self.debug.sites.push(SiteGen { callee, number, scope, line, saved, saved_from });
        (self.debug.sites.len() - 1) as u32
    }

    /// Instructions from here on are inside the call through `site` (`None`: no longer).
    pub(super) fn debug_call(&mut self, site: Option<u32>) {
        self.debug.call = site;
    }

    /// The run-time stack grew (`+1`) or shrank (`−1`) by one word in this activation.
    pub(super) fn debug_push(&mut self, words: i32) {
        self.debug.pushed += words;
    }

    pub(super) fn debug_set_pushed(&mut self, words: i32) {
        self.debug.pushed = words;
    }

    /// Variable `id` is visible from here on in the current scope, stored at `m`.
    pub(super) fn debug_var(&mut self, id: VarId, m: Mem) {
        let cur = self.debug.current as usize;
        self.debug.scopes[cur].vars.push((id, m));
    }

    /// Gives the library frame's site slot its place (see `print_routines`).
    pub(super) fn debug_place_site(&mut self, entry: Label, site: Mem) {
        if let Some(&s) = self.debug.roots.get(&entry) {
            if let Some(f) = &mut self.debug.scopes[s as usize].frame {
                f.call = CallGen::Library { site };
            }
        }
    }
}
