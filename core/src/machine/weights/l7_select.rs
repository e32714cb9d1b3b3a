//! L7 select: PC ← flag ? c : PC + 1.

use super::{FfnBuilder, Gates, Layer, Lin};
use crate::machine::layout::Layout;

pub fn build(lay: &Layout, g: &Gates) -> Layer {
    let mut f = FfnBuilder::default();
    for k in 0..lay.logn {
        let (pc, next, c) = (lay.pc.bit(k), lay.next_pc().bit(k), lay.dec_c.bit(k));
        f.clear(pc);
        f.gated(&Lin::row(next, 1.0), &Lin::default(), pc, 1.0);
        f.gated(&Lin::row(c, 1.0).add_row(next, -1.0), &g.flag(), pc, 1.0);
    }
    Layer { name: "L7 select", heads: Vec::new(), ffn: f.finish() }
}
