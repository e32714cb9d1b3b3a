//! L5 write: head 1 adds R − M[b] to column b's memory rows, head 2 adds
//! M[b] − M[target] + buffer.find to the column in `buffer.load` (SWAP's second
//! write, STORE; DROL's second word, for which L3 put `c' − M[b]` in
//! buffer.find — zero for every other operation that sets `buffer.load`).
//! Column 0 ties with the target, so the target gets half of V·x₀: V carries
//! twice the difference. Only column 0 has nonzero V.

use super::{Ffn, Head, HeadRole, Layer};
use crate::machine::layout::{Layout, Region};

fn write_head(name: &'static str, role: HeadRole, lay: &Layout, addr: Region, v: &[(Region, f32)]) -> Head {
    let mut h = Head { name, role, kdim: lay.logn, k: Vec::new(), v: Vec::new() };
    for i in 0..lay.logn {
        h.k.push((i, addr.bit(i), 1.0));
        h.k.push((i, lay.pos.bit(i), 1.0));
    }
    for &(src, w) in v {
        for i in 0..lay.word {
            h.v.push((lay.mem.bit(i), src.bit(i), w));
        }
    }
    h
}

pub fn build(lay: &Layout) -> Layer {
    // R is bipolar in min; M[b], M[target] are half-valued in buffer.b, buffer.c.
    let first = write_head("write b", HeadRole::Write, lay, lay.dec_b, &[(lay.min, 2.0), (lay.buf_b, -4.0)]);
    let v = [(lay.buf_b, 4.0), (lay.buf_c, -4.0), (lay.find_temp, 2.0)];
    let second = write_head("write second", HeadRole::SecondWrite, lay, lay.load_temp, &v);
    Layer { name: "L5 write", heads: vec![first, second], ffn: Ffn::default() }
}
