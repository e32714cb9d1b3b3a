//! Differential testing against gcc: random programs in our C subset, each
//! generated once (`gen`) as one structure (`program`) and printed twice
//! (`text`): for our compiler, and for `gcc -fwrapv` with N-bit words emulated
//! (`gcc`). Both run (`ours`, `gcc`) and must agree on every global, the status
//! and the output (`outcome`); `campaign` runs a budget of them and `reduce` shrinks a
//! diverging one. `scope` and `alias` keep every generated program defined C:
//! each expression's reads and writes, seen through pointers.
//!
//! Used by `tests/differential.rs` (the CI budget) and `examples/difftest.rs`
//! (longer runs: `--count N --seed S`).

#![allow(dead_code)] // each user (the test, the example) uses a different part

pub mod alias;
pub mod campaign;
pub mod gcc;
pub mod gen;
pub mod known;
pub mod ours;
pub mod outcome;
pub mod program;
pub mod reduce;
pub mod rng;
pub mod scope;
pub mod text;
