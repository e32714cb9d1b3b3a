//! Values as a learner reads them, shared by every front end: numbers in decimal,
//! arrays as `{1, 2, 3}`, a pointer as its target (`→ a[2]`, `→ total`, `NULL`, or
//! `outside memory`), a structure as `{v = 1, next = → pool[2]}` (gdb's way: each member
//! by its own type, a union's every member reading the shared words as its own), a word
//! the activation cannot see as `?`.

use crate::debuginfo::{CType, Field, Home, StructInfo};
use crate::image::Program;
use crate::report;

/// The longest array (and the most members of a structure) shown whole; longer ones end in `…`.
const SHOWN: usize = 16;

/// An object a pointer may point into: a variable's name, type and first slot.
#[derive(Clone, Copy)]
pub struct Object<'a> {
    pub name: &'a str,
    pub ty: &'a CType,
    pub slot: usize,
}

/// What a value is read from: memory as the frame sees it, and the objects pointers name.
pub struct Reader<'a> {
    pub word: &'a dyn Fn(usize) -> Option<i32>,
    pub objects: &'a [Object<'a>],
    /// The structures' members (the debug information's).
    pub structs: &'a [StructInfo],
    pub mem_slots: usize,
    /// The machine's word size: an integer type's width is clipped to it.
    pub word_bits: u32,
}

impl Reader<'_> {
    /// The object of type `ty` at `slot`.
    pub fn at(&self, ty: &CType, slot: usize) -> String {
        match ty {
            CType::Array(t, n) => {
                let cells: Vec<String> = (0..(*n).min(SHOWN)).map(|i| self.at(t, slot + i * t.words())).collect();
                let more = if *n > SHOWN { ", …" } else { "" };
                format!("{{{}{more}}}", cells.join(", "))
            }
            CType::Struct { id, .. } => {
                let all = self.fields(*id);
                let fields: Vec<String> = all
                    .iter()
                    .take(SHOWN)
                    .map(|f| format!("{} = {}", f.name, self.at(&f.ty, slot + f.offset)))
                    .collect();
                let more = if all.len() > SHOWN { ", …" } else { "" };
                format!("{{{}{more}}}", fields.join(", "))
            }
            t => match (self.word)(slot) {
                Some(v) => self.scalar(t, v),
                None => "?".into(),
            },
        }
    }

    /// A one-word value of type `ty`.
    pub fn scalar(&self, ty: &CType, v: i32) -> String {
        match ty {
            CType::Ptr(t) => self.pointer(Some(t), v),
            CType::Int(t) => {
                // The word holds the value converted to its type (an `unsigned` above INT_MAX
                // is stored as a negative word); a character type also shows its character.
                let x = t.convert(i64::from(v), self.word_bits);
                match u8::try_from(x).ok().filter(|_| t.info().bits == 8).map(char::from) {
                    Some(c) if c == '\'' || c == '\\' => format!("{x} '\\{c}'"),
                    Some(c) if c.is_ascii_graphic() || c == ' ' => format!("{x} '{c}'"),
                    _ => x.to_string(),
                }
            }
            CType::Array(..) | CType::Struct { .. } => v.to_string(),
        }
    }

    /// Where a pointer to `to` (its pointee type, when known) points, in the words of the
    /// program: the object of that type there (`→ pool[3]` for a `struct node *`,
    /// `→ pool[3].v` for an `int *`). Zero is `NULL` (C's null pointer): the compiler keeps
    /// slot 0 free, so no object is there.
    pub fn pointer(&self, to: Option<&CType>, v: i32) -> String {
        match usize::try_from(v).ok().filter(|&s| s < self.mem_slots) {
            None => format!("outside memory ({v})"),
            Some(0) => "NULL".into(),
            Some(s) => match self.name_of(s, to) {
                Some(name) => format!("→ {name}"),
                None => format!("→ [{s}]"),
            },
        }
    }

    /// A structure's members (none for one only named).
    pub fn fields(&self, id: u32) -> &[Field] {
        self.structs.get(id as usize).map_or(&[], |s| &s.fields)
    }

    /// The element, member or variable that occupies `slot`: `total`, `a[2]`,
    /// `grid[1][3]`, `pool[3].next` — the outermost of type `want` that starts there, when
    /// given (`pool[3]` rather than its first member `pool[3].v`).
    pub fn name_of(&self, slot: usize, want: Option<&CType>) -> Option<String> {
        let o = self.objects.iter().find(|o| (o.slot..o.slot + o.ty.words()).contains(&slot))?;
        Some(format!("{}{}", o.name, self.path(o.ty, slot - o.slot, want)))
    }

    /// The part of an object of type `ty` at word `off` of it: `[2]`, `[3].next`, `` for
    /// a scalar or the part of type `want` at its start.
    pub fn path(&self, ty: &CType, off: usize, want: Option<&CType>) -> String {
        if off == 0 && want == Some(ty) {
            return String::new();
        }
        match ty {
            CType::Array(t, _) => {
                let w = t.words().max(1);
                format!("[{}]{}", off / w, self.path(t, off % w, want))
            }
            CType::Struct { id, .. } => {
                // The member the word is in (a union's first: they all start at its start).
                let inside = |f: &&Field| (f.offset..f.offset + f.ty.words().max(1)).contains(&off);
                match self.fields(*id).iter().find(inside) {
                    Some(f) => format!(".{}{}", f.name, self.path(&f.ty, off - f.offset, want)),
                    None => String::new(),
                }
            }
            _ => String::new(),
        }
    }
}

/// The variables whose type holds a structure (a `struct`, a `union`, an array of them)
/// or a pointer, with their values read from `mem` as the call stack shows them: by
/// member, and a pointer as its target (`→ a[2]`, `NULL`); keyed as the run report keys
/// variables ([`report::vars`], whose words they are). What the page's variables table
/// shows for them instead of the raw words, so that it and the call stack agree.
pub fn formatted(prog: &Program, mem: &[i32]) -> Vec<(String, String)> {
    let d = &prog.debug;
    // The debug information's variable of each visible symbol: its name at its first slot.
    let typed: Vec<(String, Object)> = report::keyed(prog)
        .filter_map(|(key, s)| {
            let v = d.vars.iter().find(|v| v.name == s.name && v.home == Home::Slot(s.slot))?;
            Some((key, Object { name: &v.name, ty: &v.ty, slot: s.slot }))
        })
        .collect();
    // A pointer names what it points to among them (the first whose words hold its target).
    let objects: Vec<Object> = typed.iter().map(|(_, o)| *o).collect();
    let word = |s: usize| mem.get(s).copied();
    let r = Reader {
        word: &word,
        objects: &objects,
        structs: &d.structs,
        mem_slots: prog.config.mem_slots,
        word_bits: prog.config.word_bits,
    };
    typed
        .iter()
        .filter(|(_, o)| matches!(o.ty.base(), CType::Struct { .. } | CType::Ptr(_)))
        .map(|(key, o)| (key.clone(), r.at(o.ty, o.slot)))
        .collect()
}
