//! The instruction set: one table is the single source of truth.
//!
//! Every consumer — the encoder/decoder, the assembler and disassembler, the
//! interpreter's validation, the transformer's opcode-match rows and the UI's
//! hover documentation — reads [`OPS`]. Adding or changing an operation means
//! changing one row here.
//!
//! An instruction is a triple `(a, b, c)` of column addresses. When `a` is
//! below [`SUBLEQ_MIN_A`] it is an extended opcode; otherwise the instruction
//! is SUBLEQ and `a` is the column of its subtrahend.

use std::fmt;

/// Columns `0..32` are the scratchpad; `a` values below this are opcodes.
pub const SUBLEQ_MIN_A: u32 = 32;

/// What an operand field must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operand {
    /// Unused: the field must be 0.
    None,
    /// A memory column (`s + slot`).
    Mem,
    /// A jump target: an instruction column (`s + m + k`).
    Target,
}

/// The 22 operations. The discriminant is the extended opcode (`a` field);
/// SUBLEQ has none because its `a` is an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[repr(u8)]
pub enum Opcode {
    Halt = 0,
    Mov = 1,
    Add = 2,
    Jmp = 3,
    Jz = 4,
    Jnz = 5,
    Inc = 6,
    Dec = 7,
    Shl = 8,
    Shr = 9,
    Cmp = 10,
    Load = 11,
    And = 12,
    Or = 13,
    Xor = 14,
    Sub = 15,
    Find = 16,
    Swap = 17,
    Cmov = 18,
    Mulacc = 19,
    Store = 20,
    Subleq = 32,
}

/// One row of the ISA table.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct OpInfo {
    pub op: Opcode,
    pub mnemonic: &'static str,
    /// Kind of the `a` field when it is an operand (only SUBLEQ); otherwise the opcode.
    pub a: Operand,
    pub b: Operand,
    pub c: Operand,
    /// One-line semantics, in the notation of the spec (`M[x]` is the word at column x).
    pub semantics: &'static str,
    /// A sentence or two for hover help and the generated docs.
    pub doc: &'static str,
    /// Whether the operation may set the PC to `c` instead of PC + 1.
    pub branches: bool,
}

use Operand::{Mem, None as Nil, Target};

/// The table. Order = opcode order; SUBLEQ last.
pub const OPS: [OpInfo; 22] = [
    op(Opcode::Halt, "HALT", Nil, Nil, true, "PC ← 0", "Stops the machine. Both operands must be 0."),
    op(Opcode::Mov, "MOV", Mem, Mem, false, "M[b] ← M[c]", "Copies the word at c into b."),
    op(Opcode::Add, "ADD", Mem, Mem, false, "M[b] ← M[b] + M[c]", "Adds c to b, wrapping to N bits."),
    op(Opcode::Jmp, "JMP", Nil, Target, true, "PC ← c", "Jumps to instruction c unconditionally."),
    op(Opcode::Jz, "JZ", Mem, Target, true, "if M[b] = 0: PC ← c", "Jumps to c when b is zero."),
    op(Opcode::Jnz, "JNZ", Mem, Target, true, "if M[b] ≠ 0: PC ← c", "Jumps to c when b is not zero."),
    op(Opcode::Inc, "INC", Mem, Nil, false, "M[b] ← M[b] + 1", "Adds one to b, wrapping."),
    op(Opcode::Dec, "DEC", Mem, Nil, false, "M[b] ← M[b] − 1", "Subtracts one from b, wrapping."),
    op(Opcode::Shl, "SHL", Mem, Nil, false, "M[b] ← M[b] << 1", "Shifts b left by one bit; the top bit is lost."),
    op(Opcode::Shr, "SHR", Mem, Nil, false, "M[b] ← M[b] >> 1", "Shifts b right by one bit, keeping the sign (arithmetic shift)."),
    op(Opcode::Cmp, "CMP", Mem, Target, true, "if M[b] < 0: PC ← c", "Jumps to c when b is negative; b is unchanged."),
    op(Opcode::Load, "LOAD", Mem, Mem, false, "M[b] ← M[s + M[c]]", "Indirect read: c holds a slot index, read as an unsigned N-bit number; an index outside memory faults."),
    op(Opcode::And, "AND", Mem, Mem, false, "M[b] ← M[b] & M[c]", "Bitwise AND of b and c into b."),
    op(Opcode::Or, "OR", Mem, Mem, false, "M[b] ← M[b] | M[c]", "Bitwise OR of b and c into b."),
    op(Opcode::Xor, "XOR", Mem, Mem, false, "M[b] ← M[b] ^ M[c]", "Bitwise XOR of b and c into b."),
    op(Opcode::Sub, "SUB", Mem, Mem, false, "M[b] ← M[b] − M[c]", "Subtracts c from b, wrapping to N bits."),
    op(Opcode::Find, "FIND", Mem, Mem, false, "M[b] ← i where M[s + i] = M[c]", "Content search: the slot index holding the value of c. The value must occur exactly once in memory, otherwise the step faults."),
    op(Opcode::Swap, "SWAP", Mem, Mem, false, "M[b] ↔ M[c]", "Exchanges b and c in one step (a no-op when b = c)."),
    op(Opcode::Cmov, "CMOV", Mem, Mem, false, "if M[b] < 0: M[b] ← M[c]", "Conditional move: replaces b with c when b is negative."),
    op(Opcode::Mulacc, "MULACC", Mem, Mem, false, "M[b] ← (M[b] << 1) + (MSB(M[b]) ? M[c] : 0)", "One shift-and-add multiplication step; N steps with b = multiplier and c = multiplicand leave the product in b."),
    op(Opcode::Store, "STORE", Mem, Mem, false, "M[s + M[c]] ← M[b]", "Indirect write: c holds a slot index, read as an unsigned N-bit number; an index outside memory faults."),
    OpInfo {
        op: Opcode::Subleq,
        mnemonic: "SUBLEQ",
        a: Mem,
        b: Mem,
        c: Target,
        semantics: "M[b] ← M[b] − M[a]; if M[b] ≤ 0: PC ← c",
        doc: "Subtract and branch if the result is not positive. Encoded with a = the column of the subtrahend (a ≥ 32).",
        branches: true,
    },
];

const fn op(
    op: Opcode,
    mnemonic: &'static str,
    b: Operand,
    c: Operand,
    branches: bool,
    semantics: &'static str,
    doc: &'static str,
) -> OpInfo {
    OpInfo { op, mnemonic, a: Nil, b, c, semantics, doc, branches }
}

impl Opcode {
    /// All 22 operations in table order.
    pub fn all() -> impl Iterator<Item = Opcode> {
        OPS.iter().map(|i| i.op)
    }

    /// The table row for this operation.
    pub fn info(self) -> &'static OpInfo {
        let idx = match self {
            Opcode::Subleq => OPS.len() - 1,
            other => other as usize,
        };
        &OPS[idx]
    }

    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }

    /// The extended opcode number (`a` field), or `None` for SUBLEQ.
    pub fn code(self) -> Option<u32> {
        match self {
            Opcode::Subleq => None,
            other => Some(other as u32),
        }
    }

    /// Decodes an extended opcode number; `None` for undefined numbers.
    pub fn from_code(code: u32) -> Option<Opcode> {
        OPS.iter().find(|i| i.op.code() == Some(code)).map(|i| i.op)
    }

    /// Case-insensitive lookup by mnemonic.
    pub fn from_mnemonic(name: &str) -> Option<Opcode> {
        OPS.iter().find(|i| i.mnemonic.eq_ignore_ascii_case(name)).map(|i| i.op)
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

/// One encoded instruction: three absolute column addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Instr {
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

impl Instr {
    /// Encodes an extended operation (`op` must not be SUBLEQ).
    pub fn ext(op: Opcode, b: u32, c: u32) -> Instr {
        let a = op.code().expect("SUBLEQ is encoded with Instr::subleq");
        Instr { a, b, c }
    }

    pub fn subleq(a: u32, b: u32, c: u32) -> Instr {
        Instr { a, b, c }
    }

    pub const HALT: Instr = Instr { a: 0, b: 0, c: 0 };

    /// The operation this instruction encodes, or `None` for an undefined opcode (21..31).
    pub fn opcode(self) -> Option<Opcode> {
        if self.a >= SUBLEQ_MIN_A {
            Some(Opcode::Subleq)
        } else {
            Opcode::from_code(self.a)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_opcode_order_and_unique() {
        for (i, info) in OPS.iter().enumerate().take(21) {
            assert_eq!(info.op.code(), Some(i as u32));
            assert_eq!(info.op.info().mnemonic, info.mnemonic);
        }
        assert_eq!(OPS[21].op, Opcode::Subleq);
        let mut names: Vec<_> = OPS.iter().map(|i| i.mnemonic).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 22);
    }

    #[test]
    fn decode_rejects_undefined_opcodes() {
        for code in 21..32 {
            assert_eq!(Instr { a: code, b: 0, c: 0 }.opcode(), None);
        }
        assert_eq!(Instr { a: 40, b: 0, c: 0 }.opcode(), Some(Opcode::Subleq));
        assert_eq!(Opcode::from_mnemonic("mulacc"), Some(Opcode::Mulacc));
    }
}
