//! The façade: the one door every front end (the `loom` command line, the
//! JavaScript API in `wasm.rs`, the playground and its worker) goes through.
//!
//! It owns the two registries front ends choose from by name — languages
//! ([`Lang`]) and engines ([`EngineKind`]) — and the [`Machine`], which runs a
//! program on any engine and answers what a debugger asks: steps (traced,
//! layer by layer, on a transformer), snapshots to step back, the tensor with
//! its named rows, the decoded registers. The [`Debugger`] beside it is the
//! debugger every front end shares: checkpoints, breakpoints, the stepping
//! modes and the call stack in C's words. Front ends never reach into
//! [`crate::machine`]'s engines themselves; the data the views draw (the
//! tensor, its layout, a step's trace) is re-exported here, and so are the
//! files a front end hands out (the model as safetensors or ONNX, a state as
//! `.npy`, their names) and [`run_states`], the run `loom state` writes.
//!
//! It is the *only* door: what else a front end draws or drives is re-exported here too —
//! the program image and its run-time types (`Program`, `Engine`, `Interp`, `MachineState`,
//! `Status`), diagnostics and their rendering, the run report (`report`), the demos and
//! the host's reads and writes of their variables (`demos`, `host`), the run loop's
//! `Pacer`, the benchmark (`bench`) and the second machine of the trace page (`trace`).

pub mod debugger;
pub mod explain;
mod lang;
mod machine;
mod run;

pub use crate::asm::format_instr;
pub use crate::compiler::{compile, Compiled};
pub use crate::config::{Column, Config, PRESETS};
pub use crate::diag::{render_all, Diagnostic, Span};
pub use crate::engine::Engine;
pub use crate::export::{how_to_run, model_file, model_file_name, npy, state_file_name, Format};
pub use crate::image::Program;
pub use crate::image::CONSOLE;
pub use crate::interp::Interp;
pub use crate::isa::Opcode;
pub use crate::machine::layout::{Field, Group, Layout, Region, Width, FIELDS};
pub use crate::machine::tensor::Tensor;
pub use crate::machine::trace::{HeadRole, HeadTrace, LayerTrace, Match, StepTrace};
pub use crate::pace::Pacer;
pub use crate::state::{MachineState, Status};
pub use crate::{bench, demos, host, report, trace};
pub use debugger::{
    owner_of, Binding, Breakpoint, Debugger, FrameView, MemCell, MemObject, MemRegion, MemoryView, Owner, Returned,
    Stop,
};
pub use explain::{explain, Explanation};
pub use lang::{build, build_auto, AutoBuild, Lang, AUTO_WORD_BITS};
pub use machine::{decode, registers, EngineKind, Machine, Register, Snapshot, DENSE_MAX_N};
pub use run::{run_states, Run};
