//! The memory view: the globals and each activation's variables as objects of cells (the
//! frames-and-objects picture of visual debuggers). An array is a row of cells, a
//! structure its fields, a pointer a cell that names its target (`→ a[2]`,
//! `→ pool[3].next`, `NULL`, `outside memory`) and gives its slot for a front end to
//! draw the arrow to; a cell whose word the last move changed is marked.

use super::value::{Object, Reader};
use super::{Debugger, Frame};
use crate::debuginfo::{CType, Home, Var};
use crate::engine::Engine;

/// The most cells an object shows (a longer array ends early, `more` says by how many).
const CELLS: usize = 64;

/// The most cells a row of an array of scalars holds.
const ROW: usize = 16;

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemoryView {
    /// `globals` first, then the activations from `main` inwards (library frames left out).
    pub regions: Vec<MemRegion>,
}

/// The globals, or one activation's variables.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemRegion {
    /// `globals`, `main`, `fact#3`.
    pub name: String,
    pub objects: Vec<MemObject>,
}

/// A variable: its cells, drawn `columns` to a row (an array of structures one element
/// to a row, a structure's fields side by side).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemObject {
    pub name: String,
    pub ty: String,
    pub columns: usize,
    pub cells: Vec<MemCell>,
    /// Cells not shown past the last one.
    pub more: usize,
}

/// One word of an object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemCell {
    /// Its place in the object: `[2]`, `[3].next`, `.v`, empty for a scalar.
    pub label: String,
    /// The memory slot the word is in now (`None`: a constant the compiler substituted).
    pub slot: Option<usize>,
    /// As a learner reads it: `42`, `'a'`, `→ a[2]`, `NULL`, `?` (not this activation's).
    pub value: String,
    /// A pointer's target slot, when it points at a named word of memory.
    pub target: Option<usize>,
    /// The last move changed this word.
    pub changed: bool,
}

impl Debugger {
    /// The memory view now. `before`: memory (by slot) before the last move, to mark the
    /// cells it changed (none without it).
    pub fn memory(&self, before: Option<&[i32]>) -> MemoryView {
        let frames = self.raw_frames();
        let objects = self.objects(&frames);
        let d = &self.program.debug;
        let mut regions = vec![MemRegion {
            name: "globals".into(),
            objects: d.globals.iter().map(|&v| self.object(&objects, None, &d.vars[v as usize], before)).collect(),
        }];
        let views = self.frames();
        for (f, view) in frames.iter().zip(&views).rev().filter(|(f, _)| !f.library) {
            // `FrameView` lists the variables in declaration order, as `Frame` does reversed.
            let objects = f.vars.iter().rev().map(|&v| self.object(&objects, Some(f), &d.vars[v as usize], before));
            regions.push(MemRegion { name: view.label(), objects: objects.collect() });
        }
        MemoryView { regions }
    }

    fn object(&self, objects: &[Object], frame: Option<&Frame>, var: &Var, before: Option<&[i32]>) -> MemObject {
        let mem = |s: usize| self.machine.read_slot(s);
        let word = |s: usize| match frame {
            Some(f) => f.word(s, &mem),
            None => Some(mem(s)),
        };
        let r = Reader {
            word: &word,
            objects,
            structs: &self.program.debug.structs,
            mem_slots: self.program.config.mem_slots,
            word_bits: self.program.config.word_bits,
        };
        let mut cells = Vec::new();
        let mut more = 0;
        match var.home {
            Home::Const(v) => cells.push(MemCell {
                label: String::new(),
                slot: None,
                value: cell_text(&r, &var.ty, v),
                target: None,
                changed: false,
            }),
            Home::Slot(s) => {
                let home = |slot: usize| frame.map_or(Some(slot), |f| f.home(slot));
                let mut leaf = |label: String, ty: &CType, slot: usize| {
                    if cells.len() == CELLS {
                        more += 1;
                        return;
                    }
                    let at = home(slot);
                    let now = at.map(mem);
                    let target = match (ty, now) {
                        (CType::Ptr(t), Some(p)) => {
                            usize::try_from(p).ok().filter(|_| r.pointer(Some(t), p).starts_with('→'))
                        }
                        _ => None,
                    };
                    let changed = at.zip(before).is_some_and(|(h, b)| b.get(h).is_some_and(|&old| Some(old) != now));
                    let value = now.map_or_else(|| "?".into(), |v| cell_text(&r, ty, v));
                    cells.push(MemCell { label, slot: at, value, target, changed });
                };
                walk(&r, &var.ty, s, String::new(), &mut leaf);
            }
        }
        MemObject { name: var.name.clone(), ty: var.ty.describe(), columns: columns(&r, &var.ty), cells, more }
    }
}

/// Calls `leaf` for every scalar word of an object of type `ty` at `slot`, with its place.
fn walk(r: &Reader, ty: &CType, slot: usize, label: String, leaf: &mut dyn FnMut(String, &CType, usize)) {
    match ty {
        CType::Array(t, n) => {
            for i in 0..*n {
                walk(r, t, slot + i * t.words(), format!("{label}[{i}]"), leaf);
            }
        }
        CType::Struct { id, .. } => {
            for f in r.fields(*id) {
                walk(r, &f.ty, slot + f.offset, format!("{label}.{}", f.name), leaf);
            }
        }
        t => leaf(label, t, slot),
    }
}

/// Cells to a row: an array's element whole (a structure, a row of a matrix), else a
/// row of at most [`ROW`] scalars.
fn columns(r: &Reader, ty: &CType) -> usize {
    match ty {
        CType::Array(t, n) if matches!(**t, CType::Int(_) | CType::Ptr(_)) => (*n).clamp(1, ROW),
        CType::Array(t, _) => leaves(r, t).clamp(1, CELLS),
        t => leaves(r, t).max(1),
    }
}

/// The scalar words an object of type `ty` has (what [`walk`] visits).
fn leaves(r: &Reader, ty: &CType) -> usize {
    match ty {
        CType::Array(t, n) => n * leaves(r, t),
        CType::Struct { id, .. } => r.fields(*id).iter().map(|f| leaves(r, &f.ty)).sum(),
        _ => 1,
    }
}

/// A word as a cell shows it: a character type as its character (`'a'`) when it has one
/// to show, anything else as [`Reader::scalar`] does.
fn cell_text(r: &Reader, ty: &CType, v: i32) -> String {
    match ty {
        CType::Int(t) if t.info().bits == 8 => {
            let x = t.convert(i64::from(v), r.word_bits);
            match u8::try_from(x).ok().map(char::from) {
                Some(c) if c == '\'' || c == '\\' => format!("'\\{c}'"),
                Some(c) if c.is_ascii_graphic() || c == ' ' => format!("'{c}'"),
                Some('\n') => "'\\n'".into(),
                Some('\0') => "'\\0'".into(),
                _ => x.to_string(),
            }
        }
        t => r.scalar(t, v),
    }
}
