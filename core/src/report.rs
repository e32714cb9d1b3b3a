//! The run report: the stable JSON object `loom run --json` prints (and the
//! wasm API returns). Its shape is a contract documented in the README:
//!
//! `{"status": "halted"|"fault"|"budget", "steps": int, "pc": int,
//!   "vars": {name: int | [int, …]}, "fault": null | {"message": str, "line": int|null}}`

use crate::image::Program;
use crate::state::Status;
use serde_json::{json, Map, Value};

/// Builds the report from a finished (or stopped) run.
pub fn run_report(prog: &Program, status: &Status, steps: u64, pc: usize, mem: &[i32]) -> Value {
    let fault = match status {
        Status::Fault { pc, message } => {
            json!({ "message": message, "line": prog.line_at_pc(*pc) })
        }
        _ => Value::Null,
    };
    let status = match status {
        Status::Running => "budget",
        s => s.name(),
    };
    json!({ "status": status, "steps": steps, "pc": pc, "vars": vars(prog, mem), "fault": fault })
}

/// Every visible named variable with its signed value. A name declared in
/// several scopes is keyed `scope.name` so no variable is lost.
pub fn vars(prog: &Program, mem: &[i32]) -> Map<String, Value> {
    let visible: Vec<_> = prog.symbols.iter().filter(|s| !s.hidden).collect();
    let mut out = Map::new();
    for s in &visible {
        let shared = visible.iter().filter(|o| o.name == s.name).count() > 1;
        let key = if shared { format!("{}.{}", s.scope, s.name) } else { s.name.clone() };
        let words = &mem[s.slot..s.slot + s.len];
        let v = if s.is_array { json!(words) } else { json!(words[0]) };
        out.insert(key, v);
    }
    out
}
