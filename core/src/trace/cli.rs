//! `loom trace …`: the command line of the trace machine. The `loom` binary
//! hands every argument after `trace` to [`main`].

use crate::trace::bench;
use crate::trace::head::HeadMode;
use crate::trace::load;
use crate::trace::machine::Machine;
use crate::trace::plot::{self, Series};
use crate::trace::report;
use crate::trace::runner::Status;

pub const USAGE: &str = "usage:
  loom trace run FILE.wat|FILE.wasm [--heads brute|hull|both] [--max-steps N] [--json]
  loom trace bench [--json] [--quick]
  loom trace scaling [--json] [--svg FILE] [--brute-log2 N] [--hull-log2 N]

run: executes the exported `main` with every read an attention head over the trace
(--heads: brute force O(t), convex hull O(log t) (the default), or both compared on every lookup).";

/// Runs `loom trace ARGS…`; an `Err` is printed by the caller, which exits with 1.
pub fn main(args: &[String]) -> Result<(), String> {
    let (cmd, rest) = args.split_first().ok_or(USAGE)?;
    let mut flags = Flags::parse(rest)?;
    match cmd.as_str() {
        "run" => run(&mut flags),
        "bench" => bench_cmd(&mut flags),
        "scaling" => scaling(&mut flags),
        _ => Err(format!("unknown command `trace {cmd}`\n{USAGE}")),
    }
}

/// `--name value` options, boolean `--name` switches, and positional words;
/// each command takes what it knows and [`Flags::done`] rejects the rest.
struct Flags {
    pairs: Vec<(String, Option<String>)>,
    words: Vec<String>,
}

const SWITCHES: [&str; 2] = ["--json", "--quick"];

impl Flags {
    fn parse(args: &[String]) -> Result<Flags, String> {
        let (mut pairs, mut words) = (Vec::new(), Vec::new());
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if SWITCHES.contains(&a.as_str()) {
                pairs.push((a.clone(), None));
            } else if a.starts_with("--") {
                let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
                pairs.push((a.clone(), Some(v.clone())));
            } else {
                words.push(a.clone());
            }
        }
        Ok(Flags { pairs, words })
    }

    fn take(&mut self, name: &str) -> Option<Option<String>> {
        let i = self.pairs.iter().position(|(n, _)| n == name)?;
        Some(self.pairs.remove(i).1)
    }

    fn switch(&mut self, name: &str) -> bool {
        self.take(name).is_some()
    }

    fn value(&mut self, name: &str) -> Option<String> {
        self.take(name).flatten()
    }

    fn number(&mut self, name: &str, default: u64) -> Result<u64, String> {
        match self.value(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("{name}: `{v}` is not a number")),
        }
    }

    fn done(&self) -> Result<(), String> {
        match (self.pairs.first(), self.words.first()) {
            (Some((n, _)), _) => Err(format!("unknown option {n}\n{USAGE}")),
            (None, Some(w)) => Err(format!("unexpected argument `{w}`\n{USAGE}")),
            (None, None) => Ok(()),
        }
    }
}

fn run(f: &mut Flags) -> Result<(), String> {
    let heads = f.value("--heads").map_or(Ok(HeadMode::Hull), |h| HeadMode::parse(&h))?;
    let max_steps = f.number("--max-steps", 10_000_000)?;
    let json = f.switch("--json");
    if f.words.len() != 1 {
        return Err(format!("loom trace run takes one file\n{USAGE}"));
    }
    let file = f.words.remove(0);
    f.done()?;
    let bytes = std::fs::read(&file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let loaded = match file.rsplit('.').next() {
        Some("wasm") => load::load_wasm(&bytes).map_err(|e| e.render(&file, None)),
        Some("wat") => {
            let text = String::from_utf8_lossy(&bytes);
            load::load_wat(&text).map_err(|e| e.render(&file, Some(&text)))
        }
        _ => Err(format!("{file}: unknown file type (expected .wat or .wasm)")),
    };
    let mut m = Machine::with_heads(loaded?, heads);
    m.run(max_steps);
    if json {
        println!("{}", report::run_json(&m));
        return Ok(());
    }
    let c = m.counters();
    let status = match m.status() {
        Status::Halted => "halted".to_string(),
        Status::Running => "budget (--max-steps ran out)".to_string(),
        Status::Trapped(t) => format!("trap: {}", t.message()),
    };
    println!("status: {status}  steps: {}  result: {:?}", m.steps(), m.stack());
    println!("lookups: {} ({:.2} per step)  trace: {} writes", c.lookups, c.lookups_per_step(), c.writes);
    println!(
        "{:<8} {:>10} {:>10} {:>12} {:>12} {:>10} {:>9}",
        "head", "writes", "lookups", "brute dots", "hull dots", "keys", "vertices"
    );
    for h in &c.heads {
        let s = h.stats;
        println!(
            "{:<8} {:>10} {:>10} {:>12} {:>12} {:>10} {:>9}",
            h.space.name(),
            s.writes,
            s.lookups,
            s.brute_dots,
            s.hull_dots,
            s.brute_size,
            s.hull_size
        );
    }
    Ok(())
}

fn bench_cmd(f: &mut Flags) -> Result<(), String> {
    let json = f.switch("--json");
    let quick = f.switch("--quick");
    f.done()?;
    let start = std::time::Instant::now();
    let rows = bench::run_with(&bench::cases(quick), &mut || start.elapsed().as_secs_f64())?;
    if json {
        println!("{}", serde_json::json!({ "results": rows }));
    } else {
        print!("{}", bench::table(&rows));
    }
    Ok(())
}

fn scaling(f: &mut Flags) -> Result<(), String> {
    let json = f.switch("--json");
    let svg = f.value("--svg");
    let brute_log2 = f.number("--brute-log2", 16)? as u32;
    let hull_log2 = f.number("--hull-log2", 22)? as u32;
    f.done()?;
    if brute_log2 > 24 || hull_log2 > 30 {
        return Err("--brute-log2 is at most 24, --hull-log2 at most 30".into());
    }
    let brute = bench::scaling(HeadMode::Brute, brute_log2)?;
    let hull = bench::scaling(HeadMode::Hull, hull_log2)?;
    if json {
        println!("{}", serde_json::json!({ "brute": brute, "hull": hull }));
    } else {
        println!("{:>10} {:>12} {:>12} {:>14} {:>14}", "trace ≥", "brute", "hull", "brute memory", "hull memory");
        for (i, h) in hull.iter().enumerate() {
            let b = brute.get(i).filter(|b| b.from == h.from);
            let cell = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
            println!(
                "{:>10} {:>12} {:>12.1} {:>14} {:>14.1}",
                h.from,
                cell(b.map(|b| b.dots_per_lookup)),
                h.dots_per_lookup,
                cell(b.map(|b| b.memory_dots_per_lookup)),
                h.memory_dots_per_lookup
            );
        }
    }
    if let Some(path) = svg {
        let series = [
            Series::from_scaling("brute force, all heads", "#d62728", &brute, false),
            Series::from_scaling("brute force, memory head", "#ff9896", &brute, true),
            Series::from_scaling("hull, all heads", "#1f77b4", &hull, false),
            Series::from_scaling("hull, memory head", "#9ecae1", &hull, true),
        ];
        let doc = plot::svg(
            "Dot products per lookup as the trace grows (the grow workload)",
            "trace length t (writes)",
            "dot products per lookup",
            &series,
        );
        std::fs::write(&path, doc).map_err(|e| format!("cannot write {path}: {e}"))?;
        eprintln!("wrote {path}");
    }
    Ok(())
}
