//! A saved transformer (what the debugger's checkpoints hold) keeps the
//! columns a run changed, not the whole tensor: on the biggest machine a
//! checkpoint is a few columns, and restoring it gives the tensor back bit
//! for bit.

use loom_core::machine::SparseEngine;
use loom_core::{asm, Config, Engine};

#[test]
fn a_checkpoint_of_the_biggest_machine_holds_what_the_run_wrote() {
    let config = Config::preset("large32").unwrap();
    let src = include_str!("../../tests/asm/memloop.s").replace(".data top = -96", ".data top = 8192");
    let prog = asm::assemble(&src, config).expect("assembles");
    let mut m = SparseEngine::new(&prog).unwrap();
    m.run(700, None);
    let at = m.tensor().clone();
    let saved = m.save();
    let tensor_bytes = at.data.len() * 4;
    // 100 memory words walked, column 0 and the scratch columns: well under a megabyte of 25.
    assert!(saved.bytes() < tensor_bytes / 50, "{} bytes saved of a {tensor_bytes}-byte tensor", saved.bytes());
    // (`run` takes the machine to a total step count.)
    m.run(1200, None);
    assert_eq!(m.steps(), 1200);
    assert!(m.tensor().data != at.data, "the run moved on");
    m.restore(&saved);
    let bits = |t: &loom_core::machine::tensor::Tensor| t.data.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert!(bits(m.tensor()) == bits(&at), "restored bit for bit");
    assert_eq!(m.steps(), 700);
    // And the run goes on from there as it did the first time.
    m.run(1200, None);
    let mut again = SparseEngine::new(&prog).unwrap();
    again.run(1200, None);
    assert!(bits(m.tensor()) == bits(again.tensor()), "the same run after the restore");
}
