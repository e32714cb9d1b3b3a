//! L3 indirect: the LOAD head reads the word at `buffer.load` (LOAD, and the
//! old value STORE/SWAP overwrite) into buffer.c; the FIND head matches
//! `buffer.find` against every memory word and returns that column's tag into
//! min. The FFN rescales those halves and clears the copies elsewhere, and
//! prepares DROL's second word for L5; for two-limb words it computes L4's
//! borrow between the limbs.

use super::{
    l2_decode::{self, read_head},
    l4_subtract, word_bit, FfnBuilder, Gates, Head, HeadRole, Layer, Lin,
};
use crate::isa::Opcode;
use crate::machine::layout::Layout;

pub fn build(lay: &Layout, g: &Gates) -> Layer {
    let load = read_head("load", HeadRole::Load, lay, lay.load_temp, lay.buf_c);
    // Q = K = find_temp + memory: column 0 (seeking v) ties with the one
    // memory column holding v (precheck guarantees it is unique).
    let mut find = Head { name: "find", role: HeadRole::Find, kdim: lay.word, k: Vec::new(), v: Vec::new() };
    for i in 0..lay.word {
        find.k.push((i, lay.find_temp.bit(i), 1.0));
        find.k.push((i, lay.mem.bit(i), 1.0));
        find.v.push((lay.min.bit(i), lay.tag.bit(i), 1.0));
    }
    let mut f = FfnBuilder::default();
    for i in 0..lay.word {
        let out = lay.min.bit(i);
        f.gated(&word_bit(lay.buf_c, i), &g.op(Opcode::Load), out, 1.0);
        f.gated(&Lin::row(out, 1.0), &g.op(Opcode::Find), out, 1.0);
        f.clear_where(out, &g.outside_scratch());
        f.clear_where(lay.buf_c.bit(i), &g.outside_scratch());
    }
    // DROL's second word c' = (M[c] << 1) | MSB(M[b]). L5's second head adds
    // M[b] − M[c] + buffer.find to column c, so buffer.find ← c' − M[b] bit by bit
    // (bipolar differences in {−2, 0, 2}). Written after this layer's heads, so the
    // FIND head never sees it; only DROL sets it, so SWAP and STORE add 0.
    let (mb, mc) = (|i| word_bit(lay.buf_b, i), |i| word_bit(lay.buf_c, i));
    for i in 0..lay.word {
        let second = if i == 0 { mb(lay.word - 1) } else { mc(i - 1) };
        f.gated(&second.plus(&mb(i).neg()), &g.op(Opcode::Drol), lay.find_temp.bit(i), 1.0);
    }
    // LOAD's address has been used; L5's second write must not see it.
    for k in 0..lay.logn {
        f.clear_where(lay.load_temp.bit(k), &g.op(Opcode::Load));
    }
    l4_subtract::low_borrow(&mut f, lay, g);
    l2_decode::divsub_settle(&mut f, lay, g);
    Layer { name: "L3 indirect", heads: vec![load, find], ffn: f.finish() }
}
