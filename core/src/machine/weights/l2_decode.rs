//! L2 read + decode: three heads read M[a], M[b], M[c] (half-valued) into the
//! buffers; the FFN routes operands by opcode so that L4's
//! `min − sub − carry` is every arithmetic result, and prepares the
//! addresses of the indirect operations.

use super::{l4_subtract, word_bit, FfnBuilder, Gates, Head, HeadRole, Layer, Lin};
use crate::isa::Opcode;
use crate::machine::layout::{Layout, Region};

/// A head reading the memory word at the column named by `field` into `buf`.
pub fn read_head(name: &'static str, role: HeadRole, lay: &Layout, field: Region, buf: Region) -> Head {
    let mut h = Head { name, role, kdim: lay.logn, k: Vec::new(), v: Vec::new() };
    for i in 0..lay.logn {
        h.k.push((i, field.bit(i), 1.0));
        h.k.push((i, lay.pos.bit(i), 1.0));
    }
    for i in 0..lay.word {
        h.v.push((buf.bit(i), lay.mem.bit(i), 1.0));
    }
    h
}

pub fn build(lay: &Layout, g: &Gates) -> Layer {
    let heads = vec![
        read_head("read a", HeadRole::ReadOperand, lay, lay.dec_a, lay.buf_a),
        read_head("read b", HeadRole::ReadOperand, lay, lay.dec_b, lay.buf_b),
        read_head("read c", HeadRole::ReadOperand, lay, lay.dec_c, lay.buf_c),
    ];
    let mut f = FfnBuilder::default();
    // The heads' copies outside column 0 go; buffer.a/c are also consumed here in column 0.
    for i in 0..lay.word {
        f.clear(lay.buf_a.bit(i));
        f.clear(lay.buf_c.bit(i));
        f.clear_where(lay.buf_b.bit(i), &g.outside_scratch());
    }
    minuend(&mut f, lay, g);
    subtrahend(&mut f, lay, g);
    addresses(&mut f, lay, g);
    Layer { name: "L2 read+decode", heads, ffn: f.finish() }
}

/// `min`: M[b] by default, corrected bit by bit per operation.
fn minuend(f: &mut FfnBuilder, lay: &Layout, g: &Gates) {
    let n = lay.word;
    let (mb, mc) = (|i| word_bit(lay.buf_b, i), |i| word_bit(lay.buf_c, i));
    for i in 0..n {
        let out = lay.min.bit(i);
        f.gated(&mb(i), &g.col0, out, 1.0);
        let to_c = mc(i).plus(&mb(i).neg());
        f.gated(&to_c, &g.op(Opcode::Mov), out, 1.0);
        f.gated(&to_c, &g.op(Opcode::Swap), out, 1.0);
        f.gated(&to_c, &g.op(Opcode::Cmov).plus(&g.b_negative()), out, 1.0);
        // Shift left (SHL, and MULACC's doubling): bit i ← bit i−1, bit 0 ← 0.
        let shl = if i == 0 { Lin::konst(-1.0) } else { mb(i - 1) }.plus(&mb(i).neg());
        f.gated(&shl, &g.op(Opcode::Shl), out, 1.0);
        f.gated(&shl, &g.op(Opcode::Mulacc), out, 1.0);
        f.gated(&shl, &g.op(Opcode::Mulstep), out, 1.0);
        // DROL's first word: the pair b:c rotated left, so bit 0 ← the top bit of M[c].
        let rol = if i == 0 { mc(n - 1) } else { mb(i - 1) }.plus(&mb(i).neg());
        f.gated(&rol, &g.op(Opcode::Drol), out, 1.0);
        if i + 1 < n {
            f.gated(&mb(i + 1).plus(&mb(i).neg()), &g.op(Opcode::Shr), out, 1.0);
        }
        // LOAD and FIND leave min empty for L3's head to fill.
        f.gated(&mb(i).neg(), &g.op(Opcode::Load), out, 1.0);
        f.gated(&mb(i).neg(), &g.op(Opcode::Find), out, 1.0);
        // Bitwise ops on bipolar x = M[b], y = M[c]: AND lowers x where y = −1,
        // OR raises it where y = +1, XOR flips it where y = +1.
        let (x, y) = (mb(i), mc(i));
        f.relu(&x.clone().plus(&y.neg()).plus_const(-1.0).plus(&g.op(Opcode::And)), &[(out, -2.0)]);
        f.relu(&y.clone().plus(&x.neg()).plus_const(-1.0).plus(&g.op(Opcode::Or)), &[(out, 2.0)]);
        f.relu(&x.clone().plus(&y).plus_const(-1.0).plus(&g.op(Opcode::Xor)), &[(out, -2.0)]);
        f.relu(&y.clone().plus(&x.neg()).plus_const(-1.0).plus(&g.op(Opcode::Xor)), &[(out, 2.0)]);
    }
}

/// `sub` (zero by default) and the borrow-in: ADD is M[b] − ~M[c] − 1,
/// SUBLEQ M[b] − M[a], MULACC (M[b] << 1) − ~M[c] − 1 when M[b] < 0.
fn subtrahend(f: &mut FfnBuilder, lay: &Layout, g: &Gates) {
    let mut zero_word = Vec::new();
    for i in 0..lay.word {
        let out = lay.sub.bit(i);
        zero_word.push((out, -1.0));
        // Each term is the correction from −1 to the wanted bit (never negative).
        let not_c = Lin::konst(1.0).plus(&word_bit(lay.buf_c, i).neg());
        f.gated_pos(&not_c, &g.op(Opcode::Add), out, 1.0);
        f.gated_pos(&not_c, &g.op(Opcode::Mulacc).plus(&g.b_negative()), out, 1.0);
        // MULSTEP adds M[c] whatever the multiplier; L3 takes it back (`mulstep_settle`).
        f.gated_pos(&not_c, &g.op(Opcode::Mulstep), out, 1.0);
        let c = Lin::konst(1.0).plus(&word_bit(lay.buf_c, i));
        f.gated_pos(&c, &g.op(Opcode::Sub), out, 1.0);
        let a = Lin::konst(1.0).plus(&word_bit(lay.buf_a, i));
        f.gated_pos(&a, &g.col0, out, 1.0);
        f.gated_pos(&a, &g.ext(), out, -1.0);
        f.gated_pos(&Lin::konst(2.0), &g.op(Opcode::Inc), out, 1.0);
        if i == 0 {
            f.gated_pos(&Lin::konst(2.0), &g.op(Opcode::Dec), out, 1.0);
        }
    }
    f.relu(&g.col0.clone().plus_const(1.0), &zero_word);
    divsub(f, lay, g);
    f.gated_pos(&Lin::konst(1.0), &g.op(Opcode::Add), lay.carry(), 1.0);
    f.gated_pos(&Lin::konst(1.0), &g.op(Opcode::Mulacc).plus(&g.b_negative()), lay.carry(), 1.0);
    f.gated_pos(&Lin::konst(1.0), &g.op(Opcode::Mulstep), lay.carry(), 1.0);
}

/// DIVSUB's subtrahend: `M[c] + 2^(N−1)` when `u(M[b]) ≥ u(M[c])`, else 0.
///
/// Construction (one limb, N ≤ 16). On bipolar bits the unsigned difference is linear,
/// `z = u(M[b]) − u(M[c]) = Σ_j 2^(j−1)·(x_j − y_j)`, an integer in (−2^N, 2^N). For
/// `q ∈ {0, 2}`, `ReLU(q + 2z) − ReLU(2z)` is `q` when `z ≥ 0` (both arguments are
/// ≥ 0) and 0 when `z ≤ −1` (both are ≤ 0). With `q_i` the correction from −1 to bit
/// i of `M[c]` (bit N−1 flipped: `+ 2^(N−1)` mod 2^N), one unit per bit plus one
/// shared `ReLU(2z)` subtracted from every bit give `sub`; L4 then computes
/// `M[b] − M[c] − 2^(N−1) ≡ M[b] − M[c] + 2^(N−1)` with its borrow chain, or
/// `M[b] − 0`. The op gate is ≤ −2·BIG = −2^(N+3) when shut and `|q + 2z| < 2^(N+1) + 2`,
/// so shut units are 0. Every weight is a power of two ≤ 2^N on a half-valued
/// buffer (2^(N−1)·2 per bit), every sum an integer below 2^(N+3) in magnitude:
/// exact in f32 for N ≤ 20. `divsub_subtracts_every_8_bit_pair` checks it exhaustively.
///
/// Two limbs (N = 32): `2z` reaches 2^33 and BIG is only 2^18, so the comparison is
/// split like L4's subtractor; see [`divsub_limbs`].
fn divsub(f: &mut FfnBuilder, lay: &Layout, g: &Gates) {
    let n = lay.word;
    if n > l4_subtract::limb_bits(lay) {
        return divsub_limbs(f, lay, g);
    }
    let mut z2 = g.op(Opcode::Divsub);
    for j in 0..n {
        let w = (1u32 << j) as f32;
        z2 = z2.plus(&word_bit(lay.buf_b, j).scaled(w)).plus(&word_bit(lay.buf_c, j).scaled(-w));
    }
    let mut shared = Vec::new();
    for i in 0..n {
        let y = word_bit(lay.buf_c, i);
        let q = if i + 1 == n { Lin::konst(1.0).plus(&y.neg()) } else { Lin::konst(1.0).plus(&y) };
        f.relu(&q.plus(&z2), &[(lay.sub.bit(i), 1.0)]);
        shared.push((lay.sub.bit(i), -1.0));
    }
    f.relu(&z2, &shared);
}

/// `u(M[b]) − u(M[c])` over the bits `base..base + L` of one limb: on bipolar bits
/// `Σ_j 2^(j−base−1)·(x_j − y_j)`, an integer in (−2^L, 2^L).
fn limb_diff(lay: &Layout, base: usize, l: usize) -> Lin {
    let mut z = Lin::default();
    for j in base..base + l {
        let w = (1u32 << (j - base)) as f32 / 2.0;
        z = z.plus(&word_bit(lay.buf_b, j).scaled(w)).plus(&word_bit(lay.buf_c, j).scaled(-w));
    }
    z
}

/// DIVSUB for a word of two limbs of L = 16 bits, the comparison exact in f32.
///
/// L2 writes `sub = M[c] + 2^(N−1)` whatever the operands (the correction `q_i ∈ {0, 2}`
/// from −1 per bit, gated by the op) and three flags ([`Layout::divsub_flags`]), with
/// `zh`, `zl` the high and low limbs' differences ([`limb_diff`], integers in
/// (−2^16, 2^16)): `gt = [zh ≥ 1]`, `ge = [zh ≥ 0]`, `lo = [zl ≥ 0]`, each a step
/// `ReLU(z − t + 1) − ReLU(z − t)` on an integer. Then `u(M[b]) ≥ u(M[c])` is
/// `gt ∨ (ge ∧ ¬gt ∧ lo)`, which L3 ([`divsub_settle`]) applies. Every sum here is a
/// half-integer combination of ±1 bits with weights 2^(j−base) ≤ 2^15 plus the gate
/// (≤ BIG·(logn + 1) = 2^18·15 < 2^22): below 2^23, exact in f32; a shut gate
/// (≤ −2·BIG = −2^19) exceeds `|z| + 2 < 2^16 + 2`, so shut units are 0.
fn divsub_limbs(f: &mut FfnBuilder, lay: &Layout, g: &Gates) {
    let n = lay.word;
    let l = l4_subtract::limb_bits(lay);
    let gate = g.op(Opcode::Divsub);
    for i in 0..n {
        let y = word_bit(lay.buf_c, i);
        let q = if i + 1 == n { Lin::konst(1.0).plus(&y.neg()) } else { Lin::konst(1.0).plus(&y) };
        f.gated_pos(&q, &gate, lay.sub.bit(i), 1.0);
    }
    let [gt, ge, lo] = lay.divsub_flags();
    let (zh, zl) = (limb_diff(lay, l, n - l), limb_diff(lay, 0, l));
    f.step(&zh, 1.0, &gate, gt, 1.0);
    f.step(&zh, 0.0, &gate, ge, 1.0);
    f.step(&zl, 0.0, &gate, lo, 1.0);
}

/// L3's part of two-limb DIVSUB (see [`divsub_limbs`]): when `u(M[b]) < u(M[c])`
/// (`¬ge`, or `ge ∧ ¬gt ∧ ¬lo`) each bit of `sub` goes back to −1, and the low limb's
/// borrow, which L3 computed from the unconditional `sub` as `¬lo`, is kept only when
/// the subtraction happens (`gt ∧ ¬lo`). With `s_i = 1 + sub_i ∈ {0, 2}` and flags in
/// {0, 1}: `ReLU(s_i − 2·ge)` is `s_i` exactly when `¬ge`; `ReLU(s_i + 2·(ge − gt) −
/// 2·lo − 2)` is `s_i` exactly when `ge ∧ ¬gt ∧ ¬lo`, and the two never hold together;
/// `ReLU(1 − lo − gt)` is `[¬lo ∧ ¬gt]`, the borrow to take back (`¬lo ∧ gt` keeps it).
/// The sums are integers below 4 besides the gate, which shuts them as in L2.
pub fn divsub_settle(f: &mut FfnBuilder, lay: &Layout, g: &Gates) {
    if lay.word <= l4_subtract::limb_bits(lay) {
        return;
    }
    let gate = g.op(Opcode::Divsub);
    let [gt, ge, lo] = lay.divsub_flags();
    for i in 0..lay.word {
        let s = Lin::row(lay.sub.bit(i), 1.0).plus_const(1.0);
        f.gated_pos(&s.clone().add_row(ge, -2.0), &gate, lay.sub.bit(i), -1.0);
        let eq_not_lo = s.add_row(ge, 2.0).add_row(gt, -2.0).add_row(lo, -2.0).plus_const(-2.0);
        f.gated_pos(&eq_not_lo, &gate, lay.sub.bit(i), -1.0);
    }
    f.gated_pos(&Lin::konst(1.0).add_row(lo, -1.0).add_row(gt, -1.0), &gate, lay.borrow(), -1.0);
}

/// `buffer.load` = the column of the indirect access (LOAD/STORE: s + M[c],
/// a real +32 on the pointer; SWAP and DROL: c; MULSTEP: c ^ 1, the multiplier, its
/// lowest bipolar bit negated), `buffer.find` = the value FIND seeks.
fn addresses(f: &mut FfnBuilder, lay: &Layout, g: &Gates) {
    let ptr = |t: usize| if t < lay.word { word_bit(lay.buf_c, t) } else { Lin::konst(-1.0) };
    for op in [Opcode::Load, Opcode::Store] {
        let gate = g.op(op);
        for k in 0..lay.logn {
            let out = lay.load_temp.bit(k);
            if k < 5 {
                f.gated(&ptr(k), &gate, out, 1.0);
                continue;
            }
            // Bit j of (pointer >> 5) + 1: S = value of pointer bits 5..=k, plus 1;
            // the bit is set iff 2^j ≤ S < 2^(j+1). Output 2·bit − 1.
            let j = k - 5;
            let mut s = Lin::konst(1.0);
            for t in 5..=k {
                let w = (1u32 << (t - 5)) as f32 / 2.0;
                s = s.plus(&ptr(t).scaled(w)).plus_const(w);
            }
            f.step(&s, (1u32 << j) as f32, &gate, out, 2.0);
            f.step(&s, (2u32 << j) as f32, &gate, out, -2.0);
            f.gated_pos(&Lin::konst(1.0), &gate, out, -1.0);
        }
    }
    for k in 0..lay.logn {
        for op in [Opcode::Swap, Opcode::Drol] {
            f.gated(&Lin::row(lay.dec_c.bit(k), 1.0), &g.op(op), lay.load_temp.bit(k), 1.0);
        }
        let flip = if k == 0 { -1.0 } else { 1.0 };
        f.gated(&Lin::row(lay.dec_c.bit(k), flip), &g.op(Opcode::Mulstep), lay.load_temp.bit(k), 1.0);
    }
    for i in 0..lay.word {
        f.gated(&word_bit(lay.buf_c, i), &g.op(Opcode::Find), lay.find_temp.bit(i), 1.0);
    }
}
