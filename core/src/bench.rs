//! `loom bench`: the same programs on several engines in one process, so the
//! figures are ratios measured side by side rather than numbers from different
//! days and machines.

use crate::engine::Engine;
use crate::image::Program;
use crate::state::Status;
use serde::Serialize;
use std::time::Instant;

/// One benchmark case: a program, its configuration, how many steps to run
/// (`None`: to completion) and which engines run it.
pub struct Case {
    pub name: String,
    pub program: Program,
    pub steps: Option<u64>,
    pub engines: Vec<&'static str>,
    /// Called once on each fresh engine before timing (e.g. to write a puzzle into memory).
    pub setup: fn(&mut dyn Engine),
}

/// One row of the `--json` output; field names are a contract.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    pub program: String,
    pub engine: String,
    pub config: String,
    pub steps: u64,
    pub seconds: f64,
    pub steps_per_sec: f64,
}

/// Builds an engine by name (`interp`, `dense`, `sparse`).
pub type Factory = fn(&str, &Program) -> Result<Box<dyn Engine>, String>;

/// Runs every case on each of its engines. Engines that stop early (HALT, fault)
/// report the steps they actually executed.
pub fn run(cases: &[Case], make: Factory) -> Result<Vec<Measurement>, String> {
    let mut out = Vec::new();
    for case in cases {
        for &engine in &case.engines {
            let mut e = make(engine, &case.program)?;
            (case.setup)(e.as_mut());
            let budget = case.steps.unwrap_or(u64::MAX);
            let start = Instant::now();
            let status = e.run(budget, None);
            let seconds = start.elapsed().as_secs_f64();
            if let Status::Fault { pc, message } = status {
                return Err(format!("{} on {engine}: fault at pc {pc}: {message}", case.name));
            }
            let steps = e.steps();
            out.push(Measurement {
                program: case.name.clone(),
                engine: engine.to_string(),
                config: case.program.config.name.to_string(),
                steps,
                seconds,
                steps_per_sec: steps as f64 / seconds.max(1e-9),
            });
        }
    }
    Ok(out)
}

/// A human-readable table plus the ratios between engines on the same case.
pub fn table(rows: &[Measurement]) -> String {
    let mut s = format!(
        "{:<28} {:<7} {:<10} {:>12} {:>9} {:>14}\n",
        "program", "engine", "config", "steps", "seconds", "steps/s"
    );
    for r in rows {
        s += &format!(
            "{:<28} {:<7} {:<10} {:>12} {:>9.3} {:>14.0}\n",
            r.program, r.engine, r.config, r.steps, r.seconds, r.steps_per_sec
        );
    }
    let rate = |p: &str, e: &str| rows.iter().find(|r| r.program == p && r.engine == e).map(|r| r.steps_per_sec);
    let mut programs: Vec<&str> = rows.iter().map(|r| r.program.as_str()).collect();
    programs.dedup();
    for p in programs {
        if let (Some(sp), Some(de)) = (rate(p, "sparse"), rate(p, "dense")) {
            s += &format!("{p}: sparse / dense = {:.0}×\n", sp / de);
        }
        if let (Some(it), Some(sp)) = (rate(p, "interp"), rate(p, "sparse")) {
            s += &format!("{p}: interp / sparse = {:.1}×\n", it / sp);
        }
    }
    s
}
