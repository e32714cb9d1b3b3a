//! Evaluating an FFN on one column.

use super::{Ffn, Group};
use crate::machine::sparse::rows::{ColumnScan, RowMask};
use crate::machine::sparse::Shortcuts;
use std::ops::Range;

impl Ffn {
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
}
