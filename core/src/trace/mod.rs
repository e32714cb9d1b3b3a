//! The second machine: WebAssembly executed by attention over its own trace.
//!
//! The machine's state is an append-only **trace** of writes. A step reads its
//! operands — stack slots, locals, globals, bytes of linear memory, call
//! frames — with attention heads over that trace, computes (`alu.rs`), and
//! appends its writes. A write of address `a` is the key `(2a, −a², seq)`;
//! a read of `q` is the query `(T·q, T, 1)`; the exact integer score is
//! maximal at the latest write of `q` (`score.rs`). Each head can answer by
//! brute force (O(t) dot products) or by a search over the keys' convex hull
//! (O(log t)), or both, compared on every lookup (`head/`).
//!
//! This is independent of the first machine (`crate::machine`, the
//! transformer over a `d × n` tensor); note that `machine::trace` there is a
//! step record of *that* machine for its UI, unrelated to this module.
//!
//! The supported subset (anything else is a located load error):
//! i32 values only; `i32.const`, every i32 arithmetic, logic, shift, rotate,
//! comparison, `eqz`/`clz`/`ctz`/`popcnt`/`extend8_s`/`extend16_s`;
//! `drop`, `select`; locals, i32 globals; one memory with `i32.load`,
//! `load8_s/u`, `load16_s/u`, `store`, `store8`, `store16` (with offsets),
//! `memory.size`, active data segments; `block`, `loop`, `if`/`else`, `br`,
//! `br_if`, `br_table` (with block parameters and results), `call`,
//! `return`, `unreachable`, `nop`. The program is the exported `main`, which
//! takes no parameters; its results are the values left on the stack.
//!
//! Module map: `code` (flat instructions), `load/` (WAT/wasm to code),
//! `alu` (i32 semantics), `exec` (one step, over any `Store`), `runner`
//! (a run), `context` (the trace and its heads: the machine's store), `plain`
//! (the reference's store), `score`, `head/` (brute and hull), `machine`
//! (the API a UI drives), `explain` (a lookup's candidates), `report` (the
//! CLI's JSON), `programs` (starter programs), `bench`, `cli`.

pub mod alu;
pub mod bench;
pub mod cli;
pub mod code;
pub mod context;
pub mod exec;
pub mod explain;
pub mod head;
pub mod load;
pub mod machine;
pub mod plain;
pub mod plot;
pub mod programs;
pub mod report;
pub mod runner;
pub mod score;

pub use code::Code;
pub use head::HeadMode;
pub use load::{load, load_wasm, load_wat, LoadError};
pub use machine::Machine;
pub use plain::Reference;
pub use runner::Status;

/// Why a run stopped before `main` returned. The messages follow
/// WebAssembly's trap names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trap {
    Unreachable,
    DivideByZero,
    /// `i32.div_s` of −2³¹ by −1.
    Overflow,
    OutOfBounds,
    CallStackExhausted,
    /// A pop from an empty stack (valid WebAssembly never does this; a
    /// hand-built program can).
    StackUnderflow,
    /// The trace reached 2⁴⁰ writes, where sequence numbers would stop being exact.
    TraceFull,
    /// A bug in the machine (e.g. the two heads disagreed), never the program's fault.
    Internal(String),
}

impl Trap {
    pub fn message(&self) -> String {
        match self {
            Trap::Unreachable => "unreachable".into(),
            Trap::DivideByZero => "integer divide by zero".into(),
            Trap::Overflow => "integer overflow".into(),
            Trap::OutOfBounds => "out of bounds memory access".into(),
            Trap::CallStackExhausted => "call stack exhausted".into(),
            Trap::StackUnderflow => "stack underflow".into(),
            Trap::TraceFull => "trace full".into(),
            Trap::Internal(m) => format!("internal error: {m}"),
        }
    }
}
