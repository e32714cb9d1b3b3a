//! Differential tests of the trace machine: every starter program and seeded
//! random programs over every supported instruction run on our machine (both
//! heads, compared on every lookup), our reference (plain memory, compared
//! step by step on full records and `[op, arg, sp, top]` rows) and wasmi
//! (results, traps, memory, globals).
//!
//! `LOOM_TRACE_PROGRAMS=N` runs N random programs (CI: 300; the manual's
//! figure, `docs/src/trace-machine.md`, is from a longer run), `LOOM_TRACE_SEED=S` starts at another seed.
#![cfg(not(target_arch = "wasm32"))]

mod trace_common;

use loom_core::trace::alu::{BinOp, UnOp};
use loom_core::trace::programs::PROGRAMS;
use loom_core::trace::HeadMode;
use std::collections::{BTreeMap, BTreeSet};
use trace_common::{gen, oracle};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn starter_programs_agree_with_wasmi_and_the_reference() {
    with_big_stack(starters);
}

fn starters() {
    for p in PROGRAMS {
        // Both heads on every lookup at the default sizes (brute force is O(t)).
        oracle::agree(p.name, p.source, HeadMode::Both, 1_000_000);
        // The hull alone at a larger size.
        let bigger = p.with_n(match p.name {
            "primes" => 20_000,
            "bubble_sort" => 100,
            "fnv1a" => 3000,
            "collatz" => 97,
            _ => 20_000,
        });
        oracle::agree(p.name, bigger.as_deref().unwrap_or(p.source), HeadMode::Hull, 10_000_000);
    }
}

/// wasmi's interpreter wants more native stack than a test thread's 2 MiB on
/// these programs; the runs happen on a thread with room.
fn with_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(256 << 20).spawn(f).unwrap().join().unwrap();
}

#[test]
fn random_programs_agree_with_wasmi_and_the_reference() {
    let (n, seed) = (env("LOOM_TRACE_PROGRAMS", 300), env("LOOM_TRACE_SEED", 0));
    with_big_stack(move || {
        let (mut steps, mut max) = (0, 0);
        let mut ops = BTreeSet::new();
        let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
        for s in seed..seed + n {
            let a = oracle::agree(&format!("seed {s}"), &gen::program(s), HeadMode::Both, 2_000_000);
            (steps, max) = (steps + a.steps, max.max(a.steps));
            ops.extend(a.ops);
            let kind = match a.outcome {
                oracle::Outcome::Returned(_) => "returned".to_string(),
                oracle::Outcome::Trapped(t) => format!("trap: {t}"),
            };
            *outcomes.entry(kind).or_default() += 1;
        }
        eprintln!("{n} random programs agreed (seeds {seed}..{}): {steps} steps, at most {max} in one", seed + n);
        eprintln!("outcomes: {outcomes:?}");
        // The generator must keep reaching every supported instruction.
        let missing: Vec<_> = supported().into_iter().filter(|op| !ops.contains(op)).collect();
        assert!(missing.is_empty(), "never executed: {missing:?}");
    });
}

/// Every mnemonic a trace row can show.
fn supported() -> Vec<&'static str> {
    let mut ops: Vec<&str> = BinOp::ALL.iter().map(|o| o.name()).chain(UnOp::ALL.iter().map(|o| o.name())).collect();
    ops.extend([
        "i32.const",
        "drop",
        "select",
        "local.get",
        "local.set",
        "local.tee",
        "global.get",
        "global.set",
        "i32.load",
        "i32.load8_s",
        "i32.load8_u",
        "i32.load16_s",
        "i32.load16_u",
        "i32.store",
        "i32.store8",
        "i32.store16",
        "memory.size",
        "if",
        "else",
        "br",
        "br_if",
        "br_table",
        "call",
        "return",
        "unreachable",
        "nop",
    ]);
    ops
}
