//! Differential testing against gcc with a fixed budget (see `difftest/`):
//! hundreds of random programs on the interpreter, tens on the sparse
//! transformer in lockstep. Longer runs: `cargo run --release -p loom-core
//! --example difftest -- --count N --seed S`.

#[path = "difftest/mod.rs"]
mod difftest;

use difftest::campaign::{self, Budget};

fn check(budget: Budget) {
    if !difftest::gcc::available() {
        eprintln!("\n*** SKIPPED: `gcc` is not installed, so the differential test against gcc cannot run ***\n");
        return;
    }
    let report = campaign::run(&budget);
    println!("{}", report.summary(&budget));
    let shown: Vec<String> = report
        .divergences
        .iter()
        .take(3)
        .map(|d| format!("program seed {:#x} ({}): {}\n{}", d.seed, d.engine, d.what, d.text))
        .collect();
    assert!(
        report.divergences.is_empty(),
        "{} divergences; the first:\n{}",
        report.divergences.len(),
        shown.join("\n")
    );
    assert!(report.compared * 10 >= budget.count * 9, "too few programs compared: {}", report.summary(&budget));
}

#[test]
fn interpreter_agrees_with_gcc() {
    check(Budget::new(0x5EED_0001, 300, false));
}

#[test]
fn sparse_transformer_agrees_with_gcc_in_lockstep() {
    check(Budget::new(0x5EED_0002, 30, true));
}
