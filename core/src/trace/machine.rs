//! The trace machine and the API a UI drives: load a program, step or run
//! with a budget, and look at everything — the step records, the raw write
//! records, the memory and stack they reconstruct, the last step's lookups
//! with every candidate's exact score, and the heads' counters.

use crate::trace::code::Code;
use crate::trace::context::{Context, Lookup, Write};
use crate::trace::exec::Space;
use crate::trace::explain::{self, Candidates};
use crate::trace::head::{HeadMode, HeadStats};
use crate::trace::load::{self, LoadError};
use crate::trace::runner::Runner;
use serde::Serialize;

/// The trace machine: the steps run over the context (trace + heads).
pub type Machine = Runner<Context>;

/// One head's counters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HeadCounters {
    pub space: Space,
    #[serde(flatten)]
    pub stats: HeadStats,
}

/// The machine's counters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Counters {
    pub heads_mode: HeadMode,
    pub steps: u64,
    /// Head reads, all heads.
    pub lookups: u64,
    /// Trace length (writes, including the prologue's).
    pub writes: u64,
    pub heads: Vec<HeadCounters>,
}

impl Counters {
    pub fn lookups_per_step(&self) -> f64 {
        self.lookups as f64 / self.steps.max(1) as f64
    }

    /// Mean dot products per lookup for the brute-force and the hull heads
    /// (each `None` when it did not run).
    pub fn dots_per_lookup(&self) -> (Option<f64>, Option<f64>) {
        let sum = |f: fn(&HeadStats) -> u64| self.heads.iter().map(|h| f(&h.stats)).sum::<u64>();
        let per = |dots: u64| dots as f64 / self.lookups.max(1) as f64;
        let runs = |m: HeadMode| self.heads_mode == m || self.heads_mode == HeadMode::Both;
        (
            runs(HeadMode::Brute).then(|| per(sum(|s| s.brute_dots))),
            runs(HeadMode::Hull).then(|| per(sum(|s| s.hull_dots))),
        )
    }
}

impl Machine {
    pub fn with_heads(code: Code, mode: HeadMode) -> Machine {
        Runner::new(code, Context::new(mode))
    }

    /// Loads WAT text or a wasm binary (see [`load::load`]).
    pub fn load(input: &[u8], mode: HeadMode) -> Result<Machine, LoadError> {
        Ok(Machine::with_heads(load::load(input)?, mode))
    }

    /// The values on the stack, bottom first (read without counting).
    pub fn stack(&self) -> Vec<i32> {
        (0..self.regs().sp).map(|i| self.store().latest(Space::Stack, i).unwrap_or(0) as i32).collect()
    }

    /// `len` bytes of linear memory from `addr`, as the trace says they are
    /// now (the latest write of each byte; 0 if never written). Stops at the
    /// end of memory.
    pub fn memory(&self, addr: u32, len: u32) -> Vec<u8> {
        let end = (u64::from(addr) + u64::from(len)).min(self.code().memory_bytes());
        (u64::from(addr)..end).map(|a| self.store().latest(Space::Memory, a as u32).unwrap_or(0) as u8).collect()
    }

    pub fn globals(&self) -> Vec<i32> {
        let n = self.code().globals.len() as u32;
        (0..n).map(|i| self.store().latest(Space::Globals, i).unwrap_or(0) as i32).collect()
    }

    /// The locals of the function executing now (parameters first).
    pub fn locals(&self) -> Vec<i32> {
        let code = self.code();
        let pc = self.regs().pc.min(code.instrs.len().saturating_sub(1) as u32);
        let Some(f) = code.origins.get(pc as usize).and_then(|o| code.funcs.get(o.func as usize)) else {
            return Vec::new();
        };
        let fp = self.regs().fp;
        (0..f.params + f.locals).map(|i| self.store().latest(Space::Locals, fp + i).unwrap_or(0) as i32).collect()
    }

    /// The trace's write records (sequence number = index).
    pub fn writes(&self) -> &[Write] {
        self.store().writes()
    }

    /// The lookups made by the last step, in order.
    pub fn last_lookups(&self) -> &[Lookup] {
        self.store().lookups()
    }

    /// Every key the head saw when `lookup` was made, with exact scores: the
    /// winner, the runner-up (best other address) and margin, the write the
    /// winner shadowed, the hull's vertices, the stale writes; at most `limit`
    /// of the highest-scoring keys listed (the winner, runner-up and shadowed
    /// write always are).
    pub fn candidates(&self, lookup: &Lookup, limit: usize) -> Candidates {
        explain::candidates(self.writes(), lookup, limit)
    }

    pub fn counters(&self) -> Counters {
        let ctx = self.store();
        let heads = Space::ALL.iter().map(|&space| HeadCounters { space, stats: ctx.head_stats(space) }).collect();
        Counters {
            heads_mode: ctx.mode(),
            steps: self.steps(),
            lookups: ctx.total_lookups(),
            writes: ctx.writes().len() as u64,
            heads,
        }
    }
}
