//! The run report: the stable JSON object `loom run --json` prints (and the
//! wasm API returns). Its shape is a contract documented in the manual (`docs/src/cli.md`):
//!
//! `{"status": "halted"|"fault"|"budget", "steps": int, "pc": int,
//!   "vars": {name: int | [int, …]}, "fault": null | {"message": str, "line": int|null},
//!   "output": str}`
//!
//! [`Vars`] is also what the playground's session protocol sends, so every
//! front end names variables the same way.

use crate::engine::Engine;
use crate::host::Output;
use crate::image::{Program, Symbol};
use crate::state::Status;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A variable's value: one word, or an array's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Scalar(i32),
    Array(Vec<i32>),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Scalar(v) => write!(f, "{v}"),
            Value::Array(xs) => {
                let items: Vec<String> = xs.iter().map(i32::to_string).collect();
                write!(f, "[{}]", items.join(", "))
            }
        }
    }
}

/// Named variables in declaration order; serialised as a JSON object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vars(pub Vec<(String, Value)>);

impl Vars {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = &(String, Value)> {
        self.0.iter()
    }
}

impl Serialize for Vars {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Vars {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Vars, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Vars;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of variables")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vars, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Vars(out))
            }
        }
        d.deserialize_map(Entries)
    }
}

/// Why a run stopped early, with the source line when known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub message: String,
    pub line: Option<u32>,
}

/// The report of a finished (or stopped) run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// `"halted"`, `"fault"` or `"budget"`.
    pub status: String,
    pub steps: u64,
    pub pc: usize,
    pub vars: Vars,
    pub fault: Option<Fault>,
    /// What the program printed (`""` when nothing): always present.
    pub output: String,
}

/// Builds the report from a finished (or stopped) run: the engine's state and what the
/// program printed.
pub fn run_report(prog: &Program, status: &Status, engine: &dyn Engine, output: &Output) -> Report {
    let status_name = match status {
        Status::Running => "budget",
        s => s.name(),
    };
    let state = engine.state();
    Report {
        status: status_name.to_owned(),
        steps: engine.steps(),
        pc: state.pc,
        vars: vars(prog, &state.mem),
        fault: fault(prog, status),
        output: output.text(),
    }
}

/// The fault of a status, located.
pub fn fault(prog: &Program, status: &Status) -> Option<Fault> {
    match status {
        Status::Fault { pc, message } => Some(Fault { message: message.clone(), line: prog.line_at_pc(*pc) }),
        _ => None,
    }
}

/// Every visible named variable with its signed value, keyed as [`keyed`] says.
pub fn vars(prog: &Program, mem: &[i32]) -> Vars {
    Vars(
        keyed(prog)
            .map(|(key, s)| {
                let words = &mem[s.slot..s.slot + s.len];
                (key, if s.is_array { Value::Array(words.to_vec()) } else { Value::Scalar(words[0]) })
            })
            .collect(),
    )
}

/// The variable a fault left unwritten: the key (as in [`vars`]) of the variable the
/// faulting statement assigns. It keeps its old value, since C performs no assignment
/// whose right side faults, so the debugger says so beside it.
pub fn unwritten(prog: &Program, status: &Status) -> Option<String> {
    let Status::Fault { pc, .. } = status else { return None };
    let slot = prog.trap_at(pc.checked_sub(prog.config.instr_col(0))?)?.writes?;
    keyed(prog).find(|(_, s)| (s.slot..s.slot + s.len).contains(&slot)).map(|(key, _)| key)
}

/// The visible named variables with their keys. A global is keyed by its bare name,
/// always (its key must not depend on the locals elsewhere); a local whose name is also
/// declared in another scope is keyed `scope.name`, so no variable is lost (the
/// manual's `docs/src/cli.md`).
pub fn keyed(prog: &Program) -> impl Iterator<Item = (String, &Symbol)> {
    let visible: Vec<_> = prog.symbols.iter().filter(|s| !s.hidden).collect();
    visible.clone().into_iter().map(move |s| {
        let shared = s.scope != "global" && visible.iter().filter(|o| o.name == s.name).count() > 1;
        (if shared { format!("{}.{}", s.scope, s.name) } else { s.name.clone() }, s)
    })
}

/// A count with its digits in groups of three (`1234567` → `1,234,567`), as the page and
/// the manual's tables print steps and sizes.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
