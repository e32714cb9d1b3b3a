//! L4 subtract: `min ← min − sub − carry` in one layer. For result bit i,
//! S = A − B − carry + 2^(i+1) with A, B the values of bits 0..=i of min and
//! sub lies in [0, 2^(i+2)) and its bit i is the result's: set iff
//! S ∈ [2^i, 2^(i+1)) ∪ [3·2^i, 2^(i+2)) — six ReLUs (three steps).

use super::{FfnBuilder, Gates, Layer, Lin};
use crate::machine::layout::Layout;

/// `S` for result bit `i`. On bipolar bits A − B = Σ 2^(j−1)·(min_j − sub_j).
pub fn borrow_sum(lay: &Layout, i: usize) -> Lin {
    let mut s = Lin::row(lay.carry(), -1.0).plus_const((2u32 << i) as f32);
    for j in 0..=i {
        let w = (1u32 << j) as f32 / 2.0;
        s = s.add_row(lay.min.bit(j), w).add_row(lay.sub.bit(j), -w);
    }
    s
}

pub fn build(lay: &Layout, g: &Gates) -> Layer {
    let mut f = FfnBuilder::default();
    let mut minus_one = Vec::new();
    for i in 0..lay.word {
        let out = lay.min.bit(i);
        let s = borrow_sum(lay, i);
        let t = (1u32 << i) as f32;
        f.step(&s, t, &g.col0, out, 2.0);
        f.step(&s, 2.0 * t, &g.col0, out, -2.0);
        f.step(&s, 3.0 * t, &g.col0, out, 2.0);
        f.clear(out);
        minus_one.push((out, -1.0));
    }
    f.relu(&g.col0.clone().plus_const(1.0), &minus_one);
    Layer { name: "L4 subtract", heads: Vec::new(), ffn: f.finish() }
}
