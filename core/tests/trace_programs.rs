//! The trace machine on its starter programs (every head mode, step by step
//! against the reference), the million-step runs in hull mode, located load
//! errors, the `loom trace run --json` contract, and the explained lookups a
//! UI would plot.
#![cfg(not(target_arch = "wasm32"))]

use loom_core::trace::programs::{Program, PROGRAMS};
use loom_core::trace::score::T;
use loom_core::trace::{load_wasm, load_wat, HeadMode, Machine, Reference, Status};

#[test]
fn starter_programs_give_their_results_in_every_head_mode() {
    for p in PROGRAMS {
        let code = load_wat(p.source).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let mut r = Reference::reference(code.clone());
        r.run(1_000_000);
        assert_eq!(r.status(), &Status::Halted, "{}", p.name);
        assert_eq!(r.stack(), p.expected, "{}", p.name);
        let mut m = Machine::with_heads(code.clone(), HeadMode::Hull);
        m.run(1_000_000);
        assert_eq!((m.status(), m.stack()), (&Status::Halted, p.expected.to_vec()), "{}", p.name);
        assert_eq!(m.records(), r.records(), "{}", p.name);
        // Brute force is O(t) a lookup: the first 5000 steps.
        for mode in [HeadMode::Brute, HeadMode::Both] {
            let mut m = Machine::with_heads(code.clone(), mode);
            m.run(5000);
            assert_eq!(m.records(), &r.records()[..m.steps() as usize], "{} {mode:?}", p.name);
        }
    }
}

/// Each step reads what it needs: the counters add up, and the brute-force
/// head's dot products are its keys, the hull's a few per lookup.
#[test]
fn counters_add_up() {
    let code = load_wat(Program::by_name("bubble_sort").unwrap().source).unwrap();
    let mut m = Machine::with_heads(code, HeadMode::Both);
    m.run(1_000_000);
    let c = m.counters();
    let per_step: u64 = m.records().iter().map(|r| u64::from(r.lookups)).sum();
    assert_eq!(c.lookups, per_step);
    assert_eq!(c.lookups, c.heads.iter().map(|h| h.stats.lookups).sum::<u64>());
    assert_eq!(c.writes, m.writes().len() as u64);
    let (brute, hull) = c.dots_per_lookup();
    let (brute, hull) = (brute.unwrap(), hull.unwrap());
    eprintln!(
        "bubble sort: {:.2} lookups/step, dot products per lookup: brute {brute:.0}, hull {hull:.1}",
        c.lookups_per_step()
    );
    assert!(hull < 10.0 && brute > 50.0 * hull);
    for h in &c.heads {
        assert!(h.stats.hull_size <= h.stats.brute_size && h.stats.brute_size == h.stats.writes, "{h:?}");
    }
}

fn run_hull(name: &str, n: i64) -> Machine {
    let source = Program::by_name(name).unwrap().with_n(n).unwrap();
    let mut m = Machine::with_heads(load_wat(&source).unwrap(), HeadMode::Hull);
    m.run(u64::MAX);
    m
}

#[test]
fn million_step_runs_complete_in_hull_mode() {
    let m = run_hull("countdown", 300_000);
    assert_eq!((m.status(), m.steps(), m.stack()), (&Status::Halted, 1_500_004, vec![0]));
    let m = run_hull("fibonacci", 100_000);
    // F(100000) mod 2^32, as a signed i32.
    assert_eq!((m.status(), m.steps(), m.stack()), (&Status::Halted, 1_500_008, vec![873_876_091]));
    // The hull keeps one vertex per address however long the trace.
    let stack = m.counters().heads[0].stats;
    assert!(stack.hull_size <= 4 && stack.writes > 1_000_000, "{stack:?}");
}

#[test]
fn the_budget_stops_a_run() {
    let mut m = Machine::with_heads(load_wat(Program::by_name("countdown").unwrap().source).unwrap(), HeadMode::Hull);
    assert_eq!(m.run(7), 7);
    assert_eq!(m.status(), &Status::Running);
    let json = loom_core::trace::report::run_json(&m);
    assert_eq!(json["status"], "budget");
    assert_eq!(json["steps"], 7);
}

fn load_error(wat: &str) -> String {
    let e = load_wat(wat).expect_err("must not load");
    e.render("prog.wat", Some(wat))
}

#[test]
fn load_errors_point_at_the_source() {
    let unsupported = "(module\n  (func (export \"main\") (result i64)\n    (i64.add (i64.const 1) (i64.const 2))))";
    expect_test::expect![[r#"
        error: function 0 has a value of type i64 (the trace machine runs an i32 subset of WebAssembly)
         --> prog.wat:2:4
          |
        2 |   (func (export "main") (result i64)
          |    ^^^^
    "#]]
    .assert_eq(&load_error(unsupported));
    let instr = "(module\n  (func (export \"main\") (result i32)\n    i32.const 1\n    i64.const 2\n    drop))";
    expect_test::expect![[r#"
        error: unsupported instruction `i64.const` (the trace machine runs an i32 subset of WebAssembly)
         --> prog.wat:4:5
          |
        4 |     i64.const 2
          |     ^^^^^^^^^
    "#]]
    .assert_eq(&load_error(instr));
    let underflow = "(module\n  (func (export \"main\")\n    (i32.const 1)\n    drop\n    drop))";
    expect_test::expect![[r#"
        error: type mismatch: expected a type but nothing on stack
         --> prog.wat:5:5
          |
        5 |     drop))
          |     ^^^^
    "#]]
    .assert_eq(&load_error(underflow));
    let syntax = "(module\n  (func (export \"main\") (result i32)\n    (i32.ad (i32.const 1) (i32.const 2))))";
    expect_test::expect![[r#"
        error: unknown operator or unexpected token
         --> prog.wat:3:6
          |
        3 |     (i32.ad (i32.const 1) (i32.const 2))))
          |      ^^^^^^
    "#]]
    .assert_eq(&load_error(syntax));
    for (wat, message) in [
        ("(module (func (export \"start\")))", "the module exports no function `main`"),
        ("(module (func (export \"main\") (param i32)))", "`main` must take no parameters"),
        ("(module (import \"env\" \"f\" (func)) (func (export \"main\")))", "imports are not supported"),
        ("(module (func (export \"main\") (local f64)))", "a local of type f64"),
        ("(module (memory 1) (func (export \"main\") (drop (memory.grow (i32.const 1)))))", "`memory.grow`"),
        ("(module (memory 1) (data (i32.const 65535) \"ab\") (func (export \"main\")))", "does not fit in the memory"),
    ] {
        let e = load_wat(wat).expect_err(wat);
        assert!(e.message.contains(message), "{wat}: {}", e.message);
    }
}

#[test]
fn binary_errors_give_the_byte_offset_and_the_instruction() {
    let wasm = wat::parse_str(
        "(module (func (export \"main\") (result i32) (i32.const 1) (i32.const 2) (i32.rotl) (f32.const 0) (drop)))",
    )
    .unwrap();
    let e = load_wasm(&wasm).expect_err("f32");
    assert_eq!((e.func, e.op), (Some(0), Some(3)));
    expect_test::expect!["unsupported instruction `f32.const` (the trace machine runs an i32 subset of WebAssembly) at byte offset 0x27 (function 0, instruction 3)"]
        .assert_eq(&e.to_string());
    assert!(load_wasm(b"\0asm\x01\0\0\0\x01").is_err());
    assert!(loom_core::trace::load(&[0xFF, 0xFE]).is_err());
}

/// `loom trace run … --json` prints exactly the contract's keys.
#[test]
fn the_cli_prints_the_json_contract() {
    let dir = std::env::temp_dir().join(format!("loom-trace-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = |name| Program::by_name(name).unwrap().source.as_bytes().to_vec();
    let div = "(module (func (export \"main\") (result i32) (i32.div_s (i32.const 1) (i32.const 0))))";
    let cases = [
        ("gcd.wat", source("gcd"), &["--heads", "both"][..]),
        ("div.wat", div.as_bytes().to_vec(), &[]),
        ("count.wat", source("countdown"), &["--max-steps", "5", "--heads", "brute"]),
        ("fnv1a.wasm", wat::parse_bytes(&source("fnv1a")).unwrap().into_owned(), &[]),
    ];
    let mut outputs = Vec::new();
    for (file, source, args) in cases {
        let path = dir.join(file);
        std::fs::write(&path, source).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_loom"))
            .args(["trace", "run", path.to_str().unwrap(), "--json"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["status", "steps", "result", "trap", "lookups"]);
        outputs.push(v.to_string());
    }
    expect_test::expect![[r#"
        [
            "{\"status\":\"halted\",\"steps\":298,\"result\":[21,1],\"trap\":null,\"lookups\":482}",
            "{\"status\":\"trap\",\"steps\":2,\"result\":[1,0],\"trap\":{\"message\":\"integer divide by zero\"},\"lookups\":2}",
            "{\"status\":\"budget\",\"steps\":5,\"result\":[9],\"trap\":null,\"lookups\":5}",
            "{\"status\":\"halted\",\"steps\":910,\"result\":[152284517],\"trap\":null,\"lookups\":1006}",
        ]
    "#]]
    .assert_debug_eq(&outputs);
    let bad = dir.join("bad.wat");
    std::fs::write(&bad, "(module (func (export \"main\") (result i64) (i64.const 1)))").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_loom"))
        .args(["trace", "run", bad.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.wat:1:10"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What a UI would plot for a read: the winner is the head's answer, hull
/// vertices are the latest write of each address, a hit beats every other
/// address by at least `T` less the sequence numbers' difference, and the
/// write it shadowed differs only in `seq`.
#[test]
fn explained_lookups_match_the_heads() {
    let code = load_wat(Program::by_name("fnv1a").unwrap().source).unwrap();
    let mut m = Machine::with_heads(code, HeadMode::Hull);
    let mut explained = 0;
    while m.step() == &Status::Running {
        for l in m.last_lookups().to_vec() {
            let c = m.candidates(&l, 8);
            assert_eq!(c.winner.map(|w| (w.seq, w.score)), l.winner.map(|w| (w.seq, w.score)));
            assert_eq!(c.hit, l.hit);
            assert!(c.shown.len() <= 10 && c.vertices <= c.keys);
            if l.hit {
                if let Some(margin) = c.margin {
                    assert!(margin >= T - l.seq_end as i128, "{c:?}");
                }
                if let Some(s) = c.shadowed {
                    assert!(s.stale && s.addr == l.addr && s.seq < l.winner.unwrap().seq);
                }
            }
            explained += 1;
        }
    }
    assert!(explained > 1000);
    let vertices = m.store().hull_vertices(loom_core::trace::exec::Space::Memory).unwrap();
    assert_eq!(vertices.len(), 32);
    assert_eq!(m.memory(0, 32), vertices.iter().map(|v| v.2 as u8).collect::<Vec<_>>());
    assert_eq!(m.memory(0, 32), (0..32).collect::<Vec<u8>>());
}
