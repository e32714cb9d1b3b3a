//! What the trace page shows, built from the machine: the build (source,
//! diagnostics, heads) and the view at the step on display — the trace table
//! around it, the state the trace reconstructs (stack, locals, globals,
//! memory) beside the raw write records, the step's reads, the chosen read
//! explained for the key-space plot, and the heads' counters.

use loom_core::frontend::trace::context::Lookup;
use loom_core::frontend::trace::exec::Space;
use loom_core::frontend::trace::explain::Candidates;
use loom_core::frontend::trace::machine::Counters;
use loom_core::frontend::trace::{HeadMode, Machine, Status, Trap};
use loom_core::frontend::Diagnostic;
use serde::Serialize;
use std::collections::{BTreeSet, HashSet};

/// Trace table rows shown before and after the current step.
pub const ROWS_AROUND: u64 = 12;
/// Raw write records shown (the latest ones).
pub const WRITES_SHOWN: usize = 24;
/// Lines of 16 bytes of memory shown (the first ones written).
pub const MEMORY_LINES: usize = 16;
/// Keys the plot shows (the highest-scoring; winner, runner-up and the
/// write the winner shadowed always are).
pub const PLOT_KEYS: usize = 40;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TraceBuild {
    /// Counts loads (views that depend on the program alone key on it).
    pub builds: u64,
    pub source: String,
    /// The starter it is, unless it was typed.
    pub example: Option<String>,
    /// `brute`, `hull` or `both`.
    pub heads: String,
    pub diagnostics: Vec<Diagnostic>,
    /// Flat instructions (0 without a program).
    pub instructions: usize,
}

/// One step of the trace table: `[op, arg, sp, top]` as the differential
/// tests compare it, the reads it made and the writes it appended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableRow {
    /// 1 for the first instruction executed.
    pub step: u64,
    pub pc: u32,
    pub op: &'static str,
    pub arg: i64,
    pub sp: u32,
    pub top: i32,
    pub reads: u32,
    pub writes: u64,
    /// The step on display (the last one executed).
    pub current: bool,
}

/// Sixteen bytes of linear memory as the trace says they are now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemoryLine {
    pub addr: u32,
    pub bytes: Vec<u8>,
}

/// A raw write record of the trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WriteRow {
    pub seq: u64,
    pub space: Space,
    pub addr: u32,
    pub value: u32,
    /// A later write of the same address exists: no read can find this one again.
    pub stale: bool,
    /// Appended by the step on display.
    pub this_step: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceView {
    /// `none` (no program), `ready`, `paused`, `running`, `halted`, `trap`
    /// or `budget` (stopped at [`super::MAX_STEPS`]).
    pub status: &'static str,
    pub trap: Option<String>,
    /// Instructions executed by the machine on display.
    pub step: u64,
    /// Instructions of the furthest run (the scrubber's end).
    pub known: u64,
    pub running: bool,
    /// What `main` left on the stack, once it returned.
    pub result: Option<Vec<i32>>,
    pub rows: Vec<TableRow>,
    pub stack: Vec<i32>,
    pub locals: Vec<i32>,
    pub globals: Vec<i32>,
    pub memory: Vec<MemoryLine>,
    pub writes: Vec<WriteRow>,
    /// The reads of the step on display, in order.
    pub reads: Vec<Lookup>,
    /// The read the plot explains (an index into `reads`).
    pub pick: usize,
    pub plot: Option<Candidates>,
    pub counters: Option<Counters>,
    /// With both heads: whether they agreed on every lookup so far.
    pub agree: Option<bool>,
}

impl TraceView {
    pub fn unloaded() -> TraceView {
        TraceView {
            status: "none",
            trap: None,
            step: 0,
            known: 0,
            running: false,
            result: None,
            rows: Vec::new(),
            stack: Vec::new(),
            locals: Vec::new(),
            globals: Vec::new(),
            memory: Vec::new(),
            writes: Vec::new(),
            reads: Vec::new(),
            pick: 0,
            plot: None,
            counters: None,
            agree: None,
        }
    }

    /// `m` is the machine on display, `ahead` the furthest run (the same
    /// machine unless scrubbing back); `pick` the read chosen for the plot.
    pub fn of(m: &Machine, ahead: &Machine, pick: Option<usize>, running: bool) -> TraceView {
        let step = m.steps();
        let reads = m.last_lookups().to_vec();
        let pick = pick.filter(|&i| i < reads.len()).unwrap_or_else(|| default_read(&reads));
        let counters = m.counters();
        TraceView {
            status: status(m, running),
            trap: match m.status() {
                Status::Trapped(t) => Some(t.message()),
                _ => None,
            },
            step,
            known: ahead.steps(),
            running,
            result: (*m.status() == Status::Halted).then(|| m.stack()),
            rows: rows(ahead, step),
            stack: m.stack(),
            locals: m.locals(),
            globals: m.globals(),
            memory: memory(m),
            writes: writes(m),
            plot: reads.get(pick).map(|l| m.candidates(l, PLOT_KEYS)),
            reads,
            pick,
            agree: (counters.heads_mode == HeadMode::Both)
                .then(|| !matches!(m.status(), Status::Trapped(Trap::Internal(_)))),
            counters: Some(counters),
        }
    }
}

fn status(m: &Machine, running: bool) -> &'static str {
    match m.status() {
        Status::Halted => "halted",
        Status::Trapped(_) => "trap",
        Status::Running if running => "running",
        Status::Running if m.steps() >= super::MAX_STEPS => "budget",
        Status::Running if m.steps() == 0 => "ready",
        Status::Running => "paused",
    }
}

/// The plot's read unless one was chosen: the first memory read (the
/// biggest head), else the first read.
fn default_read(reads: &[Lookup]) -> usize {
    reads.iter().position(|l| l.space == Space::Memory).unwrap_or(0)
}

fn rows(ahead: &Machine, step: u64) -> Vec<TableRow> {
    let records = ahead.records();
    let first = step.saturating_sub(ROWS_AROUND).max(1);
    let last = (step + ROWS_AROUND).min(records.len() as u64);
    (first..=last)
        .filter_map(|n| {
            let i = (n - 1) as usize;
            let (r, row) = (records.get(i)?, ahead.row(i)?);
            Some(TableRow {
                step: n,
                pc: r.pc,
                op: row.op,
                arg: row.arg,
                sp: row.sp,
                top: row.top,
                reads: r.lookups,
                writes: r.seq_end - first_write(ahead, i),
                current: n == step,
            })
        })
        .collect()
}

/// The sequence number of the first write of step `i` (0-based).
fn first_write(m: &Machine, i: usize) -> u64 {
    i.checked_sub(1).and_then(|p| m.records().get(p)).map_or(m.prologue_writes(), |r| r.seq_end)
}

fn memory(m: &Machine) -> Vec<MemoryLine> {
    let mut lines = BTreeSet::new();
    for w in m.writes().iter().filter(|w| w.space == Space::Memory) {
        lines.insert(w.addr / 16);
    }
    lines.into_iter().take(MEMORY_LINES).map(|l| MemoryLine { addr: l * 16, bytes: m.memory(l * 16, 16) }).collect()
}

/// The latest records; every later write of their addresses is among them,
/// so whether each is stale is decided here.
fn writes(m: &Machine) -> Vec<WriteRow> {
    let all = m.writes();
    let start = all.len().saturating_sub(WRITES_SHOWN);
    let this_step_from = match m.records().len() {
        0 => all.len(),
        n => first_write(m, n - 1) as usize,
    };
    let mut later = HashSet::new();
    let mut out: Vec<WriteRow> = all[start..]
        .iter()
        .enumerate()
        .rev()
        .map(|(k, w)| {
            let seq = start + k;
            WriteRow {
                seq: seq as u64,
                space: w.space,
                addr: w.addr,
                value: w.value,
                stale: !later.insert((w.space, w.addr)),
                this_step: seq >= this_step_from,
            }
        })
        .collect();
    out.reverse();
    out
}
