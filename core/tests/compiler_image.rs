//! The compiled image's metadata: symbols, source map, frame points, memory
//! limits, the annotated listing and the `loom` CLI on C files.

use loom_core::compiler::{annotated_listing, compile};
use loom_core::state::Status;
use loom_core::{Config, Engine, Interp};
use std::process::Command;

fn preset(name: &str) -> Config {
    Config::preset(name).unwrap()
}

const ANIM: &str = "int screen[4];\nint tick;\nint main() {\n    while (tick < 3) {\n        screen[tick] = tick * 2;\n        tick++;\n        frame();\n    }\n}\n";

#[test]
fn frames_pause_the_host_and_globals_are_found_by_name() {
    let out = compile(ANIM, preset("compact"));
    let prog = out.program.unwrap();
    assert_eq!(prog.frames.len(), 1);
    let mut breaks = vec![false; prog.code.len() + 1];
    breaks[prog.frames[0]] = true;
    let tick = prog.symbol("tick").unwrap().clone();
    let screen = prog.symbol("screen").unwrap().clone();
    assert!(screen.is_array && screen.len == 4 && screen.scope == "global" && !screen.hidden);
    let mut m = Interp::new(&prog).unwrap();
    let mut seen = Vec::new();
    while m.run(10_000, Some(&breaks)) == Status::Running {
        seen.push(m.read_slot(tick.slot));
        if m.read_slot(tick.slot) == 1 {
            m.write_slot(tick.slot, 2); // the host writes a variable while paused
        }
    }
    assert_eq!(m.status(), Status::Halted);
    assert_eq!(seen, [1, 3]);
    let s: Vec<i32> = (screen.slot..screen.slot + 4).map(|k| m.read_slot(k)).collect();
    assert_eq!(s, [0, 0, 4, 0]);
}

#[test]
fn source_map_covers_lines_both_ways() {
    let out = compile(ANIM, preset("compact"));
    let prog = out.program.as_ref().unwrap();
    assert_eq!(prog.locs.len(), prog.code.len());
    let line5 = out.instructions_for_line(5);
    assert!(!line5.is_empty());
    for k in line5 {
        let loc = prog.locs[k].unwrap();
        assert_eq!(loc.line, 5);
        assert!(loc.col >= 9 && loc.end_col > loc.col, "{loc:?}");
    }
    assert!(out.instructions_for_line(3).is_empty(), "`int main() {{` emits nothing");
    let listing = annotated_listing(&out, ANIM);
    assert!(listing.contains("   5: screen[tick] = tick * 2;"), "{listing}");
    assert!(listing.contains("; frame()"), "{listing}");
    assert!(listing.contains("STORE"), "{listing}");
}

#[test]
fn an_array_can_fill_memory_to_the_last_slot() {
    let cfg = preset("small");
    let src = |k: usize| {
        format!("int a[{k}];\nint main() {{\n    for (int i = 0; i < {k}; i++) a[i] = 100 - i;\n    assert(a[{k} - 1] == 101 - {k});\n}}\n")
    };
    let k = (1..=cfg.mem_slots).rev().find(|&k| compile(&src(k), cfg).program.is_some()).unwrap();
    let too_big = compile(&src(k + 1), cfg);
    let msg = &too_big.diagnostics[0];
    assert!(msg.message.contains(&format!("{} memory slots", cfg.mem_slots + 1)), "{msg:?}");
    assert!(msg.hint.as_deref().unwrap().contains("`compact`"), "{msg:?}");
    let prog = compile(&src(k), cfg).program.unwrap();
    assert_eq!(prog.used_slots(), cfg.mem_slots, "memory is exactly full");
    let mut m = Interp::new(&prog).unwrap();
    assert_eq!(m.run(100_000, None), Status::Halted);
    let a = prog.symbol("a").unwrap().slot;
    assert_eq!(m.read_slot(a + k - 1), 101 - k as i32);
}

#[test]
fn too_many_instructions_is_an_error_naming_a_fitting_preset() {
    let body = "    x = x * x + y / 3;\n".repeat(20);
    let out = compile(&format!("int x, y;\nint main() {{\n{body}}}\n"), preset("compact"));
    let d = &out.diagnostics[0];
    assert!(d.message.contains("instruction slots (`compact` has 320)"), "{d:?}");
    assert!(d.hint.as_deref().unwrap().contains("`default`"), "{d:?}");
}

#[test]
fn several_errors_are_reported_at_once() {
    let out = compile("int main() {\n    a = 1;\n    b = 2;\n    break;\n}\n", preset("compact"));
    let lines: Vec<u32> = out.diagnostics.iter().map(|d| d.span.line).collect();
    assert_eq!(lines, [2, 3, 4]);
}

fn loom(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_loom")).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn cli_runs_and_builds_c() {
    let dir = std::env::temp_dir().join(format!("loom-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("ok.c");
    std::fs::write(&good, "int x;\nint main() { x = 6 * 7; }\n").unwrap();
    let bad = dir.join("bad.c");
    std::fs::write(&bad, "int main() {\n    x = 1;\n}\n").unwrap();
    let (ok, stdout, _) = loom(&["run", good.to_str().unwrap(), "--engine", "interp", "--config", "compact", "--json"]);
    assert!(ok);
    let rep: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(rep["status"], "halted");
    assert_eq!(rep["vars"]["x"], 42);
    assert_eq!(rep["output"], "", "`output` is always present");
    let (ok, stdout, _) = loom(&["build", good.to_str().unwrap(), "--config", "default"]);
    assert!(ok && stdout.contains("   2: int main() { x = 6 * 7; }") && stdout.contains("MOV x"), "{stdout}");
    let (ok, _, stderr) = loom(&["build", bad.to_str().unwrap()]);
    assert!(!ok && stderr.contains("undefined variable `x`") && stderr.contains("bad.c:2:5"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The contract's `output`: what the program printed, the same on every engine (the dense
/// one on a small configuration), with and without lockstep.
#[test]
fn cli_reports_what_a_program_prints_on_every_engine() {
    let dir = std::env::temp_dir().join(format!("loom-cli-print-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("answer.c");
    std::fs::write(&file, "#include <stdio.h>\nint n = 42;\nint main() {\n    printf(\"%d\\n\", n);\n}\n").unwrap();
    let path = file.to_str().unwrap();
    for args in [
        &["--engine", "interp"][..],
        &["--engine", "sparse"],
        &["--engine", "dense", "--config", "small"],
        &["--engine", "sparse", "--lockstep"],
    ] {
        let (ok, stdout, stderr) = loom(&[&["run", path, "--json"][..], args].concat());
        assert!(ok, "{args:?}: {stderr}");
        let rep: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!((&rep["status"], &rep["output"]), (&"halted".into(), &"42\n".into()), "{args:?}");
    }
    let (ok, stdout, _) = loom(&["run", path]);
    assert!(ok && stdout.ends_with("output:\n42\n\n"), "{stdout:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn warnings_do_not_stop_compilation() {
    let src = "#pragma once\nint x;\nint main() {\n    if (x) x = 1 / 0;\n}\n";
    let out = compile(src, preset("compact"));
    let msgs: Vec<_> = out.diagnostics.iter().map(|d| (d.span.line, d.is_error(), d.message.as_str())).collect();
    assert_eq!(msgs, [(1, false, "`#pragma` is ignored"), (4, false, "division by zero")]);
    let prog = out.program.unwrap();
    let mut m = Interp::new(&prog).unwrap();
    m.write_slot(prog.symbol("x").unwrap().slot, 1);
    match m.run(1000, None) {
        Status::Fault { pc, message } => {
            assert_eq!((message.as_str(), prog.line_at_pc(pc)), ("division by zero", Some(4)))
        }
        s => panic!("{s:?}"),
    }
}
