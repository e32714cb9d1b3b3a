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

/// Declares the operations once: the [`Opcode`] enum (discriminant = the
/// extended opcode, the `a` field) and the [`OPS`] table are both generated
/// from this list, as wasmi's `for_each_op!` does, so adding an operation is
/// one row. Rows are in opcode order with SUBLEQ last (a test checks it).
macro_rules! isa_table {
    ($( $variant:ident = $code:literal, $mnemonic:literal, a: $a:ident, b: $b:ident, c: $c:ident,
        branches: $branches:literal, $semantics:literal, $doc:literal; )*) => {
        /// The operations. The discriminant is the extended opcode (`a` field);
        /// SUBLEQ's is only a marker, because its `a` is an address.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[repr(u8)]
        pub enum Opcode {
            $( $variant = $code, )*
        }

        /// The table. Order = opcode order; SUBLEQ last.
        pub const OPS: [OpInfo; [$( $mnemonic ),*].len()] = [
            $( OpInfo {
                op: Opcode::$variant,
                mnemonic: $mnemonic,
                a: $a,
                b: $b,
                c: $c,
                semantics: $semantics,
                doc: $doc,
                branches: $branches,
            }, )*
        ];
    };
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

isa_table! {
    Halt = 0, "HALT", a: Nil, b: Nil, c: Nil, branches: true,
        "PC ← 0", "Stops the machine. Both operands must be 0.";
    Mov = 1, "MOV", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← M[c]", "Copies the word at c into b.";
    Add = 2, "ADD", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← M[b] + M[c]", "Adds c to b, wrapping to N bits.";
    Jmp = 3, "JMP", a: Nil, b: Nil, c: Target, branches: true,
        "PC ← c", "Jumps to instruction c unconditionally.";
    Jz = 4, "JZ", a: Nil, b: Mem, c: Target, branches: true,
        "if M[b] = 0: PC ← c", "Jumps to c when b is zero.";
    Jnz = 5, "JNZ", a: Nil, b: Mem, c: Target, branches: true,
        "if M[b] ≠ 0: PC ← c", "Jumps to c when b is not zero.";
    Inc = 6, "INC", a: Nil, b: Mem, c: Nil, branches: false,
        "M[b] ← M[b] + 1", "Adds one to b, wrapping.";
    Dec = 7, "DEC", a: Nil, b: Mem, c: Nil, branches: false,
        "M[b] ← M[b] − 1", "Subtracts one from b, wrapping.";
    Shl = 8, "SHL", a: Nil, b: Mem, c: Nil, branches: false,
        "M[b] ← M[b] << 1", "Shifts b left by one bit; the top bit is lost.";
    Shr = 9, "SHR", a: Nil, b: Mem, c: Nil, branches: false,
        "M[b] ← M[b] >> 1", "Shifts b right by one bit, keeping the sign (arithmetic shift).";
    Cmp = 10, "CMP", a: Nil, b: Mem, c: Target, branches: true,
        "if M[b] < 0: PC ← c", "Jumps to c when b is negative; b is unchanged.";
    Load = 11, "LOAD", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← M[s + M[c]]",
        "Indirect read: c holds a slot index, read as an unsigned N-bit number; an index outside memory faults.";
    And = 12, "AND", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← M[b] & M[c]", "Bitwise AND of b and c into b.";
    Or = 13, "OR", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← M[b] | M[c]", "Bitwise OR of b and c into b.";
    Xor = 14, "XOR", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← M[b] ^ M[c]", "Bitwise XOR of b and c into b.";
    Sub = 15, "SUB", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← M[b] − M[c]", "Subtracts c from b, wrapping to N bits.";
    Find = 16, "FIND", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← i where M[s + i] = M[c]",
        "Content search: the slot index holding the value of c. The value must occur exactly once in memory, otherwise the step faults.";
    Swap = 17, "SWAP", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ↔ M[c]", "Exchanges b and c in one step (a no-op when b = c).";
    Cmov = 18, "CMOV", a: Nil, b: Mem, c: Mem, branches: false,
        "if M[b] < 0: M[b] ← M[c]", "Conditional move: replaces b with c when b is negative.";
    Mulacc = 19, "MULACC", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← (M[b] << 1) + (MSB(M[b]) ? M[c] : 0)",
        "One shift-and-add step on a multiplier that shares b with the sum: N steps with b = multiplier and c = multiplicand leave the product in b only while the sum stays below the multiplier bits not yet used (MULSTEP keeps them apart).";
    Store = 20, "STORE", a: Nil, b: Mem, c: Mem, branches: false,
        "M[s + M[c]] ← M[b]",
        "Indirect write: c holds a slot index, read as an unsigned N-bit number; an index outside memory faults.";
    Drol = 21, "DROL", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← (M[b] << 1) | MSB(M[c]); M[c] ← (M[c] << 1) | MSB(M[b])",
        "Rotates the 2N-bit pair b:c left by one bit, writing both words in one step: the shift of a division step. b and c must differ.";
    Divsub = 22, "DIVSUB", a: Nil, b: Mem, c: Mem, branches: false,
        "if M[b] ≥ M[c] (unsigned): M[b] ← M[b] − M[c] + 2^(N−1)",
        "One restoring-division step: subtracts c from b when b ≥ c as unsigned numbers and, when b < 2·c ≤ 2^N, sets b's top bit to record it. N pairs DROL r, q; DIVSUB r, d (r = 0, q = dividend) leave the quotient in DROL r, q and the remainder in r's low bits.";
    Mulstep = 23, "MULSTEP", a: Nil, b: Mem, c: Mem, branches: false,
        "M[b] ← (M[b] << 1) + (MSB(M[c ^ 1]) ? M[c] : 0); M[c ^ 1] ← M[c ^ 1] << 1",
        "One whole multiplication step: the multiplier sits in c's partner slot c ^ 1 (the other slot of c's even/odd pair) and gives up its top bit; b accumulates c when it was set. N steps from b = 0 leave the product of c and the multiplier in b, for every operand. b must not be c ^ 1.";
    Subleq = 32, "SUBLEQ", a: Mem, b: Mem, c: Target, branches: true,
        "M[b] ← M[b] − M[a]; if M[b] ≤ 0: PC ← c",
        "Subtract and branch if the result is not positive. Encoded with a = the column of the subtrahend (a ≥ 32).";
}

impl Opcode {
    /// All operations in table order.
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

    /// The operation this instruction encodes, or `None` for an undefined opcode (24..31).
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
        let last = OPS.len() - 1;
        for (i, info) in OPS.iter().enumerate().take(last) {
            assert_eq!(info.op.code(), Some(i as u32));
            assert_eq!(info.op.info().mnemonic, info.mnemonic);
        }
        assert_eq!(OPS[last].op, Opcode::Subleq);
        assert!(last < SUBLEQ_MIN_A as usize);
        let mut names: Vec<_> = OPS.iter().map(|i| i.mnemonic).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), OPS.len());
    }

    #[test]
    fn decode_rejects_undefined_opcodes() {
        for code in OPS.len() as u32 - 1..32 {
            assert_eq!(Instr { a: code, b: 0, c: 0 }.opcode(), None);
        }
        assert_eq!(Instr { a: 40, b: 0, c: 0 }.opcode(), Some(Opcode::Subleq));
        assert_eq!(Opcode::from_mnemonic("mulacc"), Some(Opcode::Mulacc));
    }
}
