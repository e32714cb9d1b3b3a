//! Loom: C programs executed by a transformer whose weights are derived by hand.
//!
//! The crate is layered: [`isa`] and [`config`] define the machine, [`image`]
//! is the loaded program every engine shares, [`interp`] is the reference
//! semantics, [`asm`] the text format. See `ARCHITECTURE.md` at the root.

pub mod asm;
pub mod bench;
pub mod compiler;
pub mod config;
pub mod ctypes;
pub mod debuginfo;
pub mod demos;
pub mod diag;
pub mod engine;
pub mod export;
pub mod frontend;
pub mod host;
pub mod image;
pub mod interp;
pub mod isa;
pub mod machine;
pub mod pace;
pub mod report;
pub mod state;
pub mod trace;
#[cfg(feature = "wasm")]
pub mod wasm;

pub use config::Config;
pub use engine::Engine;
pub use image::Program;
pub use interp::Interp;
