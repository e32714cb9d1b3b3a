//! The wasm API, exercised in headless Chromium through wasm-bindgen
//! (`cargo test -p loom-core --features wasm --target wasm32-unknown-unknown --test wasm_api`).
#![cfg(all(feature = "wasm", target_arch = "wasm32"))]

use loom_core::wasm::{check, configs, run_program};
use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const COUNTDOWN: &str = include_str!("../../tests/asm/countdown.s");

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("valid JSON")
}

/// The message of a thrown `Error`.
fn message(err: wasm_bindgen::JsError) -> String {
    js_sys::Error::from(JsValue::from(err)).message().into()
}

#[wasm_bindgen_test]
fn runs_a_program_to_the_report() {
    let rep = json(&run_program("asm", COUNTDOWN, "default", "interp", 10_000).unwrap());
    assert_eq!(rep["status"], "halted");
    assert_eq!(rep["pc"], 0);
    assert_eq!(rep["vars"]["sum"], 55);
    assert_eq!(rep["vars"]["xs"], serde_json::json!([3, -1, 2, 55]));
    assert_eq!(rep["fault"], Value::Null);
    // 10 iterations of 3 instructions, then MOV and HALT.
    assert_eq!(rep["steps"], 32);
}

#[wasm_bindgen_test]
fn a_small_budget_stops_the_run() {
    let rep = json(&run_program("asm", COUNTDOWN, "default", "interp", 5).unwrap());
    assert_eq!(rep["status"], "budget");
    assert_eq!(rep["steps"], 5);
}

#[wasm_bindgen_test]
fn assembly_errors_throw_with_location_and_caret() {
    let err = message(run_program("asm", ".data x = 1\nINC x\nFROB x\n", "default", "interp", 10).unwrap_err());
    assert!(err.contains("program:3:1"), "{err}");
    assert!(err.contains("^^^^"), "{err}");
}

#[wasm_bindgen_test]
fn check_lists_diagnostics_as_json() {
    assert_eq!(json(&check("asm", COUNTDOWN, "default").unwrap()), serde_json::json!([]));
    let diags = json(&check("asm", "JMP nowhere", "default").unwrap());
    assert_eq!(diags[0]["severity"], "error");
    assert_eq!(diags[0]["span"]["line"], 1);
}

#[wasm_bindgen_test]
fn bad_arguments_name_the_alternatives() {
    let err = message(run_program("asm", COUNTDOWN, "default", "warp", 10).unwrap_err());
    // The list is the registry's, in its order, so a new engine is named without editing this test.
    let names: Vec<_> = loom_core::frontend::EngineKind::ALL.iter().map(|k| k.name()).collect();
    assert!(err.contains(&format!("engines: {}", names.join(", "))), "{err}");
    let err = message(run_program("cobol", COUNTDOWN, "default", "interp", 10).unwrap_err());
    assert!(err.contains("languages: c, asm"), "{err}");
    let err = message(check("asm", COUNTDOWN, "huge").unwrap_err());
    assert!(err.contains("tiny"), "{err}");
}

#[wasm_bindgen_test]
fn configs_lists_every_preset() {
    let list = json(&configs());
    let names: Vec<_> = list.as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), loom_core::config::PRESETS.len());
    assert!(names.contains(&"default"));
}

#[wasm_bindgen_test]
fn c_runs_on_the_sparse_transformer_like_on_the_interpreter() {
    let src = "int n = 10; int sum = 0;\nint main() { while (n > 0) { sum += n; n--; } return 0; }\n";
    let on = |engine| json(&run_program("c", src, "small", engine, 100_000).unwrap());
    let (sparse, interp) = (on("sparse"), on("interp"));
    assert_eq!(sparse["status"], "halted");
    assert_eq!(sparse["vars"]["sum"], 55);
    assert_eq!(sparse, interp);
}

#[wasm_bindgen_test]
fn c_errors_throw_with_the_line() {
    let err = message(run_program("c", "int main() {\n  return x;\n}\n", "small", "sparse", 10).unwrap_err());
    assert!(err.contains("program:2:"), "{err}");
    let diags = json(&check("c", "int main() { return 0 }", "small").unwrap());
    assert_eq!(diags[0]["severity"], "error");
}
