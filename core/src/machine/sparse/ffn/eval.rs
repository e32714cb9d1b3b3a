//! Evaluating an FFN on one column, and finding the column's *inert rows*:
//! the rows its output does not depend on, given what the other rows hold.
//!
//! A row is inert when its value is cleared (fused, or by a clear pair whose
//! gate is exactly open) and no unit that can fire reads it: every group
//! reading it was shut by a bound that holds for any |value| ≤ the returned
//! tolerance (for a gate term on a clearable row, the bound takes the term at
//! its worst), and no exact value of it was used (an open clear's gate, a
//! family's all-zero gate rows, the opcode field). While only inert rows
//! change, and stay within the tolerance, every group evaluates as it did:
//! the output is the same (the `dirty_rows` shortcut's use of it in
//! `sparse::Sparse::layer`). A row is *passed through* when nothing clears,
//! reads (as above) or writes it: its output is its input (+ 0.0), so a
//! change of it moves the output by exactly that much.

use super::{at, Ffn, Group, Span};
use crate::machine::sparse::rows::{self, ColumnScan, RowMask};
use crate::machine::sparse::Shortcuts;

/// The rows a column's output ignores or copies, while they stay within
/// `tol` in |value|.
#[derive(Clone, Copy, Default)]
pub struct Inert<const W: usize> {
    /// The inert rows and the passed-through rows.
    free: RowMask<W>,
    /// The passed-through rows.
    pass: RowMask<W>,
    /// The rows that must stay within `tol` (the others no unit reads).
    watch: RowMask<W>,
    tol: f32,
    /// The column's rows (`free` lies within them).
    d: u32,
}

impl<const W: usize> Inert<W> {
    /// After the rows `moved` of a column's input `src (+ acc)` changed,
    /// brings the last output `dst` up to date without an evaluation if that
    /// is exact: `Some(rows of dst that changed)`, else None (evaluate).
    #[inline(always)]
    pub fn carry(&self, moved: RowMask<W>, src: &[f32], acc: Option<&[f32]>, dst: &mut [f32]) -> Option<RowMask<W>> {
        if !moved.and(&self.free.not()).is_empty() {
            return None;
        }
        // `free` lies within the column's rows, and so does `moved` now: the
        // blocks of eight rows below stay within the column.
        let d = src.len();
        assert!(self.d as usize <= d && d >= 8 && acc.is_none_or(|s| s.len() == d) && dst.len() == d);
        let value = |at: usize| rows::value8(src, acc, at);
        // All rows checked before any is written (on None the caller evaluates
        // and compares with the output as it was). `<=` is false for NaN: a NaN
        // is never carried where a unit reads it.
        let tol = self.tol;
        let within = moved.and(&self.watch).blocks(d, |at, bits| bits & !rows::within8(&value(at), tol) == 0);
        if !within {
            return None;
        }
        let mut changed = RowMask::default();
        moved.and(&self.pass).blocks(d, |at, bits| {
            let out: &mut [f32; 8] = (&mut dst[at..at + 8]).try_into().expect("eight rows");
            changed.or_bits(at, rows::put8(out, &value(at), bits));
            true
        });
        Some(changed)
    }
}

/// One column's evaluation: its input, what is known of it, the bound's M
/// and which shortcuts apply.
struct Pass<'a, const W: usize> {
    a: &'a [f32],
    nonzero: RowMask<W>,
    m: f64,
    skip: bool,
    fuse: bool,
    lanes: bool,
}

/// What a group did with a column.
enum Outcome<const W: usize> {
    /// Shut; the bound used the exact values of these rows.
    Shut(RowMask<W>),
    /// A clear group with its gate exactly open: its rows' values cancel.
    Cleared(RowMask<W>),
    Live,
}

impl<const W: usize> Ffn<W> {
    /// The opcode field as a pattern code, if every row of it is exactly ±1.
    #[inline(always)]
    fn field_code(&self, a: &[f32]) -> Option<u32> {
        // On the bits, without a branch per row: +1 sets the bit, ±1 keeps the field exact.
        const ONE: u32 = 0x3f80_0000;
        let (mut code, mut odd) = (0u32, false);
        for (i, &r) in self.pattern.iter().enumerate() {
            let bits = a[r].to_bits();
            code |= u32::from(bits == ONE) << i;
            odd |= bits & 0x7fff_ffff != ONE;
        }
        (!odd).then_some(code)
    }

    /// `Σ w·a[r]` over `terms` (rows checked < d at construction, `a` of d rows).
    #[inline(always)]
    fn dot(&self, terms: &Span, a: &[f32]) -> f32 {
        // SAFETY: see `at`.
        at(&self.terms, terms).iter().fold(0.0, |s, &(r, w)| s + w * unsafe { *a.get_unchecked(r as usize) })
    }

    /// Whether no unit of group `g` can fire on `a` (M = `m`): `Some(rows
    /// whose exact values the proof used)`. It tries first with the gate terms
    /// on clearable rows at their worst (|w|·M), so those rows may change.
    #[inline(always)]
    fn shut(&self, g: &Group<W>, a: &[f32], nonzero: &RowMask<W>, m: f64) -> Option<RowMask<W>> {
        if g.gate.is_empty() {
            return None;
        }
        let (mut s, mut t, mut soft_s, mut soft_t) = (0f64, 0f64, 0f64, 0f64);
        if g.gate_rows.meets(nonzero) || g.gate_rows.meets(&self.soft) {
            for &(r, w) in at(&self.terms, &g.gate) {
                let (r, v) = (r as usize, w as f64 * a[r as usize] as f64);
                s += v;
                t += v.abs();
                let soft = self.soft.has(r);
                soft_s += if soft { (w as f64).abs() * m } else { v };
                soft_t += if soft { (w as f64).abs() * m } else { v.abs() };
            }
        }
        if g.bound.shut(soft_s, soft_t, m, self.eps) {
            Some(g.gate_rows.and(&self.soft.not()))
        } else {
            g.bound.shut(s, t, m, self.eps).then_some(g.gate_rows)
        }
    }

    /// What `y` starts from, bitwise: `a & start(sc)` (the caller forms it
    /// while loading `a`).
    pub fn start(&self, sc: Shortcuts) -> &[u32] {
        if sc.fused_pairs {
            &self.keep
        } else {
            &self.ones
        }
    }

    /// `y = a + W2·ReLU(W1·a + b1) + b2` for one column, up to the sign of
    /// zeros (the caller stores `y + 0.0`), `y` holding `a & start(sc)` on
    /// entry; `scan` describes `a`. Returns the inert rows (none unless
    /// `dirty_rows` and the fused, skipping path apply).
    #[inline(always)]
    pub fn apply(&self, a: &[f32], scan: &ColumnScan<W>, y: &mut [f32], sc: Shortcuts) -> Inert<W> {
        // What the unchecked indexing of the rows relies on.
        assert!(a.len() == self.keep.len() && y.len() == a.len(), "columns of d rows");
        let (skip, fuse) = (sc.gate_skip && scan.finite, sc.fused_pairs && scan.finite);
        // Every bound is taken at M = max(2·|largest value|, 4), so that what it
        // shuts stays shut while inert rows change within that tolerance.
        let tol = (2.0 * scan.max_abs).max(4.0);
        let m = tol as f64;
        let p = Pass { a, nonzero: scan.nonzero, m, skip, fuse, lanes: sc.lanes && scan.finite };
        let mut code = None;
        // Rows whose exact values the result depends on, rows cleared, rows written.
        let (mut pinned, mut cleared, mut written) = (RowMask::default(), RowMask::default(), RowMask::default());
        let mut track = |o: Outcome<W>, g: &Group<W>, pinned: &mut RowMask<W>| match o {
            Outcome::Shut(rows) => *pinned = pinned.union(&rows),
            Outcome::Cleared(rows) => {
                cleared = cleared.union(&rows);
                *pinned = pinned.union(&g.gate_rows);
            }
            Outcome::Live => {
                *pinned = pinned.union(&g.touch);
                written = written.union(&g.writes);
            }
        };
        if !fuse {
            // Not finite: the clears are evaluated as units after all.
            if sc.fused_pairs {
                y.copy_from_slice(a);
            }
            self.group(&self.clears, &p, y);
        }
        for fam in &self.families {
            let gated = !fam.gate_rows.is_empty();
            if skip && gated && !fam.gate_rows.meets(&scan.nonzero) && fam.bound.shut(0.0, 0.0, m, self.eps) {
                pinned = pinned.union(&fam.gate_rows);
                continue;
            }
            if let Some(ix) = fam.index.as_ref().filter(|_| skip && sc.gate_index) {
                let c = *code.get_or_insert_with(|| self.field_code(a));
                let shut = |e: f64| fam.bound.shut(ix.s_hi + e, ix.t_hi + e, m, self.eps);
                // The other terms at M (only the opcode's rows are pinned), or at their values.
                let exact = || ix.extra.iter().map(|&(r, w)| w * (a[r] as f64).abs()).sum::<f64>();
                let pins = if c.is_none() {
                    None
                } else if shut(ix.e * m) {
                    Some(self.pattern_rows)
                } else {
                    shut(exact()).then(|| self.pattern_rows.union(&ix.extra_rows))
                };
                if let (Some(c), Some(pins)) = (c, pins) {
                    pinned = pinned.union(&pins);
                    for &(_, gi) in ix.groups.iter().filter(|g| g.0 == c) {
                        let g = &self.groups[gi];
                        track(self.group(g, &p, y), g, &mut pinned);
                    }
                    continue;
                }
            }
            for g in &self.groups[fam.groups.clone()] {
                track(self.group(g, &p, y), g, &mut pinned);
            }
        }
        for &(r, w) in &self.b2 {
            y[r] += w;
        }
        if !(skip && fuse && sc.dirty_rows) {
            return Inert::default();
        }
        let rows = self.keep_zero.union(&cleared).and(&pinned.not());
        let pass = rows.union(&pinned).union(&written).union(&self.b2_rows).not().and(&self.rows);
        Inert { free: rows.union(&pass), pass, watch: self.watch, tol, d: a.len() as u32 }
    }

    /// Adds group `g`'s units to `y`.
    #[inline(always)]
    fn group(&self, g: &Group<W>, p: &Pass<W>, y: &mut [f32]) -> Outcome<W> {
        let (a, skip, fuse) = (p.a, p.skip, p.fuse);
        let gamma = self.dot(&g.gate, a);
        // Only a group whose best unit is ≤ 0 at this γ can be shut: the
        // bound is tried only then (evaluating is always exact).
        let (b, m) = (&g.bound, p.m);
        if skip && !g.gate.is_empty() && gamma as f64 + b.max_b + b.max_s * m <= 0.0 {
            if !g.soft_gate {
                // γ is the f32 sum of the gate terms: within eps·Σ|w|·M of the
                // exact sum, so the bound holds with the terms' total at its worst.
                let rest = b.max_s * m;
                if gamma as f64 + b.max_b + rest + self.eps * (2.0 * g.gate_abs * m + b.max_abs_b + rest) <= 0.0 {
                    return Outcome::Shut(g.gate_rows);
                }
            } else if let Some(pinned) = self.shut(g, a, &p.nonzero, m) {
                return Outcome::Shut(pinned);
            }
        }
        if let Some(rows) = g.clears.filter(|_| fuse && skip && gamma == 0.0) {
            // Each pair adds −a[r] to row r (zero rows add nothing).
            rows.and(&p.nonzero).all(|r| {
                y[r] -= a[r];
                true
            });
            return Outcome::Cleared(rows);
        }
        let forms = if p.lanes {
            self.lanes(&g.chunks, gamma, a, y);
            g.rest.clone()
        } else {
            g.forms.clone()
        };
        for f in &self.forms[forms] {
            let q = self.dot(&f.terms, a);
            // q = ±0 (e.g. every row it reads is zero): its units are ReLU(γ + b).
            if skip && q == 0.0 && gamma as f64 + f.max_b <= 0.0 {
                continue;
            }
            let units = at(&self.units, &f.units);
            let add = |y: &mut [f32], w2: &Span, v: f32| {
                for &(r, w) in at(&self.w2, w2) {
                    // SAFETY: see `at`.
                    unsafe { *y.get_unchecked_mut(r as usize) += w * v };
                }
            };
            if fuse && f.pair && gamma + units[0].b == 0.0 {
                add(y, &units[0].w2, q);
                continue;
            }
            for u in units {
                let pre = u.sign * q + gamma + u.b;
                if pre > 0.0 {
                    add(y, &u.w2, pre);
                }
            }
        }
        Outcome::Live
    }
}
