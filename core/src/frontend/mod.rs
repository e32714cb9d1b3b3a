//! The façade: the one door every front end (the `loom` command line, the
//! JavaScript API in `wasm.rs`, the playground and its worker) goes through.
//!
//! It owns the two registries front ends choose from by name — languages
//! ([`Lang`]) and engines ([`EngineKind`]) — and the [`Machine`], which runs a
//! program on any engine and answers what a debugger asks: steps (traced,
//! layer by layer, on a transformer), snapshots to step back, the tensor with
//! its named rows, the decoded registers. Front ends never reach into
//! [`crate::machine`]'s engines themselves; the data the views draw (the
//! tensor, its layout, a step's trace) is re-exported here.

pub mod explain;
mod lang;
mod machine;

pub use crate::compiler::Compiled;
pub use crate::config::{Column, Config, PRESETS};
pub use crate::diag::Diagnostic;
pub use crate::machine::layout::{Field, Group, Layout, Region, Width, FIELDS};
pub use crate::machine::tensor::Tensor;
pub use crate::machine::trace::{HeadRole, HeadTrace, LayerTrace, Match, StepTrace};
pub use explain::{explain, Explanation};
pub use lang::{build, Lang};
pub use machine::{decode, registers, EngineKind, Machine, Register, Snapshot, DENSE_MAX_N};
