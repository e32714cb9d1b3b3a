//! Values as a learner reads them, shared by every front end: numbers in decimal,
//! arrays as `{1, 2, 3}`, a pointer as its target (`→ a[2]`, `→ total`, `NULL`, or
//! `outside memory`), a word the activation cannot see as `?`.

use crate::debuginfo::CType;

/// The longest array shown whole; longer ones end in `…`.
const SHOWN: usize = 16;

/// An object a pointer may point into: a variable's name, type and first slot.
pub struct Object<'a> {
    pub name: &'a str,
    pub ty: &'a CType,
    pub slot: usize,
}

/// What a value is read from: memory as the frame sees it, and the objects pointers name.
pub struct Reader<'a> {
    pub word: &'a dyn Fn(usize) -> Option<i32>,
    pub objects: &'a [Object<'a>],
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
            t => match (self.word)(slot) {
                Some(v) => self.scalar(t, v),
                None => "?".into(),
            },
        }
    }

    /// A one-word value of type `ty`.
    pub fn scalar(&self, ty: &CType, v: i32) -> String {
        match ty {
            CType::Ptr(_) => self.pointer(v),
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
            CType::Array(..) => v.to_string(),
        }
    }

    /// Where a pointer points, in the words of the program.
    pub fn pointer(&self, v: i32) -> String {
        match usize::try_from(v).ok().filter(|&s| s < self.mem_slots) {
            None => format!("outside memory ({v})"),
            Some(s) => match self.name_of(s) {
                Some(name) => format!("→ {name}"),
                None if s == 0 => "NULL".into(),
                None => format!("→ [{s}]"),
            },
        }
    }

    /// The element or variable that occupies `slot`: `total`, `a[2]`, `grid[1][3]`.
    pub fn name_of(&self, slot: usize) -> Option<String> {
        let o = self.objects.iter().find(|o| (o.slot..o.slot + o.ty.words()).contains(&slot))?;
        let mut name = o.name.to_string();
        let (mut ty, mut off) = (o.ty, slot - o.slot);
        while let CType::Array(t, _) = ty {
            let w = t.words();
            name.push_str(&format!("[{}]", off / w));
            (ty, off) = (t, off % w);
        }
        Some(name)
    }
}
