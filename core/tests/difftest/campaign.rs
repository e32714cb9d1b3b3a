//! A campaign: `count` programs from a seed, each generated once, compiled by
//! us and by gcc, run on both sides and compared (globals, status, output);
//! optionally also on the sparse transformer in lockstep with the interpreter.

use super::gcc;
use super::gen;
use super::gen::Features;
use super::ours::{self, Rejected, Transformers};
use super::outcome::{End, Outcome};
use super::program::Program;
use super::rng::Rng;
use super::text::{render, Dialect};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Programs per gcc invocation (one compile is ~0.1 s; one process per program is ~1 ms).
const BATCH: usize = 40;

#[derive(Clone, Debug)]
pub struct Budget {
    pub seed: u64,
    pub count: usize,
    /// Also run every program on the sparse transformer in lockstep with the interpreter.
    pub lockstep: bool,
    /// Longer programs are compared on the interpreter only.
    pub lockstep_max_steps: u64,
    pub max_steps: u64,
    pub threads: usize,
    /// Steer around the bugs in `known` (off: check whether they are fixed).
    pub avoid_known: bool,
    pub features: Features,
    /// Only programs of this word size (the others of the seed's sequence are skipped).
    pub bits: Option<u32>,
}

impl Budget {
    pub fn new(seed: u64, count: usize, lockstep: bool) -> Budget {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
        Budget {
            seed,
            count,
            lockstep,
            lockstep_max_steps: 200_000,
            max_steps: 50_000_000,
            threads,
            avoid_known: true,
            features: ours::features(),
            bits: None,
        }
    }
}

#[derive(Debug)]
pub struct Divergence {
    /// The program's own seed: `gen::program(seed, avoid_known, features)` rebuilds it.
    pub seed: u64,
    pub engine: &'static str,
    pub what: String,
    pub text: String,
}

#[derive(Debug, Default)]
pub struct Report {
    pub programs: usize,
    /// Needed a bigger machine than any preset: not compared.
    pub too_big: usize,
    /// Recursed deeper than our machine's stack (the fault "stack overflow"): not compared.
    pub too_deep: usize,
    pub compared: usize,
    /// Compared programs that needed the 2048-column preset.
    pub large: usize,
    /// Compared programs on 32-bit words (with C's integer types).
    pub wide: usize,
    pub faulted: usize,
    /// Interpreter steps over the compared programs.
    pub steps: u64,
    pub lockstep_programs: usize,
    pub lockstep_steps: u64,
    /// Compared programs by the parts of C they use (`Program::uses`), and with any of them.
    pub uses: std::collections::BTreeMap<&'static str, usize>,
    pub divergences: Vec<Divergence>,
    pub seconds: f64,
}

impl Report {
    pub fn summary(&self, b: &Budget) -> String {
        format!(
            "seed {:#x}, features {:?}: {} programs, {} compared with gcc ({} on 32-bit words, {} on a 2048-column preset, {} ended in a fault; {} too big for any preset, {} too deep for our stack), {} interpreter steps; {} in lockstep on the sparse transformer ({} steps); compared programs using {}; {} divergences; {:.1} s",
            b.seed,
            b.features,
            self.programs,
            self.compared,
            self.wide,
            self.large,
            self.faulted,
            self.too_big,
            self.too_deep,
            self.steps,
            self.lockstep_programs,
            self.lockstep_steps,
            self.uses.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", "),
            self.divergences.len(),
            self.seconds
        )
    }
}

/// The seed of the `k`th program of a campaign.
pub fn program_seed(campaign: u64, k: usize) -> u64 {
    Rng::new(campaign ^ (k as u64).wrapping_mul(0xA24B_AED4_963E_E407)).next_u64()
}

/// One program on both sides (ours on the interpreter): `(ours, gcc's)`, or why either side could not build it.
pub fn outcomes(p: &Program, dir: &Path) -> Result<(Outcome, Outcome), String> {
    let text = render(p, Dialect::Ours);
    let image = match ours::build(&text, p.bits) {
        Ok(image) => image,
        Err(Rejected::TooBig(e) | Rejected::Error(e)) => return Err(e),
    };
    let want = gcc::run_batch(dir, "one", p.bits, &[p])?.remove(0);
    Ok((ours::interpret(&image, Budget::new(0, 0, false).max_steps, &p.input).0.without_functions(p), want))
}

/// A fresh scratch directory for gcc's files.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loom-difftest-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// Runs a campaign. gcc must be available.
pub fn run(b: &Budget) -> Report {
    let start = Instant::now();
    let dir = scratch(&format!("{:x}", b.seed));
    let indices: Vec<usize> = match b.bits {
        None => (0..b.count).collect(),
        // Generating is cheap next to compiling and running: a bounded scan for the width.
        Some(w) => (0..b.count.saturating_mul(20))
            .filter(|&k| gen::program(program_seed(b.seed, k), b.avoid_known, b.features).bits == w)
            .take(b.count)
            .collect(),
    };
    let chunks: Vec<Vec<usize>> = indices.chunks(BATCH).map(<[usize]>::to_vec).collect();
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Report { programs: indices.len(), ..Report::default() });
    std::thread::scope(|s| {
        for _ in 0..b.threads.max(1) {
            s.spawn(|| {
                let mut transformers = Transformers::default();
                loop {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    let Some(chunk) = chunks.get(c) else { break };
                    let r = run_chunk(b, &dir, c, chunk, &mut transformers);
                    merge(&mut total.lock().unwrap(), r);
                }
            });
        }
    });
    let mut report = total.into_inner().unwrap();
    report.divergences.sort_by_key(|d| d.seed);
    report.seconds = start.elapsed().as_secs_f64();
    for d in &report.divergences {
        let _ = std::fs::write(dir.join(format!("diverge-{:x}.c", d.seed)), &d.text);
    }
    if report.divergences.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("difftest: the diverging programs are in {}", dir.display());
    }
    report
}

fn merge(into: &mut Report, r: Report) {
    into.too_big += r.too_big;
    into.too_deep += r.too_deep;
    into.compared += r.compared;
    into.large += r.large;
    into.wide += r.wide;
    into.faulted += r.faulted;
    into.steps += r.steps;
    into.lockstep_programs += r.lockstep_programs;
    into.lockstep_steps += r.lockstep_steps;
    for (k, n) in r.uses {
        *into.uses.entry(k).or_default() += n;
    }
    into.divergences.extend(r.divergences);
}

/// One program, generated and compiled on our side.
struct Case {
    seed: u64,
    prog: Program,
    text: String,
    image: loom_core::Program,
}

fn run_chunk(b: &Budget, dir: &Path, c: usize, chunk: &[usize], tf: &mut Transformers) -> Report {
    let mut r = Report::default();
    let mut cases = Vec::new();
    for &k in chunk {
        let seed = program_seed(b.seed, k);
        let prog = gen::program(seed, b.avoid_known, b.features);
        let text = render(&prog, Dialect::Ours);
        match ours::build(&text, prog.bits) {
            Ok(image) => cases.push(Case { seed, prog, text, image }),
            Err(Rejected::TooBig(_)) => r.too_big += 1,
            Err(Rejected::Error(e)) => {
                r.divergences.push(Divergence { seed, engine: "compiler", what: format!("we reject it:\n{e}"), text })
            }
        }
    }
    for bits in [8, 16, 32] {
        let group: Vec<&Case> = cases.iter().filter(|k| k.prog.bits == bits).collect();
        if group.is_empty() {
            continue;
        }
        let progs: Vec<&Program> = group.iter().map(|k| &k.prog).collect();
        let name = format!("batch{c}-{bits}");
        let outcomes = match gcc::run_batch(dir, &name, bits, &progs) {
            Ok(outcomes) => outcomes.into_iter().map(Ok).collect::<Vec<Result<Outcome, String>>>(),
            // One program gcc rejects (a generator bug) must not hide the others: one by one.
            Err(_) => progs.iter().map(|p| gcc::run_batch(dir, &name, bits, &[p]).map(|mut o| o.remove(0))).collect(),
        };
        for (case, want) in group.iter().zip(outcomes) {
            match want {
                Ok(want) => compare(b, case, &want, tf, &mut r),
                Err(e) => {
                    let what = format!("gcc's side failed: {e}");
                    r.divergences.push(Divergence { seed: case.seed, engine: "gcc", what, text: case.text.clone() });
                }
            }
        }
    }
    r
}

fn compare(b: &Budget, case: &Case, want: &Outcome, tf: &mut Transformers, r: &mut Report) {
    let diverge = |engine, what| Divergence { seed: case.seed, engine, what, text: case.text.clone() };
    let (got, steps) = ours::interpret(&case.image, b.max_steps, &case.prog.input);
    let got = got.without_functions(&case.prog);
    if matches!(&got.end, End::Fault { message, .. } if message == "stack overflow") && want.end == End::Halted {
        r.too_deep += 1;
        return;
    }
    r.compared += 1;
    r.large += usize::from(case.image.config.n == 2048);
    r.wide += usize::from(case.prog.bits == 32);
    r.steps += steps;
    let uses = case.prog.uses();
    if !uses.is_empty() {
        *r.uses.entry("any of them").or_default() += 1;
    }
    for u in uses {
        *r.uses.entry(u).or_default() += 1;
    }
    r.faulted += usize::from(matches!(want.end, End::Fault { .. }));
    if let Some(d) = got.diff(want) {
        r.divergences.push(diverge("interp", d));
        return;
    }
    if b.lockstep && steps <= b.lockstep_max_steps {
        match tf.lockstep(&case.image, b.lockstep_max_steps + 1, &case.prog.input) {
            Ok((got, steps)) => {
                let got = got.without_functions(&case.prog);
                r.lockstep_programs += 1;
                r.lockstep_steps += steps;
                if let Some(d) = got.diff(want) {
                    r.divergences.push(diverge("sparse", d));
                }
            }
            Err(d) => r.divergences.push(diverge("sparse", d)),
        }
    }
}
