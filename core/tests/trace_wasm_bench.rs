//! The trace machine's browser figure: `loom trace bench`'s cases (the
//! million-step runs in hull mode, brute force beside the hull on a short
//! run) as wasm in Chromium, printing steps/s to the console. Run with
//! `cargo test -p loom-core --release --target wasm32-unknown-unknown --test trace_wasm_bench -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use loom_core::trace::bench;
use loom_core::trace::HeadMode;
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn trace_machine_steps_per_second_in_the_browser() {
    let mut clock = || js_sys::Date::now() / 1000.0;
    // V8 optimises hot functions in the background: a warm-up run first.
    let warm = [bench::Case { program: "countdown", n: 50_000, heads: HeadMode::Hull }];
    bench::run_with(&warm, &mut clock).unwrap();
    let rows = bench::run_with(&bench::cases(false), &mut clock).unwrap();
    for line in bench::table(&rows).lines() {
        console_log!("wasm {line}");
    }
    assert!(rows.iter().all(|r| r.status == "halted" && r.steps > 0));
}
