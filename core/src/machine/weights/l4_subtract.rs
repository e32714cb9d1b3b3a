//! L4 subtract: `min ← min − sub − carry` in one layer, limb by limb.
//!
//! The word is cut into limbs of L = min(N, 16) bits: one limb for N ≤ 16,
//! two for N = 32. For result bit i of the limb starting at bit b, with A, B
//! the values of bits b..=i of min and sub and c the limb's borrow-in,
//! S = A − B − c + 2^(i−b+1) lies in [0, 2^(i−b+2)) and its bit i−b is the
//! result's: set iff S ∈ [2^(i−b), 2^(i−b+1)) ∪ [3·2^(i−b), 2^(i−b+2)) — six
//! ReLUs (three steps). The low limb's borrow-in is the carry L2 prepared;
//! the high limb's is the borrow out of the low limb, [A_lo − B_lo − carry < 0],
//! one step over the same kind of sum that L3 takes from the prepared
//! min/sub ([`low_borrow`]) and leaves in [`Layout::borrow`].
//!
//! Why every value stays exact in f32 (a 24-bit significand) at N = 32: a
//! unit here sums bits of one limb only, so |S| < 2^(L+1) = 2^17, its
//! thresholds are < 2^(L+1), and the column-0 gate it carries is
//! `BIG·(4·ind + 2·pos_top − 4)` with BIG = 2^(L+2) = 2^18 ([`super::Gates`]).
//! Inputs in column 0 are bipolar bits (±1), the 0/1 borrows and, at L3's
//! input, FIND's half values, so every product is a multiple of 1/4 and the
//! sum of all |terms| is below 10·2^18 + 2^17 + 2^17 + 3·2^15 < 2^22: every
//! partial sum, in any order, is a multiple of 1/4 below 2^22, i.e. fits in
//! 24 bits. One chain over all 32 bits would form S up to 2^33 beside a gate
//! of 2^34 and round. For N ≤ 16 there is one limb and the construction is
//! the single chain (the same units as before limbs existed).

use super::{FfnBuilder, Gates, Layer, Lin};
use crate::machine::layout::Layout;

/// Bits per limb: the widest chain whose sums stay exact beside its gate.
pub const LIMB_BITS: usize = 16;

/// The limb width for this word: the whole word up to [`LIMB_BITS`].
pub fn limb_bits(lay: &Layout) -> usize {
    lay.word.min(LIMB_BITS)
}

/// `S` for bits `base..=top` of one limb with borrow-in row `borrow_in`:
/// A − B − c + 2^(top−base+1), where on bipolar bits A − B = Σ 2^(j−base−1)·(min_j − sub_j).
fn limb_sum(lay: &Layout, base: usize, top: usize, borrow_in: usize) -> Lin {
    let mut s = Lin::row(borrow_in, -1.0).plus_const((2u32 << (top - base)) as f32);
    for j in base..=top {
        let w = (1u32 << (j - base)) as f32 / 2.0;
        s = s.add_row(lay.min.bit(j), w).add_row(lay.sub.bit(j), -w);
    }
    s
}

/// `S` for result bit `i` (its limb's bits up to i, with the limb's borrow-in).
pub fn borrow_sum(lay: &Layout, i: usize) -> Lin {
    let l = limb_bits(lay);
    let base = i / l * l;
    let borrow_in = if base == 0 { lay.carry() } else { lay.borrow() };
    limb_sum(lay, base, i, borrow_in)
}

/// L3's part: the borrow out of the low limb into [`Layout::borrow`] when the
/// word has two limbs. With S the low limb's full sum (in [0, 2^(L+1)) when
/// min and sub are bipolar), the borrow is [S < 2^L] = [−S ≥ 1 − 2^L]. It is
/// right for every operation L4 computes: min and sub are final after L2
/// except for LOAD and FIND, whose min L3 is still filling (0, or FIND's
/// half values) while their sub is 0 (all −1) and carry 0 — then S > 2^L and
/// both ReLUs of the step are 0: no borrow, as LOAD's and FIND's results have —
/// and MULSTEP, whose sub and carry L3 may set back to 0, taking the borrow back
/// with them ([`take_back_low_borrow`]).
pub fn low_borrow(f: &mut FfnBuilder, lay: &Layout, g: &Gates) {
    let l = limb_bits(lay);
    assert!(lay.word <= 2 * l, "the subtractor's borrow reaches one limb up: N ≤ {}", 2 * LIMB_BITS);
    low_borrow_where(f, lay, &g.col0, 1.0);
}

/// Takes back, where `gate` opens, the borrow [`low_borrow`] found in the same
/// layer: for an operation whose sub and carry this layer sets back to 0 (MULSTEP
/// when the multiplier's top bit is 0), after which the low limb cannot borrow.
pub fn take_back_low_borrow(f: &mut FfnBuilder, lay: &Layout, gate: &Lin) {
    low_borrow_where(f, lay, gate, -1.0);
}

fn low_borrow_where(f: &mut FfnBuilder, lay: &Layout, gate: &Lin, w: f32) {
    let l = limb_bits(lay);
    if lay.word > l {
        let s = limb_sum(lay, 0, l - 1, lay.carry());
        f.step(&s.neg(), 1.0 - (1u32 << l) as f32, gate, lay.borrow(), w);
    }
}

pub fn build(lay: &Layout, g: &Gates) -> Layer {
    let l = limb_bits(lay);
    let mut f = FfnBuilder::default();
    let mut minus_one = Vec::new();
    for i in 0..lay.word {
        let out = lay.min.bit(i);
        let s = borrow_sum(lay, i);
        let t = (1u32 << (i % l)) as f32;
        f.step(&s, t, &g.col0, out, 2.0);
        f.step(&s, 2.0 * t, &g.col0, out, -2.0);
        f.step(&s, 3.0 * t, &g.col0, out, 2.0);
        f.clear(out);
        minus_one.push((out, -1.0));
    }
    f.relu(&g.col0.clone().plus_const(1.0), &minus_one);
    Layer { name: "L4 subtract", heads: Vec::new(), ffn: f.finish() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::machine::weights::{Unit, Weights};

    /// `Y = A + Σ w2·ReLU(w1·A + b1)` for one column, in f32, unit by unit.
    fn apply(units: &[&Unit], x: &mut [f32]) {
        let a = x.to_vec();
        for u in units {
            let pre = u.w1.iter().fold(u.b1, |acc, &(r, w)| acc + w * a[r]);
            let h = pre.max(0.0);
            for &(r, w) in &u.w2 {
                x[r] += w * h;
            }
        }
    }

    /// Column 0 between steps (indicator 1, pos 0), with min, sub and the borrow-in set.
    fn column(lay: &Layout, min: u64, sub: u64, borrow_row: usize, c: f32) -> Vec<f32> {
        let mut x = vec![0.0; lay.d];
        x[lay.indicator.start] = 1.0;
        for i in 0..lay.word {
            x[lay.min.bit(i)] = if min >> i & 1 == 1 { 1.0 } else { -1.0 };
            x[lay.sub.bit(i)] = if sub >> i & 1 == 1 { 1.0 } else { -1.0 };
        }
        x[borrow_row] = c;
        x
    }

    /// The largest |partial sum| a unit can form, over the smallest granule of
    /// its products, for inputs |x| ≤ 1 that are multiples of 1/2 (column 0 at
    /// L3 and L4: bits, FIND's halves, 0/1 borrows): below 2^24 means every
    /// partial sum, in any order, is exact in f32.
    fn exact(u: &Unit) -> bool {
        let total: f64 = u.w1.iter().map(|e| e.1.abs() as f64).sum::<f64>() + u.b1.abs() as f64;
        // The largest power of two dividing a normal f32: its exponent plus the significand's trailing zeros.
        let unit_of = |w: f32| {
            let bits = w.to_bits();
            let exp = ((bits >> 23) & 0xff) as i32 - 150;
            2f64.powi(exp + ((bits & 0x7f_ffff) | 0x80_0000).trailing_zeros() as i32)
        };
        let granule =
            u.w1.iter().map(|e| e.1).chain([u.b1]).filter(|w| *w != 0.0).map(unit_of).fold(f64::INFINITY, f64::min)
                / 2.0;
        total < granule * (1u64 << 24) as f64
    }

    #[test]
    fn every_subtractor_unit_sums_exactly_in_f32() {
        for cfg in crate::config::PRESETS {
            let w = Weights::build(&cfg);
            for layer in &w.layers[2..4] {
                for u in &layer.ffn.units {
                    assert!(exact(u), "{}: {} has a unit whose sums may round", cfg.name, layer.name);
                }
            }
        }
    }

    /// Some A, B < 2^k and borrow-in c with A − B − c + 2^k = S, for any S in
    /// [0, 2^(k+1)); returns them and D = A − B − c.
    fn realise(s: i64, k: usize) -> (u64, u64, f32, i64) {
        let (top, d) = ((1i64 << k) - 1, s - (1i64 << k));
        let c = if (d + (s & 1)).abs() > top { 1 - (s & 1) } else { s & 1 };
        let diff = d + c;
        (diff.max(0) as u64, (-diff).max(0) as u64, c as f32, d)
    }

    /// Every sum S the chain forms for every result bit of every limb (each
    /// realised by some A, B, borrow-in), through the layer's own units in
    /// f32, gives the bit of A − B − c; the low limb's borrow-out likewise for
    /// every S it can see. With the exactness above, a unit's value depends
    /// on A, B, c only through S, so this covers all pairs of every limb.
    fn chain_is_exact(name: &str) {
        let cfg = Config::preset(name).unwrap();
        let w = Weights::build(&cfg);
        let lay = w.layout;
        let l = limb_bits(&lay);
        let mask = |k: usize| (1u64 << k) - 1;
        for i in 0..lay.word {
            let (base, local) = (i / l * l, i % l);
            let units: Vec<&Unit> =
                w.layers[3].ffn.units.iter().filter(|u| u.w2.iter().any(|e| e.0 == lay.min.bit(i))).collect();
            let borrow_row = if base == 0 { lay.carry() } else { lay.borrow() };
            for s in 0..(4i64 << local) {
                let (a, b, c, d) = realise(s, local + 1);
                // Bits outside base..=i are arbitrary: they must not matter.
                let outside = mask(lay.word) & !(mask(local + 1) << base);
                let noise = 0x5a5a_5a5a_5a5a_5a5a & outside;
                let mut x = column(&lay, a << base | noise, b << base | (!noise & outside), borrow_row, c);
                apply(&units, &mut x);
                let want = d.rem_euclid(2 << local) >> local & 1 == 1;
                assert_eq!(x[lay.min.bit(i)], if want { 1.0 } else { -1.0 }, "{name} bit {i}, S = {s}");
            }
        }
        let borrow: Vec<&Unit> =
            w.layers[2].ffn.units.iter().filter(|u| u.w2.iter().any(|e| e.0 == lay.borrow())).collect();
        if lay.word == l {
            assert!(borrow.is_empty(), "{name}: one limb needs no borrow");
            return;
        }
        for s in 0..(2i64 << l) {
            let (a, b, c, d) = realise(s, l);
            let mut x = column(&lay, a | 0xdead << l, b | 0xbeef << l, lay.carry(), c);
            x[lay.borrow()] = 0.0;
            apply(&borrow, &mut x);
            assert_eq!(x[lay.borrow()], (d < 0) as u8 as f32, "{name} low borrow, S = {s}");
        }
    }

    #[test]
    fn the_chain_is_exact_for_every_sum_at_8_16_and_32_bits() {
        for name in ["compact", "compact16", "compact32"] {
            chain_is_exact(name);
        }
    }
}
