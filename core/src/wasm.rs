//! The JavaScript API (feature `wasm`): build a program from source and run it
//! in the browser, without the playground page.
//!
//! Every function takes plain strings and returns JSON text, so the contract is
//! the same one the CLI prints (`loom run --json`, see [`crate::report`]) and a
//! caller needs nothing but `JSON.parse`. Front ends are chosen by name
//! (`lang = "c" | "asm"`), engines too (`engine = "sparse" | "dense" |
//! "interp"`, see [`crate::frontend`]).
//!
//! ```js
//! import init, { runProgram } from "./loom_core.js";
//! await init();
//! const report = JSON.parse(runProgram("c", "int x = 2; int main() { x++; return 0; }", "small", "sparse", 1000));
//! ```

use crate::config::{Config, PRESETS};
use crate::diag::{render_all, Diagnostic};
use crate::engine::Engine;
use crate::frontend::{build, EngineKind, Lang, Machine};
use crate::image::Program;
use crate::report::run_report;
use wasm_bindgen::prelude::*;

/// The file name diagnostics are rendered against.
const FILE: &str = "program";

/// Why a request failed before anything ran.
enum Failure {
    /// The source did not build.
    Source(Vec<Diagnostic>),
    /// A bad argument (unknown language, configuration or engine) or an unloadable image.
    Request(String),
}

/// The preset configurations, in the order a picker lists them (JSON array of
/// `{name, n, word_bits, mem_slots}`).
#[wasm_bindgen]
pub fn configs() -> String {
    serde_json::to_string(&PRESETS).expect("configs serialise")
}

/// Builds `source` and returns its diagnostics as a JSON array (empty when it
/// builds): `[{severity, message, span: {line, col, end_col}, notes, hint}]`.
#[wasm_bindgen]
pub fn check(lang: &str, source: &str, config: &str) -> Result<String, JsError> {
    let config = preset(config).map_err(|e| JsError::new(&e))?;
    let diags = match program(lang, source, config) {
        Ok(_) => Vec::new(),
        Err(Failure::Source(d)) => d,
        Err(Failure::Request(e)) => return Err(JsError::new(&e)),
    };
    Ok(serde_json::to_string(&diags).expect("diagnostics serialise"))
}

/// Builds `source`, runs it on `engine` for at most `max_steps` steps and
/// returns the run report (JSON object, the `loom run --json` contract). Throws
/// an `Error` whose message is the rendered diagnostics (with `line:col` and a
/// caret) when the source does not build, or names the bad argument.
#[wasm_bindgen(js_name = runProgram)]
pub fn run_program(lang: &str, source: &str, config: &str, engine: &str, max_steps: u32) -> Result<String, JsError> {
    let fail = |f: Failure| match f {
        Failure::Source(d) => JsError::new(&render_all(&d, FILE, source)),
        Failure::Request(e) => JsError::new(&e),
    };
    let config = preset(config).map_err(|e| JsError::new(&e))?;
    let prog = program(lang, source, config).map_err(fail)?;
    let kind = EngineKind::by_name(engine).map_err(|e| JsError::new(&e))?;
    let mut machine = Machine::new(kind, &prog).map_err(|e| JsError::new(&e.to_string()))?;
    let status = machine.run(u64::from(max_steps), None);
    Ok(serde_json::to_string(&run_report(&prog, &status, &machine, machine.output())).expect("reports serialise"))
}

fn preset(name: &str) -> Result<Config, String> {
    Config::preset(name).map_err(|e| e.to_string())
}

/// Builds through the façade; only errors fail the request (warnings do not).
fn program(lang: &str, source: &str, config: Config) -> Result<Program, Failure> {
    let lang = Lang::by_name(lang).map_err(Failure::Request)?;
    let c = build(lang, source, config);
    c.program.ok_or_else(|| Failure::Source(c.diagnostics.into_iter().filter(Diagnostic::is_error).collect()))
}
