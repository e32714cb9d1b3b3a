//! Structures in code: a member is a place at a fixed offset in words from its structure's
//! place (`s.x` from `s`, `p->x` from the slot index in `p`), and a `struct` assignment copies
//! its words one by one.

use super::place::Place;
use super::{Gen, Mem};
use crate::compiler::ast::*;
use crate::isa::Opcode;

impl Gen<'_> {
    /// The place of `base.name` / `base->name` (member offset `off`), computed: a slot index
    /// in `scratch` or a fresh temporary.
    pub(super) fn member_place(&mut self, base: &Expr, arrow: bool, off: usize, scratch: Option<Mem>) -> Place {
        let p = if arrow {
            match self.static_value(base) {
                Some(v) if off == 0 => return Place::Indirect(v),
                _ => {
                    let p = scratch.unwrap_or_else(|| self.temp());
                    self.into(p, base);
                    p
                }
            }
        } else {
            match self.place_in(base, scratch) {
                Place::Direct(m) => {
                    return Place::Direct(super::place::offset(m, off).expect("invariant: a variable's slot"))
                }
                Place::Indirect(q) if off == 0 => return Place::Indirect(q),
                Place::Indirect(q) if Some(q) == scratch => q,
                // `q` may be a pointer variable's own slot (`(*p).x`): the offset goes into a copy.
                Place::Indirect(q) => self.copy(q),
            }
        };
        if off > 0 {
            self.op2(Opcode::Add, p, self.konst(off as i64));
        }
        Place::Indirect(p)
    }

    /// `lhs = rhs` for structures of `words` words: each word read, then written.
    pub(super) fn struct_copy(&mut self, lhs: &Expr, rhs: &Expr, words: usize) {
        let m = self.mark();
        let src = self.place_in(rhs, None);
        let dst = self.place_in(lhs, None);
        self.copy_words(src, dst, words);
        self.release(m);
    }

    /// Copies `words` words from one place to another.
    pub(super) fn copy_words(&mut self, src: Place, dst: Place, words: usize) {
        let m = self.mark();
        let t = self.temp();
        for k in 0..words {
            match src {
                Place::Direct(s) => self.op2(Opcode::Mov, t, super::place::offset(s, k).expect("invariant: a slot")),
                Place::Indirect(p) => {
                    let q = self.word_address(p, k);
                    self.op2(Opcode::Load, t, q);
                }
            }
            match dst {
                Place::Direct(d) => self.op2(Opcode::Mov, super::place::offset(d, k).expect("invariant: a slot"), t),
                Place::Indirect(p) => {
                    let q = self.word_address(p, k);
                    self.op2(Opcode::Store, t, q);
                }
            }
        }
        self.release(m);
    }

    /// The slot index `k` words after the one in `p` (`p` itself for 0).
    fn word_address(&mut self, p: Mem, k: usize) -> Mem {
        if k == 0 {
            return p;
        }
        let q = self.copy(p);
        self.op2(Opcode::Add, q, self.konst(k as i64));
        q
    }
}
