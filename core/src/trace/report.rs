//! The `loom trace run --json` object, a contract:
//!
//! `{"status": "halted"|"trap"|"budget", "steps": int, "result": [int, …],
//!   "trap": null | {"message": str}, "lookups": int}`
//!
//! `result` is the stack, bottom first, as signed i32 (what `main` returned
//! when it halted); `lookups` counts head reads over the whole run.

use crate::trace::machine::Machine;
use crate::trace::runner::Status;
use serde_json::{json, Value};

pub fn run_json(m: &Machine) -> Value {
    let (status, trap) = match m.status() {
        Status::Running => ("budget", Value::Null),
        Status::Halted => ("halted", Value::Null),
        Status::Trapped(t) => ("trap", json!({ "message": t.message() })),
    };
    json!({
        "status": status,
        "steps": m.steps(),
        "result": m.stack(),
        "trap": trap,
        "lookups": m.store().total_lookups(),
    })
}
