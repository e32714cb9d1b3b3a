//! The weights of the eight layers, derived from the configuration alone.
//!
//! A layer is plain data ([`Layer`]: argmax heads plus a one-hidden-layer
//! FFN, all as sparse entries); both engines read this one construction (the
//! dense engine materialises it). Each `lN_*` module builds one layer and
//! reads like the construction in the spec, using the vocabulary here:
//! affine expressions over named rows ([`Lin`]), gates that are exactly 0 when
//! open and ≤ −2·BIG when shut, and the unit patterns (gated copy, step,
//! clear) built from them.
//!
//! Every weight is a small dyadic rational and every gate scale is a power of
//! two, so every sum an engine forms is exact in f32.

mod l1_fetch;
mod l2_decode;
mod l3_indirect;
mod l4_subtract;
mod l5_write;
mod l6_branch;
mod l7_select;
mod l8_correct;

use super::layout::Layout;
pub use super::trace::HeadRole;
use crate::config::Config;
use crate::isa::Opcode;
pub use l4_subtract::limb_bits;

/// One argmax head (spec §7): `Q = K`, the score of columns i, j is `Kx_i · Kx_j`.
#[derive(Clone, Debug)]
pub struct Head {
    pub name: &'static str,
    pub role: HeadRole,
    /// Width of the key space.
    pub kdim: usize,
    /// `(key dimension, input row, weight)`.
    pub k: Vec<(usize, usize, f32)>,
    /// `(output row, input row, weight)`.
    pub v: Vec<(usize, usize, f32)>,
}

impl Head {
    /// `K` as a row-major `kdim × d` matrix.
    pub fn k_matrix(&self, d: usize) -> Vec<f32> {
        matrix(self.kdim, d, &self.k)
    }

    /// `V` as a row-major `d × d` matrix.
    pub fn v_matrix(&self, d: usize) -> Vec<f32> {
        matrix(d, d, &self.v)
    }
}

/// A row-major `rows × cols` matrix from `(row, column, weight)` entries; repeated entries add up.
fn matrix(rows: usize, cols: usize, entries: &[(usize, usize, f32)]) -> Vec<f32> {
    let mut m = vec![0.0; rows * cols];
    for &(r, c, w) in entries {
        m[r * cols + c] += w;
    }
    m
}

/// One hidden unit: `ReLU(w1·a + b1)` added to the rows of `w2`.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    pub w1: Vec<(usize, f32)>,
    pub b1: f32,
    pub w2: Vec<(usize, f32)>,
}

/// `Y = A + W2·ReLU(W1·A + b1) + b2`, stored by unit. This construction needs no `b2`
/// (a column-independent bias would touch every column), so it is kept only to
/// state the definition whole.
#[derive(Clone, Debug, Default)]
pub struct Ffn {
    pub units: Vec<Unit>,
    pub b2: Vec<(usize, f32)>,
}

/// An FFN as the dense definition's matrices, row-major.
pub struct DenseFfn {
    pub hidden: usize,
    /// `hidden × d`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `d × hidden`.
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl Ffn {
    pub fn dense(&self, d: usize) -> DenseFfn {
        let hidden = self.units.len();
        let units = || self.units.iter().enumerate();
        let w1: Vec<_> = units().flat_map(|(u, unit)| unit.w1.iter().map(move |&(r, w)| (u, r, w))).collect();
        let w2: Vec<_> = units().flat_map(|(u, unit)| unit.w2.iter().map(move |&(r, w)| (r, u, w))).collect();
        let b2: Vec<_> = self.b2.iter().map(|&(r, w)| (r, 0, w)).collect();
        DenseFfn {
            hidden,
            w1: matrix(hidden, d, &w1),
            b1: self.units.iter().map(|u| u.b1).collect(),
            w2: matrix(d, hidden, &w2),
            b2: matrix(d, 1, &b2),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Layer {
    pub name: &'static str,
    pub heads: Vec<Head>,
    pub ffn: Ffn,
}

/// The whole transformer for one configuration.
#[derive(Clone, Debug)]
pub struct Weights {
    pub config: Config,
    pub layout: Layout,
    pub layers: Vec<Layer>,
}

impl Weights {
    /// Derives all eight layers from `(s, n, N)`.
    pub fn build(config: &Config) -> Weights {
        let lay = Layout::new(config);
        let g = Gates::new(&lay);
        let layers = vec![
            l1_fetch::build(&lay, &g),
            l2_decode::build(&lay, &g),
            l3_indirect::build(&lay, &g),
            l4_subtract::build(&lay, &g),
            l5_write::build(&lay),
            l6_branch::build(&lay, &g),
            l7_select::build(&lay, &g),
            l8_correct::build(&lay, &g),
        ];
        Weights { config: *config, layout: lay, layers }
    }

    /// Bytes of every entry of every head and unit, as built.
    pub fn bytes(&self) -> usize {
        let (e3, e2) = (std::mem::size_of::<(usize, usize, f32)>(), std::mem::size_of::<(usize, f32)>());
        let layer = |l: &Layer| {
            let heads: usize = l.heads.iter().map(|h| (h.k.len() + h.v.len()) * e3).sum();
            let units: usize = l.ffn.units.iter().map(|u| (u.w1.len() + u.w2.len()) * e2 + 4).sum();
            heads + units + l.ffn.b2.len() * e2
        };
        self.layers.iter().map(layer).sum()
    }

    pub fn stats(&self) -> Vec<LayerStats> {
        self.layers.iter().map(LayerStats::of).collect()
    }

    /// The `total` row of `loom weights`: heads and units summed; nonzeros
    /// and distinct values counted over all layers at once.
    pub fn total_stats(&self) -> LayerStats {
        let all: Vec<f32> = self.layers.iter().flat_map(LayerStats::values).collect();
        let stats = self.stats();
        LayerStats {
            name: "total",
            heads: stats.iter().map(|s| s.heads).sum(),
            ffn_rows: stats.iter().map(|s| s.ffn_rows).sum(),
            nonzeros: all.len(),
            distinct: distinct(&all),
        }
    }

    /// The table `loom weights` prints: per layer, then the totals.
    pub fn summary(&self) -> String {
        use std::fmt::Write;
        let mut out = format!("{}\n", self.config);
        let _ = writeln!(out, "{:<16} {:>5} {:>8} {:>9} {:>8}", "layer", "heads", "ffn rows", "nonzeros", "distinct");
        for s in self.stats().iter().chain([&self.total_stats()]) {
            let _ =
                writeln!(out, "{:<16} {:>5} {:>8} {:>9} {:>8}", s.name, s.heads, s.ffn_rows, s.nonzeros, s.distinct);
        }
        out
    }
}

/// The figures `loom weights` prints.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LayerStats {
    pub name: &'static str,
    pub heads: usize,
    pub ffn_rows: usize,
    pub nonzeros: usize,
    pub distinct: usize,
}

impl LayerStats {
    fn of(l: &Layer) -> LayerStats {
        let vals = Self::values(l);
        LayerStats {
            name: l.name,
            heads: l.heads.len(),
            ffn_rows: l.ffn.units.len(),
            nonzeros: vals.len(),
            distinct: distinct(&vals),
        }
    }

    /// Every nonzero weight and bias of a layer.
    pub fn values(l: &Layer) -> Vec<f32> {
        let heads = l.heads.iter().flat_map(|h| h.k.iter().chain(&h.v).map(|e| e.2));
        let units = l.ffn.units.iter().flat_map(|u| u.w1.iter().chain(&u.w2).map(|e| e.1).chain([u.b1]));
        heads.chain(units).chain(l.ffn.b2.iter().map(|e| e.1)).filter(|&v| v != 0.0).collect()
    }
}

/// How many different bit patterns `vals` holds.
fn distinct(vals: &[f32]) -> usize {
    let mut bits: Vec<u32> = vals.iter().map(|v| v.to_bits()).collect();
    bits.sort_unstable();
    bits.dedup();
    bits.len()
}

/// An affine expression `Σ w·row + c` over the rows of one column.
#[derive(Clone, Debug, Default)]
pub struct Lin {
    pub terms: Vec<(usize, f32)>,
    pub c: f32,
}

impl Lin {
    pub fn konst(c: f32) -> Lin {
        Lin { terms: Vec::new(), c }
    }

    pub fn row(row: usize, w: f32) -> Lin {
        Lin { terms: vec![(row, w)], c: 0.0 }
    }

    pub fn plus(mut self, other: &Lin) -> Lin {
        self.terms.extend_from_slice(&other.terms);
        self.c += other.c;
        self
    }

    pub fn add_row(mut self, row: usize, w: f32) -> Lin {
        self.terms.push((row, w));
        self
    }

    pub fn plus_const(mut self, c: f32) -> Lin {
        self.c += c;
        self
    }

    pub fn scaled(&self, k: f32) -> Lin {
        Lin { terms: self.terms.iter().map(|&(r, w)| (r, w * k)).collect(), c: self.c * k }
    }

    pub fn neg(&self) -> Lin {
        self.scaled(-1.0)
    }

    /// Merges repeated rows and drops zero weights.
    fn normalised(&self) -> Vec<(usize, f32)> {
        let mut t = self.terms.clone();
        t.sort_by_key(|e| e.0);
        let mut out: Vec<(usize, f32)> = Vec::with_capacity(t.len());
        for (r, w) in t {
            match out.last_mut() {
                Some(last) if last.0 == r => last.1 += w,
                _ => out.push((r, w)),
            }
        }
        out.retain(|e| e.1 != 0.0);
        out
    }
}

/// BIG, the scale of every gate: 2^(L+2) for limbs of L = min(N, 16) bits
/// exceeds every quantity a unit gates, the subtractor's sums (< 2^(L+1))
/// the largest; small enough that a gate beside them sums exactly in f32
/// (see `l4_subtract`). For N ≤ 16 it is 2^(N+2).
pub fn gate_scale(lay: &Layout) -> f32 {
    (1u32 << (l4_subtract::limb_bits(lay) + 2)) as f32
}

/// Conditions as additive gates: a gate is exactly 0 where the condition
/// holds and at most −2·BIG (or −BIG/2·2 for [`Gates::ext`]) where it does not, so
/// `ReLU(q + gate)` is `ReLU(q)` or 0 for any `|q| < BIG`.
pub struct Gates {
    lay: Layout,
    /// Scale of every gate ([`gate_scale`]).
    pub big: f32,
    /// Open in column 0 only: `BIG·(4·ind + 2·pos_top − 4)` is 0 in column 0,
    /// −2·BIG in columns 1..s−1 (pos_top = −1) and ≤ −2·BIG beyond (ind = 0).
    pub col0: Lin,
}

impl Gates {
    fn new(lay: &Layout) -> Gates {
        let big = gate_scale(lay);
        let col0 = Lin::row(lay.indicator.start, 4.0 * big).add_row(lay.pos_top(), 2.0 * big).plus_const(-4.0 * big);
        Gates { lay: *lay, big, col0 }
    }

    /// Open when the decoded `a` field equals `code`: the opcode-match row
    /// `BIG·(pattern·dec_a − logn)`. Shut wherever `dec_a` is zero (every column but 0).
    pub fn op(&self, op: Opcode) -> Lin {
        let code = op.code().expect("SUBLEQ has no opcode pattern; use the col0/ext pair") as u64;
        let mut g = Lin::konst(-self.big * self.lay.logn as f32);
        for i in 0..self.lay.logn {
            let p = if code >> i & 1 == 1 { 1.0 } else { -1.0 };
            g = g.add_row(self.lay.dec_a.bit(i), p * self.big);
        }
        g
    }

    /// Open in column 0 for every extended operation (a < 32: all high bits of
    /// `dec_a` are −1). SUBLEQ = col0 − ext, as two gated units.
    pub fn ext(&self) -> Lin {
        let mut g = self.col0.clone().plus_const(-self.big / 2.0 * (self.lay.logn - 5) as f32);
        for i in 5..self.lay.logn {
            g = g.add_row(self.lay.dec_a.bit(i), -self.big / 2.0);
        }
        g
    }

    /// Open outside the scratchpad (ind = 0): for clearing copies the heads left there.
    pub fn outside_scratch(&self) -> Lin {
        Lin::row(self.lay.indicator.start, -2.0 * self.big)
    }

    /// Open when `M[b]` (half-valued in buffer.b) is negative.
    pub fn b_negative(&self) -> Lin {
        Lin::row(self.lay.buf_b.bit(self.lay.word - 1), 2.0 * self.big).plus_const(-self.big)
    }

    /// Open when the word the LOAD head read into buffer.c (half-valued) is not negative.
    pub fn c_nonnegative(&self) -> Lin {
        Lin::row(self.lay.buf_c.bit(self.lay.word - 1), -2.0 * self.big).plus_const(-self.big)
    }

    /// Open when the branch flag is 1.
    pub fn flag(&self) -> Lin {
        Lin::row(self.lay.flag(), self.big).plus_const(-self.big)
    }
}

/// Builds an FFN unit by unit.
#[derive(Default)]
pub struct FfnBuilder {
    units: Vec<Unit>,
}

impl FfnBuilder {
    /// `out += w·ReLU(pre)` for each `(row, w)`.
    pub fn relu(&mut self, pre: &Lin, out: &[(usize, f32)]) {
        self.units.push(Unit { w1: pre.normalised(), b1: pre.c, w2: out.to_vec() });
    }

    /// `row += w·q` where the gate is open, for any sign of `q`.
    pub fn gated(&mut self, q: &Lin, gate: &Lin, row: usize, w: f32) {
        self.relu(&q.clone().plus(gate), &[(row, w)]);
        self.relu(&q.neg().plus(gate), &[(row, -w)]);
    }

    /// `row += w·q` where the gate is open, for `q ≥ 0`.
    pub fn gated_pos(&mut self, q: &Lin, gate: &Lin, row: usize, w: f32) {
        self.relu(&q.clone().plus(gate), &[(row, w)]);
    }

    /// `row += w·[S ≥ t]` for an integer-valued `S`, as ReLU(S − t + 1) − ReLU(S − t).
    pub fn step(&mut self, s: &Lin, t: f32, gate: &Lin, row: usize, w: f32) {
        let at = s.clone().plus(gate).plus_const(-t);
        self.relu(&at.clone().plus_const(1.0), &[(row, w)]);
        self.relu(&at, &[(row, -w)]);
    }

    /// `row ← 0` in every column (any value).
    pub fn clear(&mut self, row: usize) {
        self.clear_where(row, &Lin::default());
    }

    /// `row ← 0` where the gate is open.
    pub fn clear_where(&mut self, row: usize, gate: &Lin) {
        self.gated(&Lin::row(row, 1.0), gate, row, -1.0);
    }

    pub fn finish(self) -> Ffn {
        Ffn { units: self.units, b2: Vec::new() }
    }
}

/// The bipolar ±1 value of bit `i` of a half-valued buffer (what an L2 head read).
pub fn word_bit(region: super::layout::Region, i: usize) -> Lin {
    Lin::row(region.bit(i), 2.0)
}
