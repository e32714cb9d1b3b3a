//! L1 fetch: column 0 ties with column PC and copies its instruction fields
//! (half-valued) into `scratch.a/b/c`; the FFN turns them into bipolar fields.

use super::{FfnBuilder, Gates, Head, HeadRole, Layer, Lin};
use crate::machine::layout::Layout;

pub fn build(lay: &Layout, g: &Gates) -> Layer {
    // Q = K = pc + pos: column 0 carries the PC (its pos is zero), column PC
    // its own index, so both score logn and tie; every other column scores ≤ logn − 2.
    let mut fetch = Head { name: "fetch", role: HeadRole::Fetch, kdim: lay.logn, k: Vec::new(), v: Vec::new() };
    for i in 0..lay.logn {
        fetch.k.push((i, lay.pc.bit(i), 1.0));
        fetch.k.push((i, lay.pos.bit(i), 1.0));
    }
    let fields = [(lay.cmd_a, lay.dec_a), (lay.cmd_b, lay.dec_b), (lay.cmd_c, lay.dec_c)];
    for (cmd, dec) in fields {
        for i in 0..lay.logn {
            fetch.v.push((dec.bit(i), cmd.bit(i), 1.0));
        }
    }

    // Column 0 holds x ∈ {−½, 0, +½} per bit (0: an empty column, which is
    // HALT 0 0). New value = −1 + 2·ReLU(2x), i.e. +1 iff x > 0. The copies
    // every instruction column made of its own fields are erased by the same clear.
    let mut f = FfnBuilder::default();
    let mut minus_one = Vec::new();
    for (_, dec) in fields {
        for i in 0..lay.logn {
            let r = dec.bit(i);
            f.clear(r);
            f.relu(&Lin::row(r, 2.0).plus(&g.col0), &[(r, 2.0)]);
            minus_one.push((r, -1.0));
        }
    }
    f.relu(&g.col0.clone().plus_const(1.0), &minus_one);
    Layer { name: "L1 fetch", heads: vec![fetch], ffn: f.finish() }
}
