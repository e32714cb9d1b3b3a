//! One layer's FFN, `y = a + W2·ReLU(W1·a + b1) + b2`, arranged so that a
//! column evaluates only the units that can fire, and each linear form once.
//!
//! Most units are `ReLU(σ·q + gate + b)`: the gate's rows carry weights of
//! the gate scale (≥ 2^(N+1)) and are ≤ −2^(N+3) when shut (an opcode that is
//! not the current one, or any column but 0); `q` is the rest of the row, and
//! the construction builds units in pairs or sixes that share `q` up to the
//! sign σ (clears ±x, gated copies ±q, the threshold steps). So:
//! - **groups**: units with the same gate terms. A group's gate value γ is
//!   computed once per column; the rest of each unit is bounded by
//!   `|b| + S·M` (S the sum of its other |weights|, M the largest |value| in
//!   the column). If `γ + max b + max S·M`, widened by the worst f32 rounding,
//!   is ≤ 0, every unit of the group is ReLU(≤ 0) = 0 and is skipped. The
//!   split into gate and rest decides how often the test succeeds, never the
//!   result: the bound holds for any split.
//! - **forms**: units of a group with the same `q` up to sign; `q` is summed
//!   once. A form whose `q` is ±0 (e.g. it reads only zero rows) has units
//!   `ReLU(γ + b)`, and is skipped when `γ + max b ≤ 0`. Forms whose units
//!   all write one row are evaluated eight side by side ([`lanes`]).
//!
//! - **opcode index**: where the opcode field holds exactly ±1 (column 0),
//!   a family of groups gated by opcode patterns has one group per pattern
//!   whose gate is not ≤ the pattern weight × (fieldwidth − 2); one bound
//!   test for the family shuts every other pattern (`gate_index`).
//! - **pairs**: `ReLU(q + c)·W − ReLU(−q + c)·W` is `q·W` when `c = 0` (one
//!   side is 0, and (−q)·(−w) = q·w exactly), so a gated copy whose gate is
//!   open costs one product instead of two units. The ungated clear
//!   `ReLU(x)·(−1) + ReLU(−x)·(+1)` on row r is −x, which cancels `a[r]` in
//!   `y = a + …`: a cleared row's output is the other units' sum, so `y`
//!   starts from `a` with the cleared rows zeroed and the clear units are not
//!   evaluated (finite columns only: ReLU(NaN) = 0 would keep the NaN).
//!
//! Every value is a small dyadic rational (spec §1), so `σ·q + γ + b` is the
//! exact sum the dense engine forms in another order. Both skips are the
//! `gate_skip` shortcut, the index `gate_index`, both pair rules `fused_pairs`,
//! the side-by-side forms `lanes`; without them every unit is evaluated, one
//! at a time.

mod build;
mod eval;
mod lanes;

pub use eval::Inert;

use super::rows::RowMask;
use std::ops::Range;

/// A range of one of the FFN's flat arrays (`terms`, `units`, `w2`).
type Span = Range<u32>;

/// A `(row, weight)` entry of W1 or W2.
type Entry = (u32, f32);

/// One unit as evaluated: `ReLU(sign·q + γ + b)` added along `w2[w2]`.
struct UnitRec {
    sign: f32,
    b: f32,
    w2: Span,
}

/// Units of one group that share their non-gate terms up to sign.
struct Form {
    terms: Span,
    units: Span,
    max_b: f64,
    /// Two units `ReLU(±q + b)` with opposite outputs: `q·W` when γ + b = 0.
    pair: bool,
}

/// What bounds the units of a group (or of a family of groups) beside their gate.
#[derive(Clone, Copy)]
struct Bound {
    max_b: f64,
    max_abs_b: f64,
    /// The largest Σ|w| over a unit's non-gate terms.
    max_s: f64,
}

impl Default for Bound {
    fn default() -> Bound {
        Bound { max_b: f64::NEG_INFINITY, max_abs_b: 0.0, max_s: 0.0 }
    }
}

impl Bound {
    fn join(self, o: Bound) -> Bound {
        Bound {
            max_b: self.max_b.max(o.max_b),
            max_abs_b: self.max_abs_b.max(o.max_abs_b),
            max_s: self.max_s.max(o.max_s),
        }
    }

    /// Whether every unit is ReLU(≤ 0) given its gate sum `s` (Σ|terms| `t`)
    /// and M = `m`, allowing for the rounding `eps` of the unit's f32 sum.
    /// Monotone in every field, so a family's joined bound covers its groups.
    #[inline]
    fn shut(&self, s: f64, t: f64, m: f64, eps: f64) -> bool {
        let rest = self.max_s * m;
        s + self.max_b + rest + eps * (t + self.max_abs_b + rest) <= 0.0
    }
}

/// Units that share their gate terms.
#[derive(Default)]
struct Group<const W: usize> {
    gate: Span,
    gate_rows: RowMask<W>,
    /// Σ|w| over the gate terms, and whether a gate term is on a clearable row.
    gate_abs: f64,
    soft_gate: bool,
    /// Every row the group reads (gate and forms), and every row it writes.
    touch: RowMask<W>,
    writes: RowMask<W>,
    forms: Range<usize>,
    /// The chunks of its lane forms (the first of `forms`), and the other forms.
    chunks: Range<usize>,
    rest: Range<usize>,
    /// Every form is a clear pair: these rows are cleared where γ = 0.
    clears: Option<RowMask<W>>,
    bound: Bound,
}

/// Gated groups whose gates read the same rows. Where all those rows are
/// zero every gate sum is 0, and one test with the joined bound shuts them all
/// (e.g. every opcode gate outside column 0).
struct Family<const W: usize> {
    gate_rows: RowMask<W>,
    groups: Range<usize>,
    bound: Bound,
    index: Option<PatternIndex<W>>,
}

/// A family whose every gate holds a full opcode pattern `±w` on the opcode
/// rows. A group whose pattern differs from the field in h ≥ 1 bits has gate
/// sum `w·(L − 2h) + extra ≤ w·(L − 2) + e·M` with |terms| summing to at most
/// `w·L + e·M` (e: the Σ|w| of the terms off the opcode rows). Where that is
/// too loose, the extra terms are bounded by their rows' exact values:
/// `Σ max|w|·|a[r]|` over those rows (then pinned).
struct PatternIndex<const W: usize> {
    s_hi: f64,
    t_hi: f64,
    e: f64,
    /// Each row off the opcode rows with its largest |w| over the groups.
    extra: Vec<(usize, f64)>,
    extra_rows: RowMask<W>,
    /// `(pattern, group)`, groups as indices into `Ffn::groups`.
    groups: Vec<(u32, usize)>,
}

pub struct Ffn<const W: usize> {
    /// The opcode field's rows, bit 0 first (the rows of the pattern index).
    pattern: Vec<usize>,
    families: Vec<Family<W>>,
    groups: Vec<Group<W>>,
    /// The ungated clears (a group of their own, evaluated only unfused).
    clears: Group<W>,
    /// Per row: all ones, or 0 where a clear cancels `a` (the fused start of
    /// `y`); and all ones everywhere (the unfused start).
    keep: Vec<u32>,
    ones: Vec<u32>,
    /// The rows `keep` zeroes; every row a clear (fused or gated) clears; the opcode's rows.
    keep_zero: RowMask<W>,
    soft: RowMask<W>,
    pattern_rows: RowMask<W>,
    forms: Vec<Form>,
    units: Vec<UnitRec>,
    chunks: Vec<lanes::Chunk>,
    lane_terms: Vec<lanes::LaneTerm>,
    lane_units: Vec<lanes::LaneUnit>,
    /// Gate terms and form terms, `(row, weight)`.
    terms: Vec<Entry>,
    w2: Vec<Entry>,
    b2: Vec<(usize, f32)>,
    b2_rows: RowMask<W>,
    /// Rows `0..d`.
    rows: RowMask<W>,
    /// Every row some unit reads (a clear's included): outside them, no
    /// value enters a bound or a sum but its own row's.
    watch: RowMask<W>,
    /// Every row the FFN reads, writes or clears: outside them `y = a`.
    touch: RowMask<W>,
    /// Relative bound on the rounding of a unit's f32 sum: (terms + 2)·2^−23.
    eps: f64,
}

impl<const W: usize> Ffn<W> {
    /// Every row the FFN reads, writes or clears (outside them, `y = a`).
    pub fn touch(&self) -> RowMask<W> {
        self.touch
    }

    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        (self.groups.len() + 1) * size_of::<Group<W>>()
            + self.families.len() * size_of::<Family<W>>()
            + (self.keep.len() + self.ones.len()) * 4
            + self.forms.len() * size_of::<Form>()
            + self.units.len() * size_of::<UnitRec>()
            + self.chunks.len() * size_of::<lanes::Chunk>()
            + self.lane_terms.len() * size_of::<lanes::LaneTerm>()
            + self.lane_units.len() * size_of::<lanes::LaneUnit>()
            + (self.terms.len() + self.w2.len()) * size_of::<Entry>()
            + self.b2.len() * size_of::<(usize, f32)>()
    }
}

/// `v[s]` without a bounds check: the hot loops index only through spans
/// and rows that [`Ffn::new`] checked (every span within its array, every
/// row below d), on columns of d rows ([`Ffn::apply`] checks).
#[inline(always)]
fn at<'a, T>(v: &'a [T], s: &Span) -> &'a [T] {
    debug_assert!(s.start <= s.end && s.end as usize <= v.len());
    // SAFETY: see above; spans are only built by `Ffn::new`, which checks them.
    unsafe { v.get_unchecked(s.start as usize..s.end as usize) }
}
