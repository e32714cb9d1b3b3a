//! Input: `getchar()` and the library's `__input_peek()`/`__input_next()` lowered to
//! reads and writes of the input slot. The host writes the next unread byte of the
//! program's input (−1, `EOF`, at its end) into the slot before each instruction that
//! reads it (layout lists them in `Program.input_reads`), and moves on to the following
//! byte after each instruction that writes it (`Program.input_advances`): the machine
//! reads the text itself, one character per instruction, as it prints one character per
//! write of the console. Reading without writing is a peek, so `scanf` can look at the
//! character after a number and leave it for the next read, as C's does.

use super::{Gen, Mem};
use crate::isa::Opcode;

impl Gen<'_> {
    /// `dst` ← the next byte of the input; `consume` also moves past it (`getchar`).
    pub(super) fn read_input(&mut self, dst: Mem, consume: bool) {
        self.op2(Opcode::Mov, dst, Mem::Input);
        if consume {
            self.advance_input();
        }
    }

    /// The byte just read is consumed: the one instruction that writes the input slot.
    pub(super) fn advance_input(&mut self) {
        self.op2(Opcode::Xor, Mem::Input, Mem::Input);
    }
}
