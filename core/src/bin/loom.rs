//! The `loom` command line: assemble, build, run and benchmark programs.
//! Input kind is chosen by file extension (`.s` assembly, `.c` C).

use loom_core::frontend::{
    build as build_source, build_auto, debugger, run_states, Compiled, Debugger, EngineKind, Lang, Machine,
};
use loom_core::machine::{lockstep::lockstep, weights::Weights};
use loom_core::{asm, bench, compiler, config::Config, diag, export, image::Program, report, Engine};
use std::process::ExitCode;

const USAGE: &str = "usage:
  loom asm FILE.s [--config NAME|auto]
  loom build FILE.c [--config NAME|auto]
  loom run FILE [--engine interp|dense|sparse] [--lockstep] [--config NAME|auto] [--max-steps N] [--json]
      [--input TEXT | --input-file F]   (what getchar and scanf read; none: they read EOF)
  loom debug FILE.c [--engine interp|dense|sparse] [--config NAME|auto] [--input TEXT | --input-file F]   (commands from stdin: break LINE [if EXPR],
      run, continue, step, next, finish, until LINE, stepi, back, frames, print EXPR, quit)
  loom weights [--config NAME]
  loom export --config NAME --format safetensors|onnx OUT
  loom state FILE [--config NAME|auto] [--steps K] [--every-step] [--engine dense|sparse] --format npy OUT
  loom bench [--json] [--full]   (--full: also the Sudoku classic solved on the transformer)
  loom trace run|bench|scaling …  (the second machine: WebAssembly by attention over its trace)

FILE is assembly (.s) or C (.c). Configurations: tiny small compact default large compact16 default16 large16
compact32 default32 large32; auto: the smallest 32-bit one that holds the program.";

struct Opts {
    file: String,
    config: Config,
    /// `--config auto`: the smallest 32-bit preset that holds the program.
    auto: bool,
    engine: String,
    max_steps: u64,
    json: bool,
    lockstep: bool,
    /// What the program reads (`--input`, `--input-file`).
    input: Vec<u8>,
}

fn parse_opts(args: &[String]) -> Result<Opts, String> {
    let mut file = None;
    let mut opts = Opts {
        file: String::new(),
        config: Config::preset("compact").unwrap(),
        auto: false,
        engine: "interp".into(),
        max_steps: 10_000_000,
        json: false,
        lockstep: false,
        input: Vec::new(),
    };
    let mut input_given = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match a.as_str() {
            "--config" => match value("--config")?.as_str() {
                "auto" => opts.auto = true,
                name => (opts.config, opts.auto) = (Config::preset(name).map_err(|e| e.0)?, false),
            },
            "--engine" => opts.engine = value("--engine")?,
            "--max-steps" => {
                let v = value("--max-steps")?;
                opts.max_steps = v.parse().map_err(|_| format!("--max-steps: `{v}` is not a number"))?;
            }
            "--json" => opts.json = true,
            "--lockstep" => opts.lockstep = true,
            "--input" | "--input-file" if input_given => {
                return Err("give the input once (--input or --input-file)".into())
            }
            "--input" => {
                opts.input = value("--input")?.into_bytes();
                input_given = true;
            }
            "--input-file" => {
                let f = value("--input-file")?;
                opts.input = std::fs::read(&f).map_err(|e| format!("cannot read {f}: {e}"))?;
                input_given = true;
            }
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
    compile(opts).map(|(p, _, _)| p)
}

/// Builds the file through the façade, printing warnings; errors become the
/// command's failure. Returns the program, the build and the source text.
fn compile(opts: &Opts) -> Result<(Program, Compiled, String), String> {
    if opts.file.is_empty() {
        return Err("missing input file".into());
    }
    let lang = Lang::by_extension(&opts.file)
        .ok_or_else(|| format!("{}: unknown file type (expected .s or .c)", opts.file))?;
    let src = std::fs::read_to_string(&opts.file).map_err(|e| format!("cannot read {}: {e}", opts.file))?;
    let out = if opts.auto {
        let auto = build_auto(lang, &src);
        eprintln!("config auto: {}", auto.reason);
        auto.compiled
    } else {
        build_source(lang, &src, opts.config)
    };
    let (errors, warnings): (Vec<_>, Vec<_>) = out.diagnostics.iter().cloned().partition(|d| d.is_error());
    if !warnings.is_empty() {
        eprintln!("{}", diag::render_all(&warnings, &opts.file, &src));
    }
    match out.program.clone() {
        Some(p) => Ok((p, out, src)),
        None => Err(diag::render_all(&errors, &opts.file, &src)),
    }
}

/// `loom build`: the annotated disassembly of a C program.
fn build(opts: &Opts) -> Result<(), String> {
    if Lang::by_extension(&opts.file) != Some(Lang::C) {
        return Err(format!("{}: loom build takes a C file (use loom asm for assembly)", opts.file));
    }
    let (_, out, src) = compile(opts)?;
    print!("{}", compiler::annotated_listing(&out, &src));
    Ok(())
}

fn run(opts: &Opts) -> Result<(), String> {
    let prog = load(opts)?;
    let mut m = Machine::new(EngineKind::by_name(&opts.engine)?, &prog).map_err(|e| e.to_string())?;
    m.set_input(opts.input.clone());
    let status = if opts.lockstep {
        if opts.engine == EngineKind::Interp.name() {
            return Err(
                "--lockstep compares a transformer engine with the interpreter: add --engine dense|sparse".into()
            );
        }
        let mut oracle = Machine::new(EngineKind::Interp, &prog).map_err(|e| e.to_string())?;
        oracle.set_input(opts.input.clone());
        match lockstep(&mut m, &mut oracle, opts.max_steps) {
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
    let rep = report::run_report(&prog, &status, &m, m.output());
    if opts.json {
        println!("{}", serde_json::to_string(&rep).expect("reports serialise"));
    } else {
        println!("status: {}  steps: {}  pc: {}", rep.status, rep.steps, rep.pc);
        if let Some(f) = &rep.fault {
            let line = f.line.map_or("?".to_owned(), |l| l.to_string());
            println!("fault: {} (line {line})", f.message);
        }
        for (k, v) in rep.vars.iter() {
            println!("  {k} = {v}");
        }
        if !rep.output.is_empty() {
            println!("output:\n{}", rep.output);
        }
    }
    Ok(())
}

/// `loom debug`: the debugger, driven by commands on standard input.
fn debug(opts: &Opts) -> Result<(), String> {
    let (prog, _, src) = compile(opts)?;
    let mut dbg = Debugger::new(EngineKind::by_name(&opts.engine)?, &prog).map_err(|e| e.to_string())?;
    dbg.set_input(&opts.input);
    let stdin = std::io::stdin();
    debugger::script::run(&mut dbg, &src, stdin.lock(), &mut std::io::stdout()).map_err(|e| e.to_string())
}

/// Per-layer statistics of the weights for a configuration.
fn weights(cfg: &Config) {
    print!("{}", Weights::build(cfg).summary());
}

/// The options of `export` and `state` that the shared parser does not know,
/// taken out of the arguments first; OUT is the last plain argument.
struct ExportOpts {
    format: String,
    out: String,
    engine: String,
    steps: u64,
    every_step: bool,
}

fn split_export_opts(args: &[String]) -> Result<(ExportOpts, Vec<String>), String> {
    let mut o =
        ExportOpts { format: String::new(), out: String::new(), engine: "dense".into(), steps: 0, every_step: false };
    let (mut rest, mut plain) = (Vec::new(), Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match a.as_str() {
            "--format" => o.format = value("--format")?,
            "--engine" => o.engine = value("--engine")?,
            "--steps" => {
                let v = value("--steps")?;
                o.steps = v.parse().map_err(|_| format!("--steps: `{v}` is not a number"))?;
            }
            "--every-step" => o.every_step = true,
            "--config" | "--max-steps" => rest.extend([a.clone(), value(a)?]),
            s if s.starts_with("--") => rest.push(a.clone()),
            _ => plain.push(a.clone()),
        }
    }
    o.out = plain.pop().ok_or("missing the output file OUT")?;
    rest.extend(plain);
    if o.format.is_empty() {
        return Err("--format is required".into());
    }
    Ok((o, rest))
}

/// `loom export`: the weights of a configuration as a model file.
fn export_cmd(args: &[String]) -> Result<(), String> {
    let (o, rest) = split_export_opts(args)?;
    let opts = parse_opts(&rest)?;
    if !opts.file.is_empty() {
        return Err(format!("loom export takes no input file (got {} and {})", opts.file, o.out));
    }
    if o.steps != 0 || o.every_step || o.engine != "dense" {
        return Err("--steps, --every-step and --engine belong to loom state; a model has no program".into());
    }
    if opts.auto {
        return Err("--config auto picks a preset for a program; loom export needs a preset's name".into());
    }
    let format = export::Format::parse(&o.format)?;
    let bytes = export::model_file(&opts.config, format);
    std::fs::write(&o.out, &bytes).map_err(|e| format!("cannot write {}: {e}", o.out))?;
    eprintln!("wrote {} ({} bytes): the {} transformer as {}", o.out, bytes.len(), opts.config, o.format);
    Ok(())
}

/// `loom state`: a program's state tensor (initial, after K steps, or every step) as `.npy`.
fn state_cmd(args: &[String]) -> Result<(), String> {
    let (o, rest) = split_export_opts(args)?;
    if o.format != "npy" {
        return Err(format!("unknown state format `{}` (formats: npy)", o.format));
    }
    let opts = parse_opts(&rest)?;
    let prog = load(&opts)?;
    let run = run_states(&prog, EngineKind::by_name(&o.engine)?, o.steps, o.every_step)?;
    let bytes = if o.every_step { export::npy::states(&run.states) } else { export::npy::state(run.last()) };
    std::fs::write(&o.out, &bytes).map_err(|e| format!("cannot write {}: {e}", o.out))?;
    let what = if o.every_step {
        format!("{} states (steps 0..={})", run.states.len(), run.steps)
    } else {
        format!("the state after step {}", run.steps)
    };
    let halted = if run.halted { ", halted" } else { "" };
    eprintln!("wrote {} ({} bytes): {what} of {} on the {} engine{halted}", o.out, bytes.len(), prog.config, o.engine);
    Ok(())
}

fn bench_cmd(args: &[String]) -> Result<(), String> {
    let json = args.iter().any(|a| a == "--json");
    let full = args.iter().any(|a| a == "--full");
    if let Some(a) = args.iter().find(|a| !["--json", "--full"].contains(&a.as_str())) {
        return Err(format!("loom bench: unknown option {a}"));
    }
    let rows = bench::run(&bench::cases(full)?, EngineKind::start_by_name)?;
    let presets = bench::presets(bench::PRESET_STEPS, EngineKind::start_by_name)?;
    if json {
        println!("{}", serde_json::json!({ "results": rows, "presets": presets }));
    } else {
        print!("{}", bench::table(&rows));
        println!();
        println!("every preset: the memory walk, {} steps on the sparse transformer", bench::PRESET_STEPS);
        print!("{}", bench::presets_table(&presets));
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    // These parse their own options; the second machine's commands live in the library.
    type Command = fn(&[String]) -> Result<(), String>;
    let own: Option<Command> = match cmd.as_str() {
        "bench" => Some(bench_cmd),
        "export" => Some(export_cmd),
        "state" => Some(state_cmd),
        "trace" => Some(loom_core::trace::cli::main),
        _ => None,
    };
    if let Some(command) = own {
        return match command(&args[1..]) {
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
        "debug" => debug(&opts),
        "weights" if opts.auto => Err("--config auto picks a preset for a program; loom weights needs a name".into()),
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
