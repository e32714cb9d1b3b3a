//! One layer's FFN, `y = a + W2·ReLU(W1·a + b1) + b2`, in compressed rows,
//! with its units grouped by their *gate terms* so a whole group can be
//! skipped when it provably cannot fire.
//!
//! Most units are `ReLU(q + gate)`: the gate's rows carry weights of the gate
//! scale (≥ 2^(N+1)) and are ≤ −2^(N+3) when shut (e.g. an opcode that is not
//! the current one, or any column but 0). Units with the same gate terms
//! form a group. For a column, the group's gate value γ is computed once; the
//! rest of each unit is bounded by `|b| + S·M`, with S the sum of the unit's
//! other |weights| and M the largest |value| on the rows they read. If
//! `γ + max b + max S·M`, widened by the worst f32 rounding of the unit's
//! sum, is ≤ 0, every unit of the group evaluates to ReLU(≤ 0) = 0 in f32
//! too, and is skipped. The split into gate and rest only decides how often
//! the test succeeds, never the result: the bound holds for any split.

use crate::machine::weights::Ffn as FfnWeights;
use std::collections::HashMap;

/// Units `units` share the gate terms `gate`.
struct Group {
    units: std::ops::Range<usize>,
    gate: std::ops::Range<usize>,
    max_b: f64,
    max_abs_b: f64,
    /// The largest Σ|w| over a unit's non-gate terms.
    max_s: f64,
    /// The rows any unit reads, as runs `runs[reads]` (for [`Ffn::idle`]).
    reads: std::ops::Range<usize>,
}

pub struct Ffn {
    /// Unit u reads `w1[w1_at[u]..w1_at[u + 1]]` and writes `w2[w2_at[u]..w2_at[u + 1]]`.
    w1_at: Vec<usize>,
    w1: Vec<(usize, f32)>,
    b1: Vec<f32>,
    w2_at: Vec<usize>,
    w2: Vec<(usize, f32)>,
    b2: Vec<(usize, f32)>,
    groups: Vec<Group>,
    gate: Vec<(usize, f32)>,
    /// Rows read by the non-gate terms of gated units (where M is taken).
    free_rows: Vec<usize>,
    /// Runs of consecutive rows `(start, end)`.
    runs: Vec<(usize, usize)>,
    /// Relative bound on the rounding of a unit's f32 sum: (terms + 2)·2^−23.
    eps: f64,
}

impl Ffn {
    /// `gate_weight`: terms with |w| ≥ this are treated as gate terms.
    pub fn new(f: &FfnWeights, gate_weight: f32) -> Ffn {
        let split = |u: &crate::machine::weights::Unit| {
            let gate: Vec<(usize, f32)> = u.w1.iter().copied().filter(|e| e.1.abs() >= gate_weight).collect();
            let s: f64 = u.w1.iter().filter(|e| e.1.abs() < gate_weight).map(|e| e.1.abs() as f64).sum();
            (gate, s)
        };
        // Group units by gate terms, keeping first-seen order of groups and of units within one.
        let mut keys: HashMap<Vec<(usize, u32)>, usize> = HashMap::new();
        // (gate terms, unit indices) per group.
        type Members = Vec<(Vec<(usize, f32)>, Vec<usize>)>;
        let mut members: Members = Vec::new();
        for (i, u) in f.units.iter().enumerate() {
            let (gate, _) = split(u);
            let key: Vec<(usize, u32)> = gate.iter().map(|e| (e.0, e.1.to_bits())).collect();
            let g = *keys.entry(key).or_insert_with(|| {
                members.push((gate, Vec::new()));
                members.len() - 1
            });
            members[g].1.push(i);
        }
        let mut ffn = Ffn {
            w1_at: vec![0],
            w1: Vec::new(),
            b1: Vec::new(),
            w2_at: vec![0],
            w2: Vec::new(),
            b2: f.b2.clone(),
            groups: Vec::new(),
            gate: Vec::new(),
            free_rows: Vec::new(),
            runs: Vec::new(),
            eps: 0.0,
        };
        let mut max_terms = 0;
        for (gate, units) in members {
            let start = ffn.b1.len();
            let gate_start = ffn.gate.len();
            ffn.gate.extend_from_slice(&gate);
            let (mut max_b, mut max_abs_b, mut max_s) = (f64::NEG_INFINITY, 0f64, 0f64);
            for &i in &units {
                let u = &f.units[i];
                ffn.w1.extend_from_slice(&u.w1);
                ffn.w1_at.push(ffn.w1.len());
                ffn.b1.push(u.b1);
                ffn.w2.extend_from_slice(&u.w2);
                ffn.w2_at.push(ffn.w2.len());
                max_terms = max_terms.max(u.w1.len());
                max_b = max_b.max(u.b1 as f64);
                max_abs_b = max_abs_b.max((u.b1 as f64).abs());
                max_s = max_s.max(split(u).1);
                if !gate.is_empty() {
                    ffn.free_rows.extend(u.w1.iter().filter(|e| e.1.abs() < gate_weight).map(|e| e.0));
                }
            }
            let (units, gate) = (start..ffn.b1.len(), gate_start..ffn.gate.len());
            let mut rows: Vec<usize> =
                units.clone().flat_map(|u| ffn.w1[ffn.w1_at[u]..ffn.w1_at[u + 1]].iter().map(|e| e.0)).collect();
            rows.sort_unstable();
            rows.dedup();
            let runs_start = ffn.runs.len();
            for r in rows {
                let open = ffn.runs.len() > runs_start;
                match ffn.runs.last_mut() {
                    Some(run) if open && run.1 == r => run.1 = r + 1,
                    _ => ffn.runs.push((r, r + 1)),
                }
            }
            let reads = runs_start..ffn.runs.len();
            ffn.groups.push(Group { units, gate, max_b, max_abs_b, max_s, reads });
        }
        ffn.free_rows.sort_unstable();
        ffn.free_rows.dedup();
        ffn.eps = (max_terms + 2) as f64 * f64::from(f32::EPSILON);
        ffn
    }

    /// Whether no unit of group `g` can fire on `a` (M = `m`).
    #[inline]
    fn shut(&self, g: &Group, a: &[f32], m: f64) -> bool {
        if g.gate.is_empty() {
            return false;
        }
        let (mut s, mut t) = (0f64, 0f64);
        for &(r, w) in &self.gate[g.gate.clone()] {
            let v = w as f64 * a[r] as f64;
            s += v;
            t += v.abs();
        }
        let rest = g.max_s * m;
        s + g.max_b + rest + self.eps * (t + g.max_abs_b + rest) <= 0.0
    }

    /// Whether every unit of group `g` is off because it reads only zeros
    /// and no bias is positive: then each pre-activation is `b1 + Σ w·(±0)`,
    /// ≤ 0 exactly. Outside column 0 most rows are zero, so this shuts the
    /// ungated units (single-row clean-ups) there.
    #[inline]
    fn idle(&self, g: &Group, a: &[f32]) -> bool {
        g.max_b <= 0.0
            && self.runs[g.reads.clone()]
                .iter()
                .all(|&(s, e)| a[s..e].iter().fold(0u32, |m, v| m | (v.to_bits() << 1)) == 0)
    }

    /// `y = a + W2·ReLU(W1·a + b1) + b2` for one column; `skip` enables the gate test.
    pub fn apply(&self, a: &[f32], y: &mut [f32], skip: bool) {
        y.copy_from_slice(a);
        let m = if skip { self.free_rows.iter().fold(0f64, |m, &r| m.max((a[r] as f64).abs())) } else { 0.0 };
        // NaN in the input must not make a group look shut.
        let skip = skip && !m.is_nan();
        for g in &self.groups {
            if skip && (self.shut(g, a, m) || self.idle(g, a)) {
                continue;
            }
            for u in g.units.clone() {
                let mut pre = self.b1[u];
                for &(r, w) in &self.w1[self.w1_at[u]..self.w1_at[u + 1]] {
                    pre += w * a[r];
                }
                if pre > 0.0 {
                    for &(r, w) in &self.w2[self.w2_at[u]..self.w2_at[u + 1]] {
                        y[r] += w * pre;
                    }
                }
            }
        }
        for &(r, w) in &self.b2 {
            y[r] += w;
        }
        // Canonical zeros: −0.0 + 0.0 = +0.0.
        for v in y.iter_mut() {
            *v += 0.0;
        }
    }

    pub fn bytes(&self) -> usize {
        let entry = std::mem::size_of::<(usize, f32)>();
        let word = std::mem::size_of::<usize>();
        (self.w1.len() + self.w2.len() + self.b2.len() + self.gate.len()) * entry
            + (self.w1_at.len() + self.w2_at.len() + self.free_rows.len()) * word
            + self.b1.len() * 4
            + self.groups.len() * std::mem::size_of::<Group>()
            + self.runs.len() * 2 * word
    }
}
