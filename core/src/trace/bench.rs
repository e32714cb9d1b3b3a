//! `loom trace bench` and `loom trace scaling`: steps per second on long runs
//! (the million-step cases run in hull mode; brute force beside them on a
//! short run for the ratio), and dot products per lookup as the trace grows.

use crate::trace::exec::Space;
use crate::trace::head::HeadMode;
use crate::trace::load;
use crate::trace::machine::{Counters, Machine};
use crate::trace::programs::{Program, GROW};
use crate::trace::runner::Status;
use serde::Serialize;

/// One bench case: a starter program at size `n`, on one head mode.
pub struct Case {
    pub program: &'static str,
    pub n: i64,
    pub heads: HeadMode,
}

/// One row of `loom trace bench --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    pub program: String,
    pub n: i64,
    pub heads: HeadMode,
    pub status: &'static str,
    pub result: Vec<i32>,
    pub steps: u64,
    pub seconds: f64,
    pub steps_per_sec: f64,
    pub lookups_per_step: f64,
    pub dots_per_lookup: f64,
    pub trace_len: u64,
}

pub fn cases(quick: bool) -> Vec<Case> {
    let scale = if quick { 100 } else { 1 };
    let c = |program, n: i64, heads| Case { program, n, heads };
    vec![
        c("countdown", 300_000 / scale, HeadMode::Hull),
        c("fibonacci", 100_000 / scale, HeadMode::Hull),
        c("primes", 60_000 / scale, HeadMode::Hull),
        c("fnv1a", 50_000 / scale, HeadMode::Hull),
        c("countdown", 3_000, HeadMode::Hull),
        c("countdown", 3_000, HeadMode::Brute),
    ]
}

/// Runs every case to completion, timed by `clock` (seconds).
pub fn run_with(cases: &[Case], clock: &mut dyn FnMut() -> f64) -> Result<Vec<Measurement>, String> {
    let mut out = Vec::new();
    for case in cases {
        let program = Program::by_name(case.program).ok_or_else(|| format!("no program `{}`", case.program))?;
        let source = program.with_n(case.n).ok_or_else(|| format!("`{}` has no size", case.program))?;
        let code = load::load_wat(&source).map_err(|e| format!("{}: {e}", case.program))?;
        let mut m = Machine::with_heads(code, case.heads);
        let start = clock();
        m.run(u64::MAX);
        let seconds = clock() - start;
        let status = match m.status() {
            Status::Halted => "halted",
            Status::Trapped(t) => return Err(format!("{} trapped: {}", case.program, t.message())),
            Status::Running => "budget",
        };
        let c = m.counters();
        let (brute, hull) = c.dots_per_lookup();
        out.push(Measurement {
            program: case.program.into(),
            n: case.n,
            heads: case.heads,
            status,
            result: m.stack(),
            steps: m.steps(),
            seconds,
            steps_per_sec: m.steps() as f64 / seconds.max(1e-9),
            lookups_per_step: c.lookups_per_step(),
            dots_per_lookup: hull.or(brute).unwrap_or(0.0),
            trace_len: c.writes,
        });
    }
    Ok(out)
}

pub fn table(rows: &[Measurement]) -> String {
    let mut s = format!(
        "{:<10} {:>8} {:<6} {:>9} {:>8} {:>12} {:>9} {:>9} {:>10}\n",
        "program", "n", "heads", "steps", "seconds", "steps/s", "look/step", "dots/look", "trace len"
    );
    for r in rows {
        s += &format!(
            "{:<10} {:>8} {:<6} {:>9} {:>8.3} {:>12.0} {:>9.2} {:>9.1} {:>10}\n",
            r.program,
            r.n,
            r.heads.name(),
            r.steps,
            r.seconds,
            r.steps_per_sec,
            r.lookups_per_step,
            r.dots_per_lookup,
            r.trace_len
        );
    }
    s
}

/// Dot products per lookup while the trace's length was in `[from, 2·from)`.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct ScalePoint {
    pub from: u64,
    pub lookups: u64,
    /// All heads.
    pub dots_per_lookup: f64,
    /// The memory head alone (the one whose hull grows).
    pub memory_dots_per_lookup: f64,
}

/// The scaling workload run in `mode` until the trace holds `2^max_log2`
/// writes, bucketed by the trace's length at each step.
pub fn scaling(mode: HeadMode, max_log2: u32) -> Result<Vec<ScalePoint>, String> {
    let limit = 1u64 << max_log2;
    let source = GROW.with_n(i64::from(u32::MAX >> 1)).ok_or("grow has no size")?;
    let code = load::load_wat(&source).map_err(|e| e.to_string())?;
    let mut m = Machine::with_heads(code, mode);
    let dots = |c: &Counters, memory_only: bool| -> (u64, u64) {
        let heads = c.heads.iter().filter(|h| !memory_only || h.space == Space::Memory);
        heads.fold((0, 0), |(l, d), h| (l + h.stats.lookups, d + h.stats.brute_dots + h.stats.hull_dots))
    };
    let mut sums: Vec<[u64; 4]> = vec![[0; 4]; max_log2 as usize];
    let mut before = m.counters();
    while (m.store().writes().len() as u64) < limit && *m.status() == Status::Running {
        let bucket = (m.store().writes().len() as u64).max(1).ilog2() as usize;
        m.step();
        let after = m.counters();
        let (all, mem) = (dots(&after, false), dots(&after, true));
        let (all0, mem0) = (dots(&before, false), dots(&before, true));
        let s = &mut sums[bucket];
        s[0] += all.0 - all0.0;
        s[1] += all.1 - all0.1;
        s[2] += mem.0 - mem0.0;
        s[3] += mem.1 - mem0.1;
        before = after;
    }
    if let Status::Trapped(t) = m.status() {
        return Err(format!("grow trapped: {}", t.message()));
    }
    let per = |d: u64, l: u64| d as f64 / l.max(1) as f64;
    Ok(sums
        .iter()
        .enumerate()
        .filter(|(_, s)| s[0] > 0)
        .map(|(k, s)| ScalePoint {
            from: 1 << k,
            lookups: s[0],
            dots_per_lookup: per(s[1], s[0]),
            memory_dots_per_lookup: per(s[3], s[2]),
        })
        .collect())
}
