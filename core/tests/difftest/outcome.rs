//! What a run ends with, in a form both sides produce: every global, how it
//! stopped, and what it printed.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Halted,
    /// A located run-time fault (`division by zero`, `assertion failed`, …).
    Fault {
        message: String,
        line: Option<u32>,
    },
    /// Anything else: a step budget, a crash, a timeout.
    Other(String),
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            End::Halted => f.write_str("halted"),
            End::Fault { message, line: Some(l) } => write!(f, "fault `{message}` on line {l}"),
            End::Fault { message, line: None } => write!(f, "fault `{message}` on no line"),
            End::Other(s) => f.write_str(s),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Every global by name, in declaration order; scalars have one value.
    pub globals: Vec<(String, Vec<i64>)>,
    pub end: End,
    pub output: String,
}

impl Outcome {
    /// Without the globals that hold functions: a pointer to one is an address in gcc's
    /// build and a function's number on our machine, and only calls through it compare.
    pub fn without_functions(mut self, p: &super::program::Program) -> Outcome {
        self.globals.retain(|(n, _)| !p.fn_pointers.iter().any(|f| &f.name == n));
        self
    }

    /// How `self` (ours) differs from `other` (gcc's), or `None`.
    pub fn diff(&self, other: &Outcome) -> Option<String> {
        let mut out = Vec::new();
        if self.end != other.end {
            out.push(format!("ours {}, gcc {}", self.end, other.end));
        }
        for (name, want) in &other.globals {
            match self.globals.iter().find(|(n, _)| n == name) {
                Some((_, got)) if got == want => {}
                Some((_, got)) => out.push(format!("{name}: ours {got:?}, gcc {want:?}")),
                None => out.push(format!("{name}: missing on our side")),
            }
        }
        if self.globals.len() != other.globals.len() {
            out.push(format!("{} globals on our side, {} on gcc's", self.globals.len(), other.globals.len()));
        }
        if self.output != other.output {
            out.push(format!("output: ours {:?}, gcc {:?}", self.output, other.output));
        }
        (!out.is_empty()).then(|| out.join("; "))
    }
}
