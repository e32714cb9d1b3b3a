//! Running a program on a store: the prologue (globals, data segments and
//! `main`'s locals written before the first step), steps with a budget, and
//! the records every step leaves. The trace machine and the reference are both
//! runners; only their stores differ.

use crate::trace::code::Code;
use crate::trace::exec::{self, Regs, Space, StepRecord, Store};
use crate::trace::Trap;
use serde::Serialize;

/// A step's row: the instruction's mnemonic and immediate, the stack height
/// and the top of the stack after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    pub op: &'static str,
    pub arg: i64,
    pub sp: u32,
    pub top: i32,
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    /// `main` returned.
    Halted,
    Trapped(Trap),
}

#[derive(Clone, Debug)]
pub struct Runner<S: Store> {
    code: Code,
    store: S,
    regs: Regs,
    status: Status,
    records: Vec<StepRecord>,
    /// Writes of the prologue: the first step's writes start at this sequence number.
    prologue: u64,
}

impl<S: Store> Runner<S> {
    /// Writes the initial state into `store` and stands before `main`'s first
    /// instruction.
    pub fn new(code: Code, mut store: S) -> Runner<S> {
        let status = match prologue(&code, &mut store) {
            Ok(()) => Status::Running,
            Err(t) => Status::Trapped(t),
        };
        let entry = code.funcs.get(code.main as usize).map_or(0, |f| f.entry);
        let regs = Regs { pc: entry, sp: 0, fp: 0, depth: 0 };
        let prologue = store.seq();
        Runner { code, store, regs, status, records: Vec::new(), prologue }
    }

    /// Executes one instruction (nothing once halted or trapped).
    pub fn step(&mut self) -> &Status {
        if self.status == Status::Running {
            match exec::step(&self.code, self.regs, &mut self.store) {
                Ok(s) => {
                    self.regs = s.regs;
                    self.records.push(s.record);
                    if s.halted {
                        self.status = Status::Halted;
                    }
                }
                Err(t) => self.status = Status::Trapped(t),
            }
        }
        &self.status
    }

    /// Steps until the program halts or traps, or `budget` steps ran; returns
    /// the steps executed by this call.
    pub fn run(&mut self, budget: u64) -> u64 {
        let mut n = 0;
        while n < budget && self.status == Status::Running {
            self.step();
            n += 1;
        }
        n
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Instructions executed.
    pub fn steps(&self) -> u64 {
        self.records.len() as u64
    }

    /// Writes made before the first step (globals, data segments, `main`'s
    /// locals): step `i` appended the writes from the previous record's
    /// `seq_end` (this, for the first) to its own.
    pub fn prologue_writes(&self) -> u64 {
        self.prologue
    }

    /// One record per step executed.
    pub fn records(&self) -> &[StepRecord] {
        &self.records
    }

    pub fn regs(&self) -> Regs {
        self.regs
    }

    pub fn code(&self) -> &Code {
        &self.code
    }

    pub fn store(&self) -> &S {
        &self.store
    }

    /// Step `i` as the row `[op, arg, sp, top]` (what the differential tests
    /// compare and a trace table shows).
    pub fn row(&self, i: usize) -> Option<Row> {
        let r = self.records.get(i)?;
        let instr = self.code.instrs.get(r.pc as usize)?;
        Some(Row { op: instr.name(), arg: instr.arg(), sp: r.sp, top: r.top })
    }
}

fn prologue<S: Store>(code: &Code, store: &mut S) -> Result<(), Trap> {
    for (i, &g) in code.globals.iter().enumerate() {
        store.write(Space::Globals, i as u32, g as u32)?;
    }
    for (addr, bytes) in &code.data {
        for (k, &b) in bytes.iter().enumerate() {
            store.write(Space::Memory, addr + k as u32, b.into())?;
        }
    }
    let main = code.funcs.get(code.main as usize).ok_or(Trap::Internal("no function `main`".into()))?;
    for i in 0..main.params + main.locals {
        store.write(Space::Locals, i, 0)?;
    }
    Ok(())
}
