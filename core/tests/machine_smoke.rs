use loom_core::machine::lockstep::lockstep;
use loom_core::machine::{DenseEngine, SparseEngine};
use loom_core::{asm, Config, Interp};

#[test]
fn countdown_smoke() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/asm/countdown.s")).unwrap();
    for cfg in ["tiny", "small"] {
        let prog = asm::assemble(&src, Config::preset(cfg).unwrap()).unwrap();
        let mut e = SparseEngine::new(&prog).unwrap();
        let mut i = Interp::new(&prog).unwrap();
        println!("{:?}", lockstep(&mut e, &mut i, 1000));
        let mut e = DenseEngine::new(&prog).unwrap();
        let mut i = Interp::new(&prog).unwrap();
        println!("{:?}", lockstep(&mut e, &mut i, 1000));
    }
}
