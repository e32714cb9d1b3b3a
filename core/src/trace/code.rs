//! The trace machine's program: WebAssembly's structured control flow lowered
//! to flat instructions with resolved jump targets (`load/lower.rs`), one
//! instruction per step. Values are i32; everything else is rejected at load.
//!
//! `block`, `loop` and a block's `end` become nothing (their labels become
//! jump targets); `if` is a conditional jump, `else` a jump over the else arm;
//! a branch carries how many values it keeps and how many it drops, since the
//! operand stack's height is static in valid WebAssembly; a function's `end`
//! is a `return`.

use crate::trace::alu::{BinOp, UnOp};

/// A branch: jump to `target` keeping the top `keep` values and dropping the
/// `drop` values below them (the block's own stack, down to its entry height).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch {
    pub target: u32,
    pub keep: u32,
    pub drop: u32,
}

/// A memory access: its width in bytes (1, 2 or 4), whether a narrow load
/// sign-extends, and the static offset added to the address operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub width: u8,
    pub signed: bool,
    pub offset: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    Const(i32),
    Unary(UnOp),
    Binary(BinOp),
    Drop,
    Select,
    LocalGet(u32),
    LocalSet(u32),
    LocalTee(u32),
    GlobalGet(u32),
    GlobalSet(u32),
    Load(Access),
    Store(Access),
    MemorySize,
    /// `if`: pops the condition; when it is 0, jumps to the target (the else
    /// arm, or the end).
    If(u32),
    /// `else`: the end of the then arm, jumping over the else arm.
    Else(u32),
    Br(Branch),
    BrIf(Branch),
    /// `br_table`: the branches are `Code::tables[first .. first + count]`,
    /// the last one the default.
    BrTable {
        first: u32,
        count: u32,
    },
    /// `call`: `frame` is the caller's number of locals, so the callee's locals
    /// start right after them.
    Call {
        func: u32,
        frame: u32,
    },
    /// `return` (and a function's `end`): keeps the results, drops the rest of
    /// the function's stack, and halts the machine when `main` returns.
    Return {
        keep: u32,
        drop: u32,
    },
    Unreachable,
    Nop,
}

impl Instr {
    /// The WebAssembly mnemonic (the `op` of a trace row).
    pub fn name(&self) -> &'static str {
        match self {
            Instr::Const(_) => "i32.const",
            Instr::Unary(op) => op.name(),
            Instr::Binary(op) => op.name(),
            Instr::Drop => "drop",
            Instr::Select => "select",
            Instr::LocalGet(_) => "local.get",
            Instr::LocalSet(_) => "local.set",
            Instr::LocalTee(_) => "local.tee",
            Instr::GlobalGet(_) => "global.get",
            Instr::GlobalSet(_) => "global.set",
            Instr::Load(a) => match (a.width, a.signed) {
                (1, true) => "i32.load8_s",
                (1, false) => "i32.load8_u",
                (2, true) => "i32.load16_s",
                (2, false) => "i32.load16_u",
                _ => "i32.load",
            },
            Instr::Store(a) => match a.width {
                1 => "i32.store8",
                2 => "i32.store16",
                _ => "i32.store",
            },
            Instr::MemorySize => "memory.size",
            Instr::If(_) => "if",
            Instr::Else(_) => "else",
            Instr::Br(_) => "br",
            Instr::BrIf(_) => "br_if",
            Instr::BrTable { .. } => "br_table",
            Instr::Call { .. } => "call",
            Instr::Return { .. } => "return",
            Instr::Unreachable => "unreachable",
            Instr::Nop => "nop",
        }
    }

    /// The immediate shown in a trace row: the constant, the local or global
    /// index, the memory offset, the jump target, the callee, or the number of
    /// values a return keeps (0 when there is none).
    pub fn arg(&self) -> i64 {
        match *self {
            Instr::Const(v) => v.into(),
            Instr::LocalGet(i) | Instr::LocalSet(i) | Instr::LocalTee(i) => i.into(),
            Instr::GlobalGet(i) | Instr::GlobalSet(i) => i.into(),
            Instr::Load(a) | Instr::Store(a) => a.offset.into(),
            Instr::If(t) | Instr::Else(t) => t.into(),
            Instr::Br(b) | Instr::BrIf(b) => b.target.into(),
            Instr::BrTable { count, .. } => count.into(),
            Instr::Call { func, .. } => func.into(),
            Instr::Return { keep, .. } => keep.into(),
            _ => 0,
        }
    }
}

/// A function of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    /// Index of its first instruction.
    pub entry: u32,
    pub params: u32,
    /// Locals declared after the parameters.
    pub locals: u32,
    pub results: u32,
}

/// Where a flat instruction came from: the function (index among all
/// functions), the operator's index in its body, and its byte offset in the
/// binary (the UI maps these to WAT lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    pub func: u32,
    pub op: u32,
    pub offset: u32,
}

/// A loaded program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Code {
    pub instrs: Vec<Instr>,
    /// One per instruction.
    pub origins: Vec<Origin>,
    /// The branches of every `br_table`.
    pub tables: Vec<Branch>,
    pub funcs: Vec<Func>,
    /// The exported `main`.
    pub main: u32,
    /// Initial values of the globals.
    pub globals: Vec<i32>,
    /// The memory's size in 64 KiB pages (0 when the module has none).
    pub pages: u32,
    /// Active data segments: `(address, bytes)`, checked to fit at load.
    pub data: Vec<(u32, Vec<u8>)>,
}

impl Code {
    /// The memory's size in bytes (up to 2³²).
    pub fn memory_bytes(&self) -> u64 {
        u64::from(self.pages) * 65536
    }
}
