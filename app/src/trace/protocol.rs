//! The trace page's protocol: typed [`TraceCommand`]s in, [`TraceEvent`]s out.
//!
//! A vocabulary of its own, beside the Loom session's (`session/protocol.rs`):
//! the second machine has no configuration, engine, layers, C lines or
//! breakpoints, and the Loom machine has no heads, lookups or write records;
//! one enum for both would make every command mean nothing on one of them.
//! The shapes follow the session protocol's (serde, `snake_case` tags), so a
//! transport (a worker, `postMessage`) carries them the same way.

use crate::trace::view::{TraceBuild, TraceView};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum TraceCommand {
    /// WAT text (the editor's): loaded at once, the machine before its first
    /// step; a load error is a located diagnostic and leaves no machine.
    Load {
        source: String,
    },
    /// A starter program (`loom_core::frontend::trace::programs`) by name.
    Example {
        name: String,
    },
    /// Which heads answer the lookups: `brute`, `hull` or `both`; the
    /// machine is rebuilt and brought back to the step it was at.
    Heads {
        mode: String,
    },
    Run,
    Pause,
    /// One instruction.
    Step,
    /// One instruction back.
    Back,
    /// To the machine after `step` instructions (the scrubber).
    Seek {
        step: u64,
    },
    /// Back to before the first instruction.
    Reset,
    /// Which of the current step's reads the plot explains (its index among them).
    Lookup {
        index: usize,
    },
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TraceEvent {
    /// A program was loaded (or failed to): the source, its diagnostics, the heads.
    Loaded(Box<TraceBuild>),
    /// The machine moved (a step, a seek, a run's slice, a pause, the end).
    Moved(Box<TraceView>),
}
