//! The browser figure: `loom bench`'s transformer cases run as wasm in
//! Chromium, printing steps/s to the console. Run with
//! `cargo test -p loom-core --release --target wasm32-unknown-unknown --test wasm_bench -- --nocapture`
//! (`.cargo/config.toml` names the runner and Chromium's driver). Built with
//! `LOOM_BENCH_FULL=1` (and `WASM_BINDGEN_TEST_TIMEOUT=300`), it also solves
//! the classic Sudoku on the transformer and reports the wall time.
#![cfg(target_arch = "wasm32")]

use loom_core::bench;
use loom_core::frontend::EngineKind;
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn sparse_engine_steps_per_second_in_the_browser() {
    let full = option_env!("LOOM_BENCH_FULL").is_some();
    let mut cases = bench::cases(full).unwrap();
    // The runner's time limit is 20 s unless raised: the sparse engine only,
    // on shorter runs (but the full solve whole).
    for c in &mut cases {
        c.engines.retain(|&e| e == "sparse");
        if c.steps.is_some() || !full {
            c.steps = Some(c.steps.unwrap_or(u64::MAX).min(200_000));
        }
    }
    let mut clock = || js_sys::Date::now() / 1000.0;
    // V8 first runs wasm from its baseline compiler and optimises hot
    // functions in the background: a warm-up run keeps that second or two
    // (on two busy cores) out of the figures.
    let mut warm = bench::cases(false).unwrap();
    warm.retain(|c| c.name.starts_with("sudoku"));
    for c in &mut warm {
        (c.engines, c.steps) = (vec!["sparse"], Some(100_000));
    }
    bench::run_with(&warm, EngineKind::start_by_name, &mut clock).unwrap();
    let rows = bench::run_with(&cases, EngineKind::start_by_name, &mut clock).unwrap();
    for r in &rows {
        console_log!(
            "wasm {:<26} {:<7} {:<8} {:>8} steps {:>8.3} s {:>10.0} steps/s",
            r.program,
            r.engine,
            r.config,
            r.steps,
            r.seconds,
            r.steps_per_sec
        );
    }
    assert!(rows.iter().all(|r| r.steps > 0));
}
