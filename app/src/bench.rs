//! The engine alone, timed in the page: `window.wasmBindings.benchDemo(…)`
//! runs a demo's example on an engine with nothing else around it (no
//! session, checkpoints, shadow interpreter or views) on the page's thread,
//! and returns `loom bench --json`'s row. `tests/e2e/page_bench.mjs` sets it
//! beside the same run in the playground, in the same page.

use loom_core::frontend::bench;
use loom_core::frontend::EngineKind;
use wasm_bindgen::prelude::*;

/// Runs the example of `demo` whose name starts with `example` on `engine`
/// (to completion, or `max_steps` when not 0) and returns the measurement as
/// JSON: `{program, engine, config, steps, seconds, steps_per_sec}`.
#[wasm_bindgen(js_name = benchDemo)]
pub fn bench_demo(demo: &str, example: &str, engine: &str, max_steps: u32) -> Result<String, JsError> {
    let kind = EngineKind::by_name(engine).map_err(|e| JsError::new(&e))?;
    let steps = (max_steps > 0).then_some(u64::from(max_steps));
    let case = bench::demo_case(demo, example, &format!("{demo} {example}"), steps, vec![kind.name()])
        .map_err(|e| JsError::new(&e))?;
    let mut clock = || js_sys::Date::now() / 1000.0;
    let rows = bench::run_with(&[case], EngineKind::start_by_name, &mut clock).map_err(|e| JsError::new(&e))?;
    serde_json::to_string(&rows[0]).map_err(|e| JsError::new(&e.to_string()))
}
