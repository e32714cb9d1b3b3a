//! L3 indirect: the LOAD head reads the word at `buffer.load` (LOAD, and the
//! old value STORE/SWAP overwrite) into buffer.c; the FIND head matches
//! `buffer.find` against every memory word and returns that column's tag into
//! min. The FFN rescales those halves and clears the copies elsewhere, and
//! prepares DROL's and MULSTEP's second words for L5; for two-limb words it
//! computes L4's borrow between the limbs.

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
    mulstep_settle(&mut f, lay, g);
    // LOAD's address has been used; L5's second write must not see it.
    for k in 0..lay.logn {
        f.clear_where(lay.load_temp.bit(k), &g.op(Opcode::Load));
    }
    l4_subtract::low_borrow(&mut f, lay, g);
    l2_decode::divsub_settle(&mut f, lay, g);
    Layer { name: "L3 indirect", heads: vec![load, find], ffn: f.finish() }
}

/// MULSTEP b, c: `M[b] ← 2·M[b] + (MSB(m) ? M[c] : 0)` and `m ← m << 1` for the
/// multiplier `m = M[c ^ 1]`, which the LOAD head has just read into buffer.c
/// (L2 pointed buffer.load at c ^ 1).
///
/// Construction. L2 prepared ADD's operands whatever the multiplier: `min = M[b] << 1`,
/// `sub = ~M[c]`, carry 1, so that L4's `min − sub − carry` is `2·M[b] + M[c]`. Here, with
/// the gate `G = op(MULSTEP) + [m ≥ 0]` (0 when both hold, ≤ −2·BIG otherwise), each
/// bit's `ReLU(1 + sub_i + G)` is subtracted from `sub_i` and `ReLU(1 + G)` from the
/// carry: when the multiplier's top bit is 0, `1 + sub_i ∈ {0, 2}` is exactly the way
/// back to −1 (sub = 0) and the carry goes from 1 to 0, so L4 computes `2·M[b] − 0 − 0`;
/// otherwise every unit is shut (its argument is at most 2 + 0 − 2·BIG < 0). On two-limb
/// words the borrow that [`l4_subtract::low_borrow`] found from the prepared operands in
/// this same layer is taken back under the same gate, a quarter of it (the same step with
/// weight −1):
/// `2·M[b] − 0 − 0` never borrows. The second word goes to L5 as DROL's does: its second
/// head adds `M[b] − m + buffer.find` to column c ^ 1, so buffer.find ←
/// `(m << 1) − M[b]` bit by bit (differences in {−2, 0, 2}; bit 0 of `m << 1` is −1).
/// Every argument is a small integer combination of bipolar bits beside a gate that is
/// 0 or ≤ −2·BIG, as in L2's units, so every value is exact in f32.
/// `machine_layers::mulstep_every_8_bit_triple` checks all operands on 8-bit words.
fn mulstep_settle(f: &mut FfnBuilder, lay: &Layout, g: &Gates) {
    let op = g.op(Opcode::Mulstep);
    let (mb, mc) = (|i| word_bit(lay.buf_b, i), |i| word_bit(lay.buf_c, i));
    for i in 0..lay.word {
        let second = if i == 0 { Lin::konst(-1.0) } else { mc(i - 1) };
        f.gated(&second.plus(&mb(i).neg()), &op, lay.find_temp.bit(i), 1.0);
    }
    let skip = op.plus(&g.c_nonnegative());
    for i in 0..lay.word {
        let back = Lin::row(lay.sub.bit(i), 1.0).plus_const(1.0);
        f.gated_pos(&back, &skip, lay.sub.bit(i), -1.0);
    }
    f.gated_pos(&Lin::konst(1.0), &skip, lay.carry(), -1.0);
    // The borrow's step sums a limb (|S| < 2^17 in quarters): a quarter of the gate still
    // shuts it (≤ −BIG/2 = −2^17 < −(2^16 + 1), its largest argument) and keeps the
    // unit's sums below 2^22, exact in f32 like `low_borrow`'s.
    l4_subtract::take_back_low_borrow(f, lay, &skip.scaled(0.25));
}
