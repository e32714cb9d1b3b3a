//! The `loom` command line: assemble, build, run and benchmark programs.
//! Input kind is chosen by file extension (`.s` assembly, `.c` C).

use loom_core::compiler;
use loom_core::machine::{lockstep::lockstep, weights::Weights};
use loom_core::{asm, bench, config::Config, diag, engine, image::Program, interp::Interp, report};
use std::process::ExitCode;

const USAGE: &str = "usage:
  loom asm FILE.s [--config NAME]
  loom build FILE.c [--config NAME]
  loom run FILE [--engine interp|dense|sparse] [--lockstep] [--config NAME] [--max-steps N] [--json]
  loom weights [--config NAME]
  loom bench [--json] [--full]   (--full: also the Sudoku classic solved on the transformer)
  loom trace run|bench|scaling …  (the second machine: WebAssembly by attention over its trace)

FILE is assembly (.s) or C (.c). Configurations: tiny small compact default large compact16 default16 large16.";

struct Opts {
    file: String,
    config: Config,
    engine: String,
    max_steps: u64,
    json: bool,
    lockstep: bool,
}

fn parse_opts(args: &[String]) -> Result<Opts, String> {
    let mut file = None;
    let mut opts = Opts {
        file: String::new(),
        config: Config::preset("compact").unwrap(),
        engine: "interp".into(),
        max_steps: 10_000_000,
        json: false,
        lockstep: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match a.as_str() {
            "--config" => opts.config = Config::preset(&value("--config")?).map_err(|e| e.0)?,
            "--engine" => opts.engine = value("--engine")?,
            "--max-steps" => {
                let v = value("--max-steps")?;
                opts.max_steps = v.parse().map_err(|_| format!("--max-steps: `{v}` is not a number"))?;
            }
            "--json" => opts.json = true,
            "--lockstep" => opts.lockstep = true,
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            s => {
                if file.replace(s.to_string()).is_some() {
                    return Err("only one input file".into());
                }
            }
        }
    }
    opts.file = file.unwrap_or_default();
    Ok(opts)
}

/// Loads a program from a file, choosing the front end by extension.
fn load(opts: &Opts) -> Result<Program, String> {
    if opts.file.is_empty() {
        return Err("missing input file".into());
    }
    let src = std::fs::read_to_string(&opts.file).map_err(|e| format!("cannot read {}: {e}", opts.file))?;
    match opts.file.rsplit('.').next() {
        Some("s" | "asm") => asm::assemble(&src, opts.config).map_err(|d| diag::render_all(&d, &opts.file, &src)),
        Some("c") => compile_c(opts, &src).map(|(p, _)| p),
        _ => Err(format!("{}: unknown file type (expected .s or .c)", opts.file)),
    }
}

/// Compiles C, printing warnings; errors become the command's failure.
fn compile_c(opts: &Opts, src: &str) -> Result<(Program, compiler::Compiled), String> {
    let out = compiler::compile(src, opts.config);
    let warnings: Vec<_> = out.diagnostics.iter().filter(|d| !d.is_error()).cloned().collect();
    if !warnings.is_empty() {
        eprintln!("{}", diag::render_all(&warnings, &opts.file, src));
    }
    match out.program.clone() {
        Some(p) => Ok((p, out)),
        None => {
            let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
            Err(diag::render_all(&errors, &opts.file, src))
        }
    }
}

/// `loom build`: the annotated disassembly of a C program.
fn build(opts: &Opts) -> Result<(), String> {
    let src = std::fs::read_to_string(&opts.file).map_err(|e| format!("cannot read {}: {e}", opts.file))?;
    let (_, out) = compile_c(opts, &src)?;
    print!("{}", compiler::annotated_listing(&out, &src));
    Ok(())
}

fn run(opts: &Opts) -> Result<(), String> {
    let prog = load(opts)?;
    let mut m = engine::by_name(&opts.engine, &prog)?;
    let status = if opts.lockstep {
        if opts.engine == "interp" {
            return Err(
                "--lockstep compares a transformer engine with the interpreter: add --engine dense|sparse".into()
            );
        }
        let mut oracle = Interp::new(&prog).map_err(|e| e.to_string())?;
        match lockstep(m.as_mut(), &mut oracle, opts.max_steps) {
            Ok(s) => {
                eprintln!("lockstep: {} agreed with the interpreter for {} steps", m.name(), m.steps());
                if s.is_running() {
                    loom_core::state::Status::Budget
                } else {
                    s
                }
            }
            Err(d) => return Err(format!("lockstep: {d}")),
        }
    } else {
        m.run(opts.max_steps, None)
    };
    let (steps, pc, mem) = (m.steps(), m.pc(), m.state().mem);
    let rep = report::run_report(&prog, &status, steps, pc, &mem);
    if opts.json {
        println!("{rep}");
    } else {
        println!("status: {}  steps: {}  pc: {}", rep["status"].as_str().unwrap_or("?"), m.steps(), m.pc());
        if let Some(f) = rep["fault"].as_object() {
            println!("fault: {} (line {})", f["message"], f["line"]);
        }
        for (k, v) in rep["vars"].as_object().into_iter().flatten() {
            println!("  {k} = {v}");
        }
    }
    Ok(())
}

/// Per-layer statistics of the weights for a configuration.
fn weights(cfg: &Config) {
    let w = Weights::build(cfg);
    println!("{cfg}");
    println!("{:<16} {:>5} {:>8} {:>9} {:>8}", "layer", "heads", "ffn rows", "nonzeros", "distinct");
    let stats = w.stats();
    for s in &stats {
        println!("{:<16} {:>5} {:>8} {:>9} {:>8}", s.name, s.heads, s.ffn_rows, s.nonzeros, s.distinct);
    }
    let all: Vec<f32> = w.layers.iter().flat_map(loom_core::machine::weights::LayerStats::values).collect();
    let mut distinct: Vec<u32> = all.iter().map(|v| v.to_bits()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let sum = |f: fn(&loom_core::machine::weights::LayerStats) -> usize| stats.iter().map(f).sum::<usize>();
    println!(
        "{:<16} {:>5} {:>8} {:>9} {:>8}",
        "total",
        sum(|s| s.heads),
        sum(|s| s.ffn_rows),
        all.len(),
        distinct.len()
    );
}

fn bench_cmd(args: &[String]) -> Result<(), String> {
    let json = args.iter().any(|a| a == "--json");
    let full = args.iter().any(|a| a == "--full");
    if let Some(a) = args.iter().find(|a| !["--json", "--full"].contains(&a.as_str())) {
        return Err(format!("loom bench: unknown option {a}"));
    }
    let rows = bench::run(&bench::cases(full)?, engine::by_name)?;
    if json {
        println!("{}", serde_json::json!({ "results": rows }));
    } else {
        print!("{}", bench::table(&rows));
        println!();
        print!("{}", bench::memory_table(&bench::memory(&["tiny", "small", "compact", "default", "large"])?));
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    // The second machine's commands live in the library (`loom_core::trace::cli`).
    if cmd == "trace" {
        return match loom_core::trace::cli::main(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(1)
            }
        };
    }
    if cmd == "bench" {
        return match bench_cmd(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(1)
            }
        };
    }
    let result = parse_opts(&args[1..]).and_then(|opts| match cmd.as_str() {
        "asm" => load(&opts).map(|p| print!("{}", asm::listing(&p))),
        "run" => run(&opts),
        "weights" => {
            weights(&opts.config);
            Ok(())
        }
        "build" => build(&opts),
        _ => Err(format!("unknown command `{cmd}`\n{USAGE}")),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
