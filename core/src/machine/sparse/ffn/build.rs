//! Building the evaluation form of an FFN from its units: groups, forms,
//! families, the opcode index and the fused clears.

use super::{Bound, Entry, Family, Ffn, Form, Group, PatternIndex, Span, UnitRec};
use crate::machine::sparse::rows::RowMask;
use crate::machine::weights::{Ffn as FfnWeights, Unit};
use std::collections::HashMap;
use std::ops::Range;

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
fn negated<R: PartialEq>(a: &[(R, f32)], b: &[(R, f32)]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0 && x.1 == -y.1)
}

fn key(terms: &[(usize, f32)]) -> Vec<(usize, u32)> {
    terms.iter().map(|e| (e.0, e.1.to_bits())).collect()
}

/// Appends `entries` to `v`, returning where they went.
fn push(v: &mut Vec<Entry>, entries: &[(usize, f32)]) -> Span {
    let at = v.len() as u32;
    v.extend(entries.iter().map(|&(r, w)| (u32::try_from(r).expect("row fits u32"), w)));
    at..v.len() as u32
}

/// The value bound at which [`Ffn::index_tight`] judges a group's bound:
/// four times column 0's usual M, so that a loose group is one that the
/// index could not shut at any step.
const NOMINAL_M: f64 = 16.0;

fn span(r: &Span) -> Range<usize> {
    r.start as usize..r.end as usize
}

impl<const W: usize> Ffn<W> {
    /// `gate_weight`: terms with |w| ≥ this are treated as gate terms.
    /// `pattern`: the opcode field's rows, bit 0 first.
    pub fn new(f: &FfnWeights, d: usize, gate_weight: f32, pattern: &[usize]) -> Ffn<W> {
        assert!(d <= RowMask::<W>::ROWS, "d = {d} rows exceed the row mask");
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
            ones: vec![!0; d],
            keep_zero: RowMask::default(),
            soft: RowMask::default(),
            pattern_rows: RowMask::of_rows(pattern.iter().copied()),
            forms: Vec::new(),
            units: Vec::new(),
            chunks: Vec::new(),
            lane_terms: Vec::new(),
            lane_units: Vec::new(),
            terms: Vec::new(),
            w2: Vec::new(),
            b2: f.b2.clone(),
            b2_rows: RowMask::of_rows(f.b2.iter().map(|e| e.0)),
            rows: RowMask::of_rows(0..d),
            watch: RowMask::default(),
            touch: RowMask::default(),
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
            let gate_at = push(&mut ffn.terms, gate);
            let first_form = ffn.forms.len();
            let (mut bound, mut reads) = (Bound::default(), RowMask::default());
            for units in forms {
                let rest = &splits[units[0]].rest;
                let terms = push(&mut ffn.terms, rest);
                let first_unit = ffn.units.len();
                let mut form_max_b = f64::NEG_INFINITY;
                for i in units {
                    let u = &f.units[i];
                    let w2 = push(&mut ffn.w2, &u.w2);
                    ffn.units.push(UnitRec { sign: splits[i].sign, b: u.b1, w2 });
                    form_max_b = form_max_b.max(u.b1 as f64);
                    bound.max_abs_b = bound.max_abs_b.max((u.b1 as f64).abs());
                }
                bound.max_b = bound.max_b.max(form_max_b);
                bound.max_s = bound.max_s.max(rest.iter().map(|e| e.1.abs() as f64).sum());
                let us = &ffn.units[first_unit..];
                let pair = us.len() == 2
                    && (us[0].sign, us[1].sign) == (1.0, -1.0)
                    && us[0].b == us[1].b
                    && negated(&ffn.w2[span(&us[0].w2)], &ffn.w2[span(&us[1].w2)]);
                reads = reads.union(&RowMask::of_rows(rest.iter().map(|e| e.0)));
                ffn.forms.push(Form {
                    terms,
                    units: first_unit as u32..ffn.units.len() as u32,
                    max_b: form_max_b,
                    pair,
                });
                if gi == clears_at {
                    ffn.keep[rest[0].0] = 0;
                    ffn.keep_zero.set(rest[0].0);
                }
            }
            let forms = first_form..ffn.forms.len();
            let rows = reads;
            let gate_rows = RowMask::of_rows(gate.iter().map(|e| e.0));
            let units = ffn.forms[forms.clone()].first().map_or(0, |f| f.units.start as usize)..ffn.units.len();
            let writes = RowMask::of_rows(
                ffn.units[units].iter().flat_map(|u| ffn.w2[span(&u.w2)].iter().map(|e| e.0 as usize)),
            );
            if clears_only {
                ffn.soft = ffn.soft.union(&rows);
            }
            let group = Group {
                gate: gate_at,
                gate_rows,
                gate_abs: gate.iter().map(|e| e.1.abs() as f64).sum(),
                soft_gate: false,
                touch: gate_rows.union(&rows),
                writes,
                chunks: 0..0,
                rest: forms.clone(),
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
        for g in &mut ffn.groups {
            g.soft_gate = g.gate_rows.meets(&ffn.soft);
        }
        ffn.watch = ffn.groups.iter().chain([&ffn.clears]).fold(RowMask::default(), |m, g| m.union(&g.touch));
        let writes = ffn.groups.iter().chain([&ffn.clears]).fold(RowMask::default(), |m, g| m.union(&g.writes));
        ffn.touch = ffn.watch.union(&writes).union(&ffn.keep_zero).union(&ffn.b2_rows);
        ffn.build_lanes();
        ffn.gather_families();
        // What `at` and the evaluation's unchecked indexing rely on.
        assert!(ffn.terms.iter().chain(&ffn.w2).all(|e| (e.0 as usize) < d), "rows within d");
        assert!(ffn.b2.iter().all(|e| e.0 < d), "rows within d");
        let (terms, w2, units) = (ffn.terms.len(), ffn.w2.len(), ffn.units.len());
        let groups = ffn.groups.iter().chain([&ffn.clears]);
        assert!(groups.clone().all(|g| g.gate.start <= g.gate.end && g.gate.end as usize <= terms));
        assert!(groups.flat_map(|g| &ffn.forms[g.forms.clone()]).all(|f| f.terms.start <= f.terms.end
            && f.terms.end as usize <= terms
            && f.units.start <= f.units.end
            && f.units.end as usize <= units));
        assert!(ffn.units.iter().all(|u| u.w2.start <= u.w2.end && u.w2.end as usize <= w2));
        ffn.check_lanes(d);
        ffn
    }

    /// Orders the groups by the rows their gates read (first-seen order;
    /// the order of groups never changes a sum) and records the families.
    /// An opcode family is split in two where some groups' bounds are loose
    /// ([`Ffn::index_tight`]): its index joins its groups' bounds, and one
    /// group reading a wide weighted sum would keep the index from shutting
    /// the others (in L2 it made column 0 test all 18 opcode groups one by
    /// one at every step). The split decides only how often the index
    /// succeeds, never a result: each family's bound covers its own groups.
    fn gather_families(&mut self) {
        let mut masks: Vec<RowMask<W>> = Vec::new();
        for g in &self.groups {
            if !masks.contains(&g.gate_rows) {
                masks.push(g.gate_rows);
            }
        }
        let mut groups = std::mem::take(&mut self.groups);
        groups.sort_by_key(|g| masks.iter().position(|m| *m == g.gate_rows));
        for mask in masks {
            let family: Vec<Group<W>> = groups.extract_if(.., |g| g.gate_rows == mask).collect();
            let (tight, loose): (Vec<_>, Vec<_>) = family.into_iter().partition(|g| self.index_tight(g));
            for part in [tight, loose].into_iter().filter(|p| !p.is_empty()) {
                let start = self.groups.len();
                self.groups.extend(part);
                let bound = self.groups[start..].iter().fold(Bound::default(), |b, g| b.join(g.bound));
                let groups = start..self.groups.len();
                let index = self.pattern_index(groups.clone());
                self.families.push(Family { gate_rows: mask, groups, bound, index });
            }
        }
    }

    /// Whether group `g`'s own bound lets the pattern index shut it when its
    /// opcode pattern is one bit off, at a value bound M of [`NOMINAL_M`]
    /// (column 0's largest |value| is about 1, so M is 4 at most steps). True
    /// for a group whose gate is not a full opcode pattern (it joins no index).
    fn index_tight(&self, g: &Group<W>) -> bool {
        let Some(ws) = self.pattern_weights(&self.terms[span(&g.gate)]) else { return true };
        let (w, l) = (ws[0].abs() as f64, self.pattern.len() as f64);
        w * (l - 2.0) + g.bound.max_b + g.bound.max_s * NOMINAL_M <= 0.0
    }

    /// A gate's weights on the opcode field's rows, bit 0 first, if it has one on each.
    fn pattern_weights(&self, gate: &[Entry]) -> Option<Vec<f32>> {
        let on = |r: usize| gate.iter().find(|e| e.0 as usize == r).map(|e| e.1);
        self.pattern.iter().map(|&r| on(r)).collect()
    }

    /// The index of a family whose every gate holds a full opcode pattern.
    fn pattern_index(&self, groups: Range<usize>) -> Option<PatternIndex<W>> {
        let l = self.pattern.len() as f64;
        let mut ix = PatternIndex {
            s_hi: f64::NEG_INFINITY,
            t_hi: 0.0,
            e: 0.0,
            extra: Vec::new(),
            extra_rows: RowMask::default(),
            groups: Vec::new(),
        };
        for gi in groups {
            let gate = &self.terms[span(&self.groups[gi].gate)];
            let ws = self.pattern_weights(gate)?;
            let w = ws[0].abs();
            if w == 0.0 || ws.iter().any(|v| v.abs() != w) {
                return None;
            }
            let code = ws.iter().enumerate().fold(0u32, |c, (i, v)| c | ((*v > 0.0) as u32) << i);
            let extra: f64 =
                gate.iter().filter(|e| !self.pattern.contains(&(e.0 as usize))).map(|e| e.1.abs() as f64).sum();
            ix.s_hi = ix.s_hi.max(w as f64 * (l - 2.0));
            ix.t_hi = ix.t_hi.max(w as f64 * l);
            ix.e = ix.e.max(extra);
            for &(r, w) in gate.iter().filter(|e| !self.pattern.contains(&(e.0 as usize))) {
                let (r, w) = (r as usize, w.abs() as f64);
                match ix.extra.iter_mut().find(|e| e.0 == r) {
                    Some(e) => e.1 = e.1.max(w),
                    None => ix.extra.push((r, w)),
                }
                ix.extra_rows.set(r);
            }
            ix.groups.push((code, gi));
        }
        Some(ix)
    }
}
