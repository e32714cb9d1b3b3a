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
//!   once. A form that reads only zero rows has `q = 0` exactly, so its units
//!   are `ReLU(γ + b)` and the form is skipped when `γ + max b ≤ 0`.
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
//! `gate_skip` shortcut, the index `gate_index`, both pair rules `fused_pairs`;
//! without them every unit is evaluated.

use super::rows::{ColumnScan, RowMask};
use super::Shortcuts;
use crate::machine::weights::{Ffn as FfnWeights, Unit};
use std::collections::HashMap;
use std::ops::Range;

/// One unit as evaluated: `ReLU(sign·q + γ + b)` added along `w2[w2]`.
struct UnitRec {
    sign: f32,
    b: f32,
    w2: Range<usize>,
}

/// Units of one group that share their non-gate terms up to sign.
struct Form {
    terms: Range<usize>,
    units: Range<usize>,
    reads: RowMask,
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
struct Group {
    gate: Range<usize>,
    gate_rows: RowMask,
    forms: Range<usize>,
    /// Every form is a clear pair: these rows are cleared where γ = 0.
    clears: Option<RowMask>,
    bound: Bound,
}

/// Gated groups whose gates read the same rows. Where all those rows are
/// zero every gate sum is 0, and one test with the joined bound shuts them all
/// (e.g. every opcode gate outside column 0).
struct Family {
    gate_rows: RowMask,
    groups: Range<usize>,
    bound: Bound,
    index: Option<PatternIndex>,
}

/// A family whose every gate holds a full opcode pattern `±w` on the opcode
/// rows. A group whose pattern differs from the field in h ≥ 1 bits has gate
/// sum `w·(L − 2h) + extra ≤ w·(L − 2) + e·M` with |terms| summing to at most
/// `w·L + e·M` (e: the Σ|w| of the terms off the opcode rows).
struct PatternIndex {
    s_hi: f64,
    t_hi: f64,
    e: f64,
    /// `(pattern, group)`, groups as indices into `Ffn::groups`.
    groups: Vec<(u32, usize)>,
}

pub struct Ffn {
    /// The opcode field's rows, bit 0 first (the rows of the pattern index).
    pattern: Vec<usize>,
    families: Vec<Family>,
    groups: Vec<Group>,
    /// The ungated clears (a group of their own, evaluated only unfused).
    clears: Group,
    /// Per row: all ones, or 0 where a clear cancels `a` (the fused start of `y`).
    keep: Vec<u32>,
    forms: Vec<Form>,
    units: Vec<UnitRec>,
    /// Gate terms and form terms, `(row, weight)`.
    terms: Vec<(usize, f32)>,
    w2: Vec<(usize, f32)>,
    b2: Vec<(usize, f32)>,
    /// Relative bound on the rounding of a unit's f32 sum: (terms + 2)·2^−23.
    eps: f64,
}

/// A unit's terms split into gate terms and the rest, the rest with its
/// first weight made positive (`sign` says whether it was flipped).
struct Split {
    gate: Vec<(usize, f32)>,
    rest: Vec<(usize, f32)>,
    sign: f32,
}

impl Split {
    fn of(u: &Unit, gate_weight: f32) -> Split {
        let (gate, mut rest): (Vec<_>, Vec<_>) = u.w1.iter().copied().partition(|e| e.1.abs() >= gate_weight);
        let sign = if rest.first().is_some_and(|e| e.1 < 0.0) { -1.0 } else { 1.0 };
        rest.iter_mut().for_each(|e| e.1 *= sign);
        Split { gate, rest, sign }
    }
}

/// Whether `b` is `a` with every weight negated.
fn negated(a: &[(usize, f32)], b: &[(usize, f32)]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0 && x.1 == -y.1)
}

fn key(terms: &[(usize, f32)]) -> Vec<(usize, u32)> {
    terms.iter().map(|e| (e.0, e.1.to_bits())).collect()
}

impl Ffn {
    /// `gate_weight`: terms with |w| ≥ this are treated as gate terms.
    /// `pattern`: the opcode field's rows, bit 0 first.
    pub fn new(f: &FfnWeights, d: usize, gate_weight: f32, pattern: &[usize]) -> Ffn {
        assert!(d <= RowMask::ROWS, "d = {d} rows exceed the row mask");
        // Groups by gate terms, forms by the rest, both in first-seen order.
        let splits: Vec<Split> = f.units.iter().map(|u| Split::of(u, gate_weight)).collect();
        let mut group_of: HashMap<Vec<(usize, u32)>, usize> = HashMap::new();
        let mut members: Vec<Vec<Vec<usize>>> = Vec::new();
        let mut form_of: Vec<HashMap<Vec<(usize, u32)>, usize>> = Vec::new();
        for (i, s) in splits.iter().enumerate() {
            let g = *group_of.entry(key(&s.gate)).or_insert_with(|| {
                members.push(Vec::new());
                form_of.push(HashMap::new());
                members.len() - 1
            });
            let forms = &mut members[g];
            let k = *form_of[g].entry(key(&s.rest)).or_insert_with(|| {
                forms.push(Vec::new());
                forms.len() - 1
            });
            forms[k].push(i);
        }
        let mut ffn = Ffn {
            pattern: pattern.to_vec(),
            families: Vec::new(),
            groups: Vec::new(),
            clears: Group::default(),
            keep: vec![!0; d],
            forms: Vec::new(),
            units: Vec::new(),
            terms: Vec::new(),
            w2: Vec::new(),
            b2: f.b2.clone(),
            eps: (f.units.iter().map(|u| u.w1.len()).max().unwrap_or(0) + 2) as f64 * f64::from(f32::EPSILON),
        };
        // `ReLU(x + γ)·(−1) + ReLU(−x + γ)·(+1)` on one row: clears it where γ = 0.
        let is_clear_pair = |units: &Vec<usize>| {
            let [p, m] = units[..] else { return false };
            let (r, s) = (&f.units[p], &splits[p]);
            s.rest.len() == 1
                && s.rest[0].1 == 1.0
                && (s.sign, splits[m].sign) == (1.0, -1.0)
                && (r.b1, f.units[m].b1) == (0.0, 0.0)
                && r.w2 == [(s.rest[0].0, -1.0)]
                && negated(&r.w2, &f.units[m].w2)
        };
        // Ungated clears go last, into their own group.
        let mut clears = Vec::new();
        for forms in &mut members {
            clears.extend(forms.extract_if(.., |units| splits[units[0]].gate.is_empty() && is_clear_pair(units)));
        }
        members.retain(|forms| !forms.is_empty());
        let clears_at = members.len();
        if !clears.is_empty() {
            members.push(clears);
        }
        for (gi, forms) in members.into_iter().enumerate() {
            let gate = &splits[forms[0][0]].gate;
            let clears_only = forms.iter().all(is_clear_pair);
            let gate_at = ffn.terms.len();
            ffn.terms.extend_from_slice(gate);
            let first_form = ffn.forms.len();
            let mut bound = Bound::default();
            for units in forms {
                let rest = &splits[units[0]].rest;
                let terms_at = ffn.terms.len();
                ffn.terms.extend_from_slice(rest);
                let first_unit = ffn.units.len();
                let mut form_max_b = f64::NEG_INFINITY;
                for i in units {
                    let u = &f.units[i];
                    let w2_at = ffn.w2.len();
                    ffn.w2.extend_from_slice(&u.w2);
                    ffn.units.push(UnitRec { sign: splits[i].sign, b: u.b1, w2: w2_at..ffn.w2.len() });
                    form_max_b = form_max_b.max(u.b1 as f64);
                    bound.max_abs_b = bound.max_abs_b.max((u.b1 as f64).abs());
                }
                bound.max_b = bound.max_b.max(form_max_b);
                bound.max_s = bound.max_s.max(rest.iter().map(|e| e.1.abs() as f64).sum());
                let us = &ffn.units[first_unit..];
                let pair = us.len() == 2
                    && (us[0].sign, us[1].sign) == (1.0, -1.0)
                    && us[0].b == us[1].b
                    && negated(&ffn.w2[us[0].w2.clone()], &ffn.w2[us[1].w2.clone()]);
                ffn.forms.push(Form {
                    terms: terms_at..ffn.terms.len(),
                    units: first_unit..ffn.units.len(),
                    reads: RowMask::of_rows(rest.iter().map(|e| e.0)),
                    max_b: form_max_b,
                    pair,
                });
                if gi == clears_at {
                    ffn.keep[rest[0].0] = 0;
                }
            }
            let forms = first_form..ffn.forms.len();
            let rows = ffn.forms[forms.clone()].iter().fold(RowMask::default(), |m, f| m.union(&f.reads));
            let group = Group {
                gate: gate_at..gate_at + gate.len(),
                gate_rows: RowMask::of_rows(gate.iter().map(|e| e.0)),
                forms,
                bound,
                clears: clears_only.then_some(rows),
            };
            if gi == clears_at {
                ffn.clears = group;
            } else {
                ffn.groups.push(group);
            }
        }
        ffn.gather_families();
        assert!(ffn.terms.iter().chain(&ffn.w2).chain(&ffn.b2).all(|e| e.0 < d), "rows within d");
        ffn
    }

    /// Orders the groups by the rows their gates read (first-seen order;
    /// the order of groups never changes a sum) and records the families.
    fn gather_families(&mut self) {
        let mut masks: Vec<RowMask> = Vec::new();
        for g in &self.groups {
            if !masks.contains(&g.gate_rows) {
                masks.push(g.gate_rows);
            }
        }
        let mut groups = std::mem::take(&mut self.groups);
        groups.sort_by_key(|g| masks.iter().position(|m| *m == g.gate_rows));
        for mask in masks {
            let start = self.groups.len();
            self.groups.extend(groups.extract_if(.., |g| g.gate_rows == mask));
            let bound = self.groups[start..].iter().fold(Bound::default(), |b, g| b.join(g.bound));
            let groups = start..self.groups.len();
            let index = self.pattern_index(groups.clone());
            self.families.push(Family { gate_rows: mask, groups, bound, index });
        }
    }

    /// The index of a family whose every gate holds a full opcode pattern.
    fn pattern_index(&self, groups: Range<usize>) -> Option<PatternIndex> {
        let l = self.pattern.len() as f64;
        let mut ix = PatternIndex { s_hi: f64::NEG_INFINITY, t_hi: 0.0, e: 0.0, groups: Vec::new() };
        for gi in groups {
            let gate = &self.terms[self.groups[gi].gate.clone()];
            let on = |r: usize| gate.iter().find(|e| e.0 == r).map(|e| e.1);
            let ws: Vec<f32> = self.pattern.iter().map(|&r| on(r)).collect::<Option<_>>()?;
            let w = ws[0].abs();
            if w == 0.0 || ws.iter().any(|v| v.abs() != w) {
                return None;
            }
            let code = ws.iter().enumerate().fold(0u32, |c, (i, v)| c | ((*v > 0.0) as u32) << i);
            let extra: f64 = gate.iter().filter(|e| !self.pattern.contains(&e.0)).map(|e| e.1.abs() as f64).sum();
            ix.s_hi = ix.s_hi.max(w as f64 * (l - 2.0));
            ix.t_hi = ix.t_hi.max(w as f64 * l);
            ix.e = ix.e.max(extra);
            ix.groups.push((code, gi));
        }
        Some(ix)
    }

    /// The opcode field as a pattern code, if every row of it is exactly ±1.
    #[inline]
    fn field_code(&self, a: &[f32]) -> Option<u32> {
        self.pattern.iter().enumerate().try_fold(0u32, |c, (i, &r)| match a[r] {
            1.0 => Some(c | 1 << i),
            -1.0 => Some(c),
            _ => None,
        })
    }

    /// `Σ w·a[r]` over `terms` (rows checked < d at construction).
    #[inline]
    fn dot(&self, terms: &Range<usize>, a: &[f32]) -> f32 {
        self.terms[terms.clone()].iter().fold(0.0, |s, &(r, w)| s + w * a[r])
    }

    /// Whether no unit of group `g` can fire on `a` (M = `m`).
    #[inline]
    fn shut(&self, g: &Group, a: &[f32], nonzero: &RowMask, m: f64) -> bool {
        if g.gate.is_empty() {
            return false;
        }
        let (mut s, mut t) = (0f64, 0f64);
        if g.gate_rows.meets(nonzero) {
            for &(r, w) in &self.terms[g.gate.clone()] {
                let v = w as f64 * a[r] as f64;
                s += v;
                t += v.abs();
            }
        }
        g.bound.shut(s, t, m, self.eps)
    }

    /// `y = a + W2·ReLU(W1·a + b1) + b2` for one column, up to the sign of
    /// zeros (the caller stores `y + 0.0`); `scan` describes
    /// `a`; `skip` enables the gate and zero skips, `fuse` the pair rules.
    pub fn apply(&self, a: &[f32], scan: &ColumnScan, y: &mut [f32], sc: Shortcuts) {
        let (skip, fuse) = (sc.gate_skip && scan.finite, sc.fused_pairs && scan.finite);
        let m = scan.max_abs as f64;
        let mut code = None;
        if fuse {
            for ((y, &a), &k) in y.iter_mut().zip(a).zip(&self.keep) {
                *y = f32::from_bits(a.to_bits() & k);
            }
        } else {
            y.copy_from_slice(a);
            self.group(&self.clears, a, scan, y, skip, false);
        }
        for fam in &self.families {
            let gated = !fam.gate_rows.is_empty();
            if skip && gated && !fam.gate_rows.meets(&scan.nonzero) && fam.bound.shut(0.0, 0.0, m, self.eps) {
                continue;
            }
            if let Some(ix) = fam.index.as_ref().filter(|_| skip && sc.gate_index) {
                let c = *code.get_or_insert_with(|| self.field_code(a));
                let (s, t) = (ix.s_hi + ix.e * m, ix.t_hi + ix.e * m);
                if let Some(c) = c.filter(|_| fam.bound.shut(s, t, m, self.eps)) {
                    for &(_, gi) in ix.groups.iter().filter(|g| g.0 == c) {
                        self.group(&self.groups[gi], a, scan, y, skip, fuse);
                    }
                    continue;
                }
            }
            for g in &self.groups[fam.groups.clone()] {
                self.group(g, a, scan, y, skip, fuse);
            }
        }
        for &(r, w) in &self.b2 {
            y[r] += w;
        }
    }

    /// Adds group `g`'s units to `y`.
    #[inline]
    fn group(&self, g: &Group, a: &[f32], scan: &ColumnScan, y: &mut [f32], skip: bool, fuse: bool) {
        if skip && self.shut(g, a, &scan.nonzero, scan.max_abs as f64) {
            return;
        }
        let gamma = if skip && !g.gate_rows.meets(&scan.nonzero) { 0.0 } else { self.dot(&g.gate, a) };
        if let Some(rows) = g.clears.filter(|_| fuse && skip && gamma == 0.0) {
            // Each pair adds −a[r] to row r (zero rows add nothing).
            for r in rows.and(&scan.nonzero).iter() {
                y[r] -= a[r];
            }
            return;
        }
        for f in &self.forms[g.forms.clone()] {
            let q = if skip && !f.reads.meets(&scan.nonzero) {
                if gamma as f64 + f.max_b <= 0.0 {
                    continue;
                }
                0.0
            } else {
                self.dot(&f.terms, a)
            };
            let units = &self.units[f.units.clone()];
            if fuse && f.pair && gamma + units[0].b == 0.0 {
                for &(r, w) in &self.w2[units[0].w2.clone()] {
                    y[r] += w * q;
                }
                continue;
            }
            for u in units {
                let pre = u.sign * q + gamma + u.b;
                if pre > 0.0 {
                    for &(r, w) in &self.w2[u.w2.clone()] {
                        y[r] += w * pre;
                    }
                }
            }
        }
    }

    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        (self.groups.len() + 1) * size_of::<Group>()
            + self.families.len() * size_of::<Family>()
            + self.keep.len() * 4
            + self.forms.len() * size_of::<Form>()
            + self.units.len() * size_of::<UnitRec>()
            + (self.terms.len() + self.w2.len() + self.b2.len()) * size_of::<(usize, f32)>()
    }
}
