//! Runs every C program in `tests/c/` and `tests/c/regress/` on every engine in
//! [`ENGINES`] that is fast enough for it (the dense reference only on small
//! configurations and short runs).
//!
//! Each program checks itself with `assert(...)` (a failed assert stops with a
//! trap) and states the expected final globals in a header comment:
//!
//! ```c
//! // config: compact16            (optional; default `compact`)
//! // expect: x = 5, ys = [1, 2, 3]
//! // fault: division by zero @ 7  (optional: the run must stop with this fault on line 7)
//! // unwritten: r                 (with a fault: the variable the faulting statement assigns)
//! // output: "x = 5\n"           (optional: what it prints, escapes as in C; default nothing)
//! // oracle: gcc                  (optional: gcc compiles it and prints `output` too; checked when gcc is installed)
//! ```
//!
//! A program that reads input has it in a sibling file, `NAME.in`: every engine (and gcc,
//! on its standard input) reads it; without one a program reads `EOF` at once.
//!
//! `tests/c/regress/` holds the bugs the differential tester found (expected
//! values from gcc); those that still fail are listed in its `KNOWN_FAILING`.

use loom_core::compiler::compile;
use loom_core::frontend::{EngineKind, Machine, DENSE_MAX_N};
use loom_core::host::{run_printing, Input, Output};
use loom_core::machine::lockstep::lockstep;
use loom_core::report;
use loom_core::state::Status;
use loom_core::{Config, Engine, Program};
use std::path::PathBuf;

/// Whether an engine is fast enough for a program: its configuration, its steps on the interpreter.
type FastEnough = fn(&Config, u64) -> bool;

/// The engines the corpus runs whole programs on, and whether one is fast enough
/// for a program (its configuration and its length on the interpreter). The
/// sparse transformer is checked step by step against the interpreter below.
const ENGINES: &[(EngineKind, FastEnough)] = &[
    (EngineKind::Interp, |_, _| true),
    // The dense reference runs ~50 steps/s on `small`: the page's configurations, short runs.
    (EngineKind::Dense, |cfg, steps| cfg.n <= DENSE_MAX_N && steps <= DENSE_MAX_STEPS),
];

/// The longest run the dense reference is given (a few seconds).
const DENSE_MAX_STEPS: u64 = 400;

const MAX_STEPS: u64 = 50_000_000;

struct Case {
    name: String,
    source: String,
    config: Config,
    expect: Vec<(String, Vec<i32>)>,
    fault: Option<(String, u32)>,
    /// The variable the fault leaves unwritten (`report::unwritten`).
    unwritten: Option<String>,
    output: String,
    /// What the program reads (`NAME.in`).
    input: Vec<u8>,
    /// The file, for gcc.
    path: PathBuf,
    /// `// oracle: gcc`, or an input: gcc must print `output` too.
    gcc: bool,
}

fn header<'a>(src: &'a str, key: &str) -> Option<&'a str> {
    src.lines().find_map(|l| l.trim().strip_prefix("//")?.trim().strip_prefix(key)?.strip_prefix(':').map(str::trim))
}

/// Parses `"a\tb\n"`: a quoted string with C's common escapes.
fn parse_output(text: &str) -> String {
    let inner = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).expect("output: \"TEXT\"");
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        let escaped = if c == '\\' { chars.next() } else { None };
        out.push(match escaped {
            Some('n') => '\n',
            Some('t') => '\t',
            Some(e @ ('\\' | '"')) => e,
            Some(e) => panic!("output: unknown escape `\\{e}`"),
            None => c,
        });
    }
    out
}

/// Parses `x = 5, ys = [1, 2, 3]`.
fn parse_expect(text: &str) -> Vec<(String, Vec<i32>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().trim_start_matches(',').trim().to_string();
        let after = rest[eq + 1..].trim_start();
        let (vals, tail) = if let Some(list) = after.strip_prefix('[') {
            let close = list.find(']').expect("closing ]");
            (list[..close].split(',').map(|v| v.trim().parse().unwrap()).collect(), &list[close + 1..])
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (vec![after[..end].trim().parse().unwrap()], &after[end..])
        };
        out.push((name, vals));
        rest = tail;
    }
    out
}

fn cases() -> Vec<Case> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/c");
    let mut paths = Vec::new();
    for dir in [root.clone(), root.join("regress")] {
        paths.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()));
    }
    paths.retain(|p| p.extension().is_some_and(|e| e == "c"));
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let source = std::fs::read_to_string(&p).unwrap();
            let preset = header(&source, "config").unwrap_or("compact");
            let config = Config::preset(preset).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let expect = header(&source, "expect").map(parse_expect).unwrap_or_default();
            let fault = header(&source, "fault").map(|f| {
                let (msg, line) = f.rsplit_once('@').expect("fault: MESSAGE @ LINE");
                (msg.trim().to_string(), line.trim().parse().unwrap())
            });
            let output = header(&source, "output").map(parse_output).unwrap_or_default();
            let unwritten = header(&source, "unwritten").map(str::to_string);
            let name = p.strip_prefix(&root).unwrap().to_string_lossy().into();
            let input_file = p.with_extension("in");
            let input = if input_file.exists() { std::fs::read(&input_file).unwrap() } else { Vec::new() };
            let gcc = input_file.exists() || header(&source, "oracle") == Some("gcc");
            Case { name, source, config, expect, fault, unwritten, output, input, path: p, gcc }
        })
        .collect()
}

/// Runs `f`, turning a panic (a compiler bug a known-failing case may still hit,
/// e.g. a debug assertion) into an error.
fn caught<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| Err("panicked".to_string()))
}

/// The cases `tests/c/regress/KNOWN_FAILING` lists (as `regress/NAME.c`).
fn known_failing() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/c/regress/KNOWN_FAILING");
    let text = std::fs::read_to_string(path).unwrap();
    let names = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    names.map(|l| format!("regress/{}", l.split_whitespace().next().unwrap())).collect()
}

/// Runs a case on an engine and checks its status and globals; the summary line and the steps.
fn run_case(case: &Case, engine: EngineKind) -> Result<(String, u64), String> {
    let out = compile(&case.source, case.config);
    let prog: Program = out.program.ok_or_else(|| format!("does not compile: {:#?}", out.diagnostics))?;
    let mut m = engine.start(&prog).map_err(|e| e.to_string())?;
    let mut output = Output::default();
    let status = run_printing(m.as_mut(), MAX_STEPS, None, &mut output, &mut Input::new(case.input.clone()));
    let engine = engine.name();
    if output.text() != case.output {
        return Err(format!("{engine}: printed {:?}, expected {:?}", output.text(), case.output));
    }
    match (&case.fault, &status) {
        (None, Status::Halted) => {}
        (Some((msg, line)), Status::Fault { pc, message }) => {
            if message != msg || prog.line_at_pc(*pc) != Some(*line) {
                return Err(format!(
                    "expected fault `{msg}` on line {line}, got `{message}` on {:?}",
                    prog.line_at_pc(*pc)
                ));
            }
            let unwritten = report::unwritten(&prog, &status);
            if unwritten != case.unwritten {
                return Err(format!(
                    "{engine}: the fault leaves {unwritten:?} unwritten, expected {:?}",
                    case.unwritten
                ));
            }
        }
        (_, Status::Fault { pc, message }) => {
            return Err(format!("{engine}: fault `{message}` on line {:?}", prog.line_at_pc(*pc)))
        }
        (_, s) => return Err(format!("{engine}: ended with {s:?}")),
    }
    for (name, want) in &case.expect {
        let sym = prog.symbol(name).ok_or_else(|| format!("no global `{name}`"))?;
        let got: Vec<i32> = (sym.slot..sym.slot + sym.len).map(|s| m.read_slot(s)).collect();
        if &got != want {
            return Err(format!("{engine}: {name} = {got:?}, expected {want:?}"));
        }
    }
    let line = format!(
        "{:24} {:10} {:6} {:4} instructions {:4} slots {:9} steps",
        case.name,
        case.config.name,
        engine,
        prog.code.len(),
        prog.used_slots(),
        m.steps()
    );
    Ok((line, m.steps()))
}

#[test]
fn corpus_programs_assert_their_own_results() {
    let cases = cases();
    assert!(cases.len() >= 10, "the corpus is missing");
    let known = known_failing();
    for k in &known {
        assert!(cases.iter().any(|c| &c.name == k), "KNOWN_FAILING lists {k}, which does not exist");
    }
    let mut failures = Vec::new();
    for case in &cases {
        assert!(!case.expect.is_empty() || case.fault.is_some(), "{}: no `// expect:` header", case.name);
        let listed = known.contains(&case.name);
        // The interpreter's length decides which engines are fast enough (none after a failure).
        let mut steps = 0;
        for &(engine, fast_enough) in ENGINES {
            if !fast_enough(&case.config, steps) {
                continue;
            }
            match (caught(|| run_case(case, engine)), listed) {
                (Ok((line, n)), false) => {
                    println!("{line}");
                    steps = steps.max(n);
                }
                (Err(e), listed) => {
                    steps = u64::MAX;
                    if listed {
                        println!("{:24} fails as KNOWN_FAILING says: {e}", case.name);
                    } else {
                        failures.push(format!("{}: {e}", case.name));
                    }
                }
                (Ok(_), true) => failures.push(format!(
                    "{} passes on {}: remove it from tests/c/regress/KNOWN_FAILING",
                    case.name,
                    engine.name()
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn expect_headers_parse() {
    assert_eq!(
        parse_expect("x = 5, ys = [1, -2, 3], z = -1"),
        [("x".to_string(), vec![5]), ("ys".to_string(), vec![1, -2, 3]), ("z".to_string(), vec![-1])]
    );
    assert_eq!(parse_output(r#""a\tb \"c\" \\\n""#), "a\tb \"c\" \\\n");
}

/// Steps of each corpus program checked on the sparse transformer in lockstep
/// with the interpreter (whole programs when shorter; a prefix otherwise); a whole
/// run must also print the expected output.
const LOCKSTEP_STEPS: u64 = 200_000;

#[test]
fn corpus_runs_in_lockstep_on_the_transformer() {
    let mut failures = Vec::new();
    let known = known_failing();
    for case in &cases() {
        let Ok(Some(prog)) = caught(|| Ok(compile(&case.source, case.config).program)) else {
            // A known-failing case may fail by not compiling (or by panicking); the test above checks it still fails.
            assert!(known.contains(&case.name), "{} does not compile", case.name);
            continue;
        };
        let mut oracle = Machine::new(EngineKind::Interp, &prog).unwrap();
        oracle.set_input(case.input.clone());
        let mut sparse = Machine::new(EngineKind::Sparse, &prog).unwrap();
        sparse.set_input(case.input.clone());
        match lockstep(&mut sparse, &mut oracle, LOCKSTEP_STEPS) {
            Ok(status) if !status.is_running() && sparse.output().text() != case.output => failures.push(format!(
                "{}: the transformer printed {:?}, expected {:?}",
                case.name,
                sparse.output().text(),
                case.output
            )),
            Ok(status) => println!("{:24} lockstep {:6} steps, {}", case.name, sparse.steps(), status.name()),
            Err(d) => failures.push(format!("{}: {d}", case.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The programs marked for it (and every program with an input) print with gcc what their
/// `output` header says, reading the same input: the expected outputs are gcc's.
#[test]
fn gcc_prints_the_expected_output() {
    let dir = std::env::temp_dir().join(format!("loom-corpus-gcc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    if std::process::Command::new("gcc").arg("--version").output().is_err() {
        println!("skipped: gcc is not installed");
        return;
    }
    let mut failures = Vec::new();
    for case in cases().iter().filter(|c| c.gcc) {
        let exe = dir.join(case.name.replace(['/', '.'], "_"));
        let built = std::process::Command::new("gcc").args(["-w", "-o"]).arg(&exe).arg(&case.path).output().unwrap();
        if !built.status.success() {
            failures.push(format!("{}: gcc: {}", case.name, String::from_utf8_lossy(&built.stderr)));
            continue;
        }
        let mut child = std::process::Command::new(&exe)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&case.input).unwrap();
        let out = child.wait_with_output().unwrap();
        let printed = String::from_utf8_lossy(&out.stdout);
        if printed != case.output {
            failures.push(format!("{}: gcc printed {printed:?}, the header says {:?}", case.name, case.output));
        } else {
            println!("{:24} gcc prints the expected output", case.name);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
