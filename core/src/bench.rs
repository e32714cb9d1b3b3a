//! `loom bench`: the same programs on several engines in one process, so the
//! figures are ratios measured side by side rather than numbers from different
//! days and machines.

use crate::config::Config;
use crate::engine::Engine;
use crate::image::Program;
use crate::machine::SparseEngine;
use crate::state::Status;
use crate::{asm, compiler, demos, host};
use serde::Serialize;
use std::time::Instant;

/// Called once on each fresh engine before timing (e.g. to write a puzzle into memory).
pub type Setup = Box<dyn Fn(&mut dyn Engine) -> Result<(), String>>;

/// Called at every `frame()` pause with the frame number (e.g. to press keys).
pub type FrameHook = Box<dyn Fn(&mut dyn Engine, u64) -> Result<(), String>>;

/// Checks an engine's state after a case ran.
pub type Verify = fn(&dyn Engine) -> Result<(), String>;

/// One benchmark case: a program, its configuration, how many steps to run
/// (`None`: to completion) and which engines run it.
pub struct Case {
    pub name: String,
    pub program: Program,
    pub steps: Option<u64>,
    pub engines: Vec<&'static str>,
    pub setup: Setup,
    /// Pauses at `frame()` and calls this there; `None`: runs straight through.
    pub frame: Option<FrameHook>,
    /// Checks the outcome after the run (e.g. that the puzzle came out solved).
    pub verify: Option<Verify>,
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

/// Runs every case on each of its engines, timed natively.
pub fn run(cases: &[Case], make: Factory) -> Result<Vec<Measurement>, String> {
    let start = Instant::now();
    run_with(cases, make, &mut || start.elapsed().as_secs_f64())
}

/// Runs every case on each of its engines, timed by `clock` (seconds; in a
/// browser `performance.now() / 1000`). Engines that stop early (HALT)
/// report the steps they actually executed.
pub fn run_with(cases: &[Case], make: Factory, clock: &mut dyn FnMut() -> f64) -> Result<Vec<Measurement>, String> {
    let mut out = Vec::new();
    for case in cases {
        for &engine in &case.engines {
            let mut e = make(engine, &case.program)?;
            (case.setup)(e.as_mut()).map_err(|m| format!("{}: {m}", case.name))?;
            let budget = case.steps.unwrap_or(u64::MAX);
            let start = clock();
            let status = match &case.frame {
                None => e.run(budget, None),
                Some(hook) => run_frames(e.as_mut(), budget, hook)?,
            };
            let seconds = clock() - start;
            if let Status::Fault { pc, message } = status {
                return Err(format!("{} on {engine}: fault at pc {pc}: {message}", case.name));
            }
            if let Some(verify) = case.verify {
                verify(e.as_ref()).map_err(|m| format!("{} on {engine}: {m}", case.name))?;
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

/// Runs to `budget` steps, calling `hook` at every `frame()` pause.
fn run_frames(e: &mut dyn Engine, budget: u64, hook: &FrameHook) -> Result<Status, String> {
    let mut frame = 0;
    loop {
        let left = budget - e.steps();
        let status = host::run_to_frame(e, left);
        if status != Status::Running || e.steps() >= budget {
            return Ok(status);
        }
        hook(e, frame)?;
        frame += 1;
    }
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

/// A demo compiled for its own configuration, with the example called `example` written at setup.
pub fn demo_case(
    id: &str,
    example: &str,
    name: &str,
    steps: Option<u64>,
    engines: Vec<&'static str>,
) -> Result<Case, String> {
    let demo = demos::demo(id).ok_or_else(|| format!("no demo `{id}`"))?;
    let meta = demo.meta().map_err(|e| e.to_string())?;
    let config = Config::preset(&meta.config).map_err(|e| e.0)?;
    let program =
        compiler::compile(demo.source, config).program.ok_or_else(|| format!("demo `{id}` does not compile"))?;
    let ex = meta.examples.into_iter().find(|e| e.name.starts_with(example));
    let writes = ex.ok_or_else(|| format!("demo `{id}` has no example `{example}`"))?.writes;
    let setup: Setup = Box::new(move |e| {
        writes.iter().try_for_each(|(var, values)| host::write_var(e, var, values).map_err(|err| err.to_string()))
    });
    Ok(Case { name: name.into(), program, steps, engines, setup, frame: None, verify: None })
}

/// Steers the snake along a Hamiltonian cycle of the 8×8 board (rows snaked
/// through columns 1..7, column 0 the way back up), so it never crashes and
/// ticks until it has grown to full length.
fn steer_snake(e: &mut dyn Engine, _frame: u64) -> Result<(), String> {
    let err = |x: host::HostError| x.to_string();
    let head = host::read_scalar(e, "head").map_err(err)? as usize;
    let cell = host::read_var(e, "body").map_err(err)?[head];
    let (x, y) = (cell & 7, cell >> 3);
    let key = match (x, y % 2) {
        (0, _) if y > 0 => 1,
        (0, _) => 2,
        (7, 0) => 3,
        (_, 0) => 2,
        (1, _) if y < 7 => 3,
        _ => 4,
    };
    host::write_scalar(e, "key", key).map_err(err)
}

/// The endless memory walk of `tests/asm/memloop.s` on `config`, its bound set to the memory size.
fn memwalk_case(name: &str, config: &str, steps: u64, engines: Vec<&'static str>) -> Result<Case, String> {
    let config = Config::preset(config).map_err(|e| e.0)?;
    let program = asm::assemble(include_str!("../../tests/asm/memloop.s"), config).map_err(|d| format!("{d:?}"))?;
    let setup: Setup = Box::new(|e| {
        let m = e.program().config.mem_slots as i64;
        host::write_scalar(e, "top", m).map_err(|err| err.to_string())
    });
    Ok(Case { name: name.into(), program, steps: Some(steps), engines, setup, frame: None, verify: None })
}

/// The Sudoku solver's verdict: `solved` = 1.
fn solved(e: &dyn Engine) -> Result<(), String> {
    match host::read_scalar(e, "solved") {
        Ok(1) => Ok(()),
        Ok(v) => Err(format!("the solver ended with solved = {v}")),
        Err(err) => Err(err.to_string()),
    }
}

/// The cases of `loom bench`: the demos, the memory walk, and the dense
/// reference beside the sparse engine on the small configuration. `full` runs
/// the Sudoku classic to completion on the transformer (minutes).
pub fn cases(full: bool) -> Result<Vec<Case>, String> {
    let both = || vec!["interp", "sparse"];
    let mut cases = vec![
        demo_case("sort", "Shuffled", "sort", None, both())?,
        Case {
            frame: Some(Box::new(steer_snake)),
            ..demo_case("snake", "Seed 1", "snake ticks", Some(300_000), both())?
        },
        demo_case("sudoku", "Classic", "sudoku classic 1M steps", Some(1_000_000), both())?,
        memwalk_case("memwalk", "compact", 500_000, both())?,
        memwalk_case("memwalk-small", "small", 300, vec!["interp", "dense", "sparse"])?,
    ];
    if full {
        let solve = demo_case("sudoku", "Classic", "sudoku classic (solved)", None, both())?;
        cases.push(Case { verify: Some(solved), ..solve });
    }
    Ok(cases)
}

/// One row of `loom bench`'s per-preset table (`presets` in `--json`; field names are a contract):
/// the memory walk's speed on the sparse transformer and the memory that engine holds.
#[derive(Clone, Debug, Serialize)]
pub struct PresetRow {
    pub config: String,
    pub d: usize,
    pub n: usize,
    pub word_bits: u32,
    pub steps: u64,
    pub seconds: f64,
    pub steps_per_sec: f64,
    pub tensor_bytes: usize,
    pub engine_bytes: usize,
    pub weights_bytes: usize,
    pub total_bytes: usize,
}

/// Steps of the memory walk per preset: enough to pass the first step (which
/// reads every column) many times over on the largest.
pub const PRESET_STEPS: u64 = 20_000;

/// Every preset's cost: the memory walk for `steps` steps on the sparse
/// transformer, and its memory after the run.
pub fn presets(steps: u64, make: Factory) -> Result<Vec<PresetRow>, String> {
    crate::config::PRESETS
        .iter()
        .map(|c| {
            let case = memwalk_case(c.name, c.name, steps, vec!["sparse"])?;
            let mut e = make("sparse", &case.program)?;
            (case.setup)(e.as_mut())?;
            let start = Instant::now();
            if let Status::Fault { pc, message } = e.run(steps, None) {
                return Err(format!("memwalk on {}: fault at pc {pc}: {message}", c.name));
            }
            let seconds = start.elapsed().as_secs_f64();
            let m = SparseEngine::new(&case.program).map_err(|e| e.to_string())?.memory();
            Ok(PresetRow {
                config: c.name.into(),
                d: c.d(),
                n: c.n,
                word_bits: c.word_bits,
                steps: e.steps(),
                seconds,
                steps_per_sec: e.steps() as f64 / seconds.max(1e-9),
                tensor_bytes: m.tensor,
                engine_bytes: m.engine,
                weights_bytes: m.weights,
                total_bytes: m.tensor + m.engine + m.weights,
            })
        })
        .collect()
}

/// The per-preset table: speed and memory in MiB.
pub fn presets_table(rows: &[PresetRow]) -> String {
    let mut s = format!(
        "{:<10} {:>9} {:>3} {:>12} {:>11} {:>11} {:>11} {:>11}\n",
        "config", "d×n", "N", "steps/s", "tensor MiB", "engine MiB", "weights MiB", "total MiB"
    );
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    for r in rows {
        s += &format!(
            "{:<10} {:>9} {:>3} {:>12.0} {:>11.1} {:>11.1} {:>11.1} {:>11.1}\n",
            r.config,
            format!("{}×{}", r.d, r.n),
            r.word_bits,
            r.steps_per_sec,
            mib(r.tensor_bytes),
            mib(r.engine_bytes),
            mib(r.weights_bytes),
            mib(r.total_bytes)
        );
    }
    s
}
