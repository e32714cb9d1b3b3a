//! The embedding transports' envelope, version 1: what an iframe's parent
//! (`postMessage`) and a custom element's script exchange with a widget.
//! The payloads are the session protocol's own [`Command`] and [`Event`];
//! this module adds only the envelope around them (`"loom": 1`, the request
//! `id` and its `reply`), the `ready` event, the state summary a reply
//! carries, and the throttle of `step` events while running. DOM-free, so the
//! shapes are tested natively; the transports serialize these types with
//! `serde-wasm-bindgen`.
//!
//! [`Command`]: crate::session::Command

use crate::session::protocol::Status;
use crate::session::{Build, Command, Event, View};
use loom_core::frontend::report::Vars;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The envelope's version (`"loom": 1`).
pub const VERSION: u32 = 1;

/// At most one `step` (or `frame`) event per this many milliseconds while running.
pub const STEP_EVENT_MS: f64 = 100.0;

/// What an incoming message must look like to be a command: read before the
/// command itself, so a bad command can still be answered by its id.
#[derive(Debug, Default, Deserialize)]
pub struct Envelope {
    #[serde(default)]
    pub loom: Option<Value>,
    #[serde(default)]
    pub id: Option<Value>,
    #[serde(default)]
    pub cmd: Option<Value>,
}

impl Envelope {
    /// Whether the message is a version-1 command (anything else is not for us).
    pub fn is_command(&self) -> bool {
        self.loom.as_ref().and_then(Value::as_u64) == Some(u64::from(VERSION)) && self.cmd.is_some()
    }
}

/// The machine in brief: what `state()` answers and every reply carries.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub status: Status,
    pub steps: u64,
    pub pc: usize,
    pub vars: Vars,
}

impl Summary {
    pub fn of(v: &View) -> Summary {
        Summary { status: v.status, steps: v.steps, pc: v.pc, vars: v.vars.clone() }
    }
}

/// The answer to a command: `{"loom": 1, "reply": id, "ok": …}` with the
/// state after it (when it was carried out) or the reason it was not.
#[derive(Debug, Serialize)]
pub struct Reply {
    pub loom: u32,
    pub reply: Value,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub state: Option<Summary>,
}

impl Reply {
    pub fn new(id: Value, result: Result<Summary, String>) -> Reply {
        match result {
            Ok(s) => Reply { loom: VERSION, reply: id, ok: true, error: None, state: Some(s) },
            Err(e) => Reply { loom: VERSION, reply: id, ok: false, error: Some(e), state: None },
        }
    }
}

/// Why a carried-out command is answered `ok: false` all the same: a `load` whose
/// program does not build, with its first error (`line 1, column 26: expected `;``).
pub fn refused(cmd: &Command, build: &Build) -> Option<String> {
    if !matches!(cmd, Command::Load { .. }) || build.ok {
        return None;
    }
    let first = build.diagnostics.iter().find(|d| d.is_error());
    Some(first.map_or_else(
        || "the program does not build".to_owned(),
        |d| format!("line {}, column {}: {}", d.span.line, d.span.col, d.message),
    ))
}

/// An event as it leaves a widget: the session's [`Event`] in the envelope.
#[derive(Debug, Serialize)]
pub struct Outgoing<'a> {
    pub loom: u32,
    #[serde(flatten)]
    pub event: &'a Event,
}

impl<'a> Outgoing<'a> {
    pub fn new(event: &'a Event) -> Outgoing<'a> {
        Outgoing { loom: VERSION, event }
    }
}

/// `{"loom": 1, "event": "ready", …}`: the widget listens now. It says which
/// views it shows and the machine as it stands.
#[derive(Debug, Serialize)]
pub struct Ready {
    pub loom: u32,
    pub event: &'static str,
    pub panels: Vec<&'static str>,
    #[serde(flatten)]
    pub state: Summary,
}

impl Ready {
    pub fn new(panels: Vec<&'static str>, state: Summary) -> Ready {
        Ready { loom: VERSION, event: "ready", panels, state }
    }
}

/// Lets every event through except `step` and `frame` events of a running
/// machine, which pass at most every [`STEP_EVENT_MS`].
#[derive(Debug, Default)]
pub struct Throttle {
    last: Option<f64>,
}

impl Throttle {
    /// Whether to send `e` now (the clock in milliseconds).
    pub fn pass(&mut self, e: &Event, now: f64) -> bool {
        let running = matches!(e, Event::Step(v) | Event::Frame(v) if v.running);
        if !running {
            return true;
        }
        if self.last.is_some_and(|t| now - t < STEP_EVENT_MS) {
            return false;
        }
        self.last = Some(now);
        true
    }
}
