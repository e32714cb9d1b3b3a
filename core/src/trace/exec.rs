//! One step of the machine: fetch the instruction at `pc`, read its operands,
//! compute, write the results. The semantics are written once, over a
//! [`Store`]: the trace machine's store is the context (an append-only write
//! log read by attention heads, `context.rs`); the reference's is a plain map
//! (`plain.rs`). Comparing the two step by step checks that every head read
//! returned what a plain memory would have.
//!
//! The registers (`pc`, `sp`, `fp`, `depth`) are the fields of the previous
//! step's record — the last token — not state hidden from the trace. Everything
//! else is read from the store: the operand stack by slot, the locals at
//! `fp + index`, the globals, linear memory by byte, and the call frames
//! (return address and caller's `fp` at `2·depth` and `2·depth + 1`).

use crate::trace::alu;
use crate::trace::code::{Access, Branch, Code, Instr};
use crate::trace::Trap;
use serde::Serialize;

/// Calls nest at most this deep (then `call stack exhausted`).
pub const MAX_DEPTH: u32 = 1024;

/// The address spaces, one attention head each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    Stack,
    Locals,
    Globals,
    Memory,
    Frames,
}

impl Space {
    pub const ALL: [Space; 5] = [Space::Stack, Space::Locals, Space::Globals, Space::Memory, Space::Frames];

    pub fn name(self) -> &'static str {
        match self {
            Space::Stack => "stack",
            Space::Locals => "locals",
            Space::Globals => "globals",
            Space::Memory => "memory",
            Space::Frames => "frames",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Where the machine keeps what it wrote.
pub trait Store {
    /// The latest value written at `addr` in `space` (`None`: never written).
    fn read(&mut self, space: Space, addr: u32) -> Result<Option<u32>, Trap>;
    fn write(&mut self, space: Space, addr: u32, value: u32) -> Result<(), Trap>;
    /// Writes so far (the next write's sequence number).
    fn seq(&self) -> u64;
    /// A step begins (the trace machine keeps each step's lookups for the UI).
    fn begin_step(&mut self) {}
}

/// The registers: carried from one step's record to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Regs {
    pub pc: u32,
    pub sp: u32,
    pub fp: u32,
    pub depth: u32,
}

/// One step's record: the instruction executed (`pc`), the registers after it,
/// the value on top of the stack after it (0 on an empty stack), the reads it
/// made, and the length of the trace after its writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StepRecord {
    pub pc: u32,
    pub sp: u32,
    pub top: i32,
    pub fp: u32,
    pub depth: u32,
    pub lookups: u32,
    pub seq_end: u64,
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stepped {
    pub record: StepRecord,
    pub regs: Regs,
    /// `main` returned: the machine halts.
    pub halted: bool,
}

struct Exec<'a, S: Store> {
    code: &'a Code,
    store: &'a mut S,
    regs: Regs,
    reads: u32,
    /// The value on top of the stack when this step wrote it.
    top: Option<i32>,
}

/// Executes the instruction at `regs.pc`. A trap leaves the writes made
/// before it in the store (each instruction checks before it writes).
pub fn step<S: Store>(code: &Code, regs: Regs, store: &mut S) -> Result<Stepped, Trap> {
    store.begin_step();
    let mut x = Exec { code, store, regs, reads: 0, top: None };
    let pc = regs.pc;
    let instr = *code.instrs.get(pc as usize).ok_or(Trap::Internal(format!("no instruction at {pc}")))?;
    x.regs.pc = pc + 1;
    let halted = x.exec(instr)?;
    let top = match (x.regs.sp, x.top) {
        (0, _) => 0,
        (_, Some(v)) => v,
        (sp, None) => x.slot(sp - 1)?,
    };
    let r = x.regs;
    let record = StepRecord { pc, sp: r.sp, top, fp: r.fp, depth: r.depth, lookups: x.reads, seq_end: x.store.seq() };
    Ok(Stepped { record, regs: r, halted })
}

impl<S: Store> Exec<'_, S> {
    fn read(&mut self, space: Space, addr: u32) -> Result<Option<u32>, Trap> {
        self.reads += 1;
        self.store.read(space, addr)
    }

    /// A read that must find a write (stack slots, locals, frames: the machine
    /// writes them before it reads them, so a miss is a bug, not a zero).
    fn must_read(&mut self, space: Space, addr: u32) -> Result<u32, Trap> {
        self.read(space, addr)?
            .ok_or_else(|| Trap::Internal(format!("read of {} slot {addr} before any write", space.name())))
    }

    fn slot(&mut self, addr: u32) -> Result<i32, Trap> {
        Ok(self.must_read(Space::Stack, addr)? as i32)
    }

    fn pop(&mut self) -> Result<i32, Trap> {
        let sp = self.regs.sp.checked_sub(1).ok_or(Trap::StackUnderflow)?;
        self.regs.sp = sp;
        self.top = None;
        self.slot(sp)
    }

    fn peek(&mut self) -> Result<i32, Trap> {
        let sp = self.regs.sp.checked_sub(1).ok_or(Trap::StackUnderflow)?;
        self.slot(sp)
    }

    fn push(&mut self, v: i32) -> Result<(), Trap> {
        let sp = self.regs.sp;
        self.store.write(Space::Stack, sp, v as u32)?;
        self.regs.sp = sp.checked_add(1).ok_or(Trap::CallStackExhausted)?;
        self.top = Some(v);
        Ok(())
    }

    fn local(&self, i: u32) -> Result<u32, Trap> {
        self.regs.fp.checked_add(i).ok_or(Trap::CallStackExhausted)
    }

    /// Executes one instruction; `true` when `main` returned.
    fn exec(&mut self, instr: Instr) -> Result<bool, Trap> {
        match instr {
            Instr::Const(v) => self.push(v)?,
            Instr::Unary(op) => {
                let a = self.pop()?;
                self.push(alu::unary(op, a))?;
            }
            Instr::Binary(op) => {
                let b = self.pop()?;
                let a = self.pop()?;
                self.push(alu::binary(op, a, b)?)?;
            }
            Instr::Drop => {
                self.pop()?;
            }
            Instr::Select => {
                let c = self.pop()?;
                let b = self.pop()?;
                let a = self.pop()?;
                self.push(if c != 0 { a } else { b })?;
            }
            Instr::LocalGet(i) => {
                let v = self.must_read(Space::Locals, self.local(i)?)?;
                self.push(v as i32)?;
            }
            Instr::LocalSet(i) => {
                let v = self.pop()?;
                self.store.write(Space::Locals, self.local(i)?, v as u32)?;
            }
            Instr::LocalTee(i) => {
                let v = self.peek()?;
                self.store.write(Space::Locals, self.local(i)?, v as u32)?;
                self.top = Some(v);
            }
            Instr::GlobalGet(i) => {
                let v = self.must_read(Space::Globals, i)?;
                self.push(v as i32)?;
            }
            Instr::GlobalSet(i) => {
                let v = self.pop()?;
                self.store.write(Space::Globals, i, v as u32)?;
            }
            Instr::Load(a) => {
                let base = self.pop()?;
                let v = self.load(base, a)?;
                self.push(v)?;
            }
            Instr::Store(a) => {
                let v = self.pop()?;
                let base = self.pop()?;
                let ea = self.address(base, a)?;
                for k in 0..u32::from(a.width) {
                    self.store.write(Space::Memory, ea + k, (v as u32 >> (8 * k)) & 0xFF)?;
                }
            }
            Instr::MemorySize => self.push(self.code.pages as i32)?,
            Instr::If(target) => {
                if self.pop()? == 0 {
                    self.regs.pc = target;
                }
            }
            Instr::Else(target) => self.regs.pc = target,
            Instr::Br(b) => self.branch(b)?,
            Instr::BrIf(b) => {
                if self.pop()? != 0 {
                    self.branch(b)?;
                }
            }
            Instr::BrTable { first, count } => {
                let i = self.pop()? as u32;
                let pick = first + i.min(count - 1);
                let b =
                    *self.code.tables.get(pick as usize).ok_or(Trap::Internal(format!("no br_table entry {pick}")))?;
                self.branch(b)?;
            }
            Instr::Call { func, frame } => self.call(func, frame)?,
            Instr::Return { keep, drop } => return self.ret(keep, drop),
            Instr::Unreachable => return Err(Trap::Unreachable),
            Instr::Nop => {}
        }
        Ok(false)
    }

    /// The effective address `base + offset` (33 bits, unsigned), which with
    /// the access width must lie inside the memory.
    fn address(&self, base: i32, a: Access) -> Result<u32, Trap> {
        let ea = u64::from(base as u32) + u64::from(a.offset);
        if ea + u64::from(a.width) > self.code.memory_bytes() {
            return Err(Trap::OutOfBounds);
        }
        Ok(ea as u32)
    }

    /// Little-endian bytes, each read by the memory head; a byte never written
    /// is 0 (linear memory starts zeroed).
    fn load(&mut self, base: i32, a: Access) -> Result<i32, Trap> {
        let ea = self.address(base, a)?;
        let mut v = 0u32;
        for k in 0..u32::from(a.width) {
            let byte = self.read(Space::Memory, ea + k)?.unwrap_or(0) & 0xFF;
            v |= byte << (8 * k);
        }
        let bits = 8 * u32::from(a.width);
        Ok(if a.signed && bits < 32 { ((v << (32 - bits)) as i32) >> (32 - bits) } else { v as i32 })
    }

    /// Moves the kept values down over the dropped ones and jumps.
    fn unwind(&mut self, keep: u32, drop: u32) -> Result<(), Trap> {
        if drop > 0 {
            let sp = self.regs.sp;
            let from = sp.checked_sub(keep).ok_or(Trap::StackUnderflow)?;
            let to = from.checked_sub(drop).ok_or(Trap::StackUnderflow)?;
            for k in 0..keep {
                let v = self.slot(from + k)?;
                self.store.write(Space::Stack, to + k, v as u32)?;
                self.top = Some(v);
            }
            self.regs.sp = sp - drop;
            if keep == 0 {
                self.top = None;
            }
        }
        Ok(())
    }

    fn branch(&mut self, b: Branch) -> Result<(), Trap> {
        self.unwind(b.keep, b.drop)?;
        self.regs.pc = b.target;
        Ok(())
    }

    fn call(&mut self, func: u32, frame: u32) -> Result<(), Trap> {
        let f = self.code.funcs.get(func as usize).ok_or(Trap::Internal(format!("no function {func}")))?;
        let (entry, params, locals) = (f.entry, f.params, f.locals);
        if self.regs.depth + 1 >= MAX_DEPTH {
            return Err(Trap::CallStackExhausted);
        }
        let fp = self.regs.fp.checked_add(frame).ok_or(Trap::CallStackExhausted)?;
        fp.checked_add(params + locals).ok_or(Trap::CallStackExhausted)?;
        let base = self.regs.sp.checked_sub(params).ok_or(Trap::StackUnderflow)?;
        for i in 0..params {
            let v = self.slot(base + i)?;
            self.store.write(Space::Locals, fp + i, v as u32)?;
        }
        for i in params..params + locals {
            self.store.write(Space::Locals, fp + i, 0)?;
        }
        let d = self.regs.depth;
        self.store.write(Space::Frames, 2 * d, self.regs.pc)?;
        self.store.write(Space::Frames, 2 * d + 1, self.regs.fp)?;
        self.regs = Regs { pc: entry, sp: base, fp, depth: d + 1 };
        self.top = None;
        Ok(())
    }

    fn ret(&mut self, keep: u32, drop: u32) -> Result<bool, Trap> {
        self.unwind(keep, drop)?;
        let Some(d) = self.regs.depth.checked_sub(1) else {
            return Ok(true);
        };
        self.regs.pc = self.must_read(Space::Frames, 2 * d)?;
        self.regs.fp = self.must_read(Space::Frames, 2 * d + 1)?;
        self.regs.depth = d;
        Ok(false)
    }
}
