//! Every sparse shortcut against the dense reference: each one switched off
//! alone, all on and all off, stepping whole programs through `forward`
//! (the path `loom run` takes), comparing the tensor after every layer bit
//! for bit, with host writes between steps.

mod machine_common;
use loom_core::machine::sparse::{Shortcuts, Sparse};
use loom_core::machine::tensor::Tensor;
use loom_core::machine::{weights::Weights, DenseEngine, SparseEngine};
use loom_core::{asm, Engine, Program};
use machine_common::*;

fn bits(t: &Tensor) -> Vec<u32> {
    t.data.iter().map(|v| v.to_bits()).collect()
}

/// Steps `prog` on the dense engine and on every shortcut variant, writing
/// slot `write.0` every `write.1` steps; returns the steps compared.
fn agree(prog: &Program, steps: u64, write: (usize, u64)) -> u64 {
    let w = Weights::build(&prog.config);
    let mut dense = DenseEngine::new(prog).unwrap();
    let mut variants: Vec<(&str, SparseEngine)> = Shortcuts::variants()
        .into_iter()
        .map(|(name, s)| (name, SparseEngine::with_backend(prog, Sparse::with_shortcuts(&w, s), w.clone())))
        .collect();
    // memloop walks memory up to `top`: bound it by this configuration's memory.
    if let Some(top) = prog.symbol("top") {
        let m = prog.config.mem_slots as i64;
        dense.write_slot(top.slot, m);
        variants.iter_mut().for_each(|(_, e)| e.write_slot(top.slot, m));
    }
    for step in 0..steps {
        if step > 0 && step % write.1 == 0 {
            dense.write_slot(write.0, step as i64);
            variants.iter_mut().for_each(|(_, e)| e.write_slot(write.0, step as i64));
        }
        let (status, want) = dense.step_traced();
        for (name, e) in &mut variants {
            let (s, got) = e.step_traced();
            assert_eq!(s, status, "{name}, step {step}");
            for (l, (a, b)) in want.layers.iter().zip(&got.layers).enumerate() {
                assert!(bits(&a.after) == bits(&b.after), "{name}, step {step}: differs after layer {}", l + 1);
                assert_eq!(a.heads, b.heads, "{name}, step {step}: head matches of layer {}", l + 1);
            }
        }
        if !status.is_running() {
            return step + 1;
        }
    }
    steps
}

fn on(config: &str, programs: &[&str], steps: u64) {
    let mut total = 0;
    for name in programs {
        let path = format!("{}/../tests/asm/{name}.s", env!("CARGO_MANIFEST_DIR"));
        let prog = asm::assemble(&std::fs::read_to_string(&path).unwrap(), cfg(config)).unwrap();
        total += agree(&prog, steps, (1, 7));
    }
    assert!(total >= steps, "{config}: only {total} steps compared");
}

#[test]
fn every_shortcut_matches_dense_tiny() {
    on("tiny", &["memloop", "countdown"], 150);
}

#[test]
fn every_shortcut_matches_dense_tiny16() {
    on("tiny16", &["memloop", "countdown"], 80);
}

#[test]
fn every_shortcut_matches_dense_small() {
    on("small", &["sort", "arith", "memloop"], 40);
}

#[test]
fn every_shortcut_matches_dense_small16() {
    on("small16", &["memloop"], 25);
}

#[test]
fn every_shortcut_matches_dense_compact() {
    on("compact", &["memloop"], 4);
}

#[test]
fn every_shortcut_matches_dense_tiny32() {
    on("tiny32", &["memloop", "countdown"], 40);
}

/// A compiled C program on a 32-bit machine (6-word row masks): a division
/// of the largest int, a narrowing cast and an unsigned comparison.
#[test]
fn every_shortcut_matches_dense_on_a_32_bit_c_program() {
    let src = "int x = 2147483647; int q; int c; int lt;\n\
               int main() { q = x / 3; c = (char)300; lt = -1 < 0u; return 0; }\n";
    let out = loom_core::compiler::compile(src, cfg("small32"));
    let prog = out.program.unwrap_or_else(|| panic!("{:#?}", out.diagnostics));
    let steps = agree(&prog, 400, (0, 1_000_000));
    assert!(steps < 400, "the program halts");
    let mut e = SparseEngine::new(&prog).unwrap();
    e.run(400, None);
    let read = |name: &str| e.read_slot(prog.symbol(name).unwrap().slot);
    assert_eq!([read("q"), read("c"), read("lt")], [715827882, 44, 0]);
}
