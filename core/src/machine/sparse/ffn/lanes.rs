//! Forms side by side (the `lanes` shortcut): a group's forms whose units
//! all write one and the same row (a bit of a word, a gated copy, a step)
//! are evaluated [`LANES`] at a time, form `l` in lane `l`. A lane sums its
//! form's `q` term by term in the form's own order, then adds up
//! `w·ReLU(σ·q + γ + b)` over its units and adds that to its row: the same
//! sums as one form at a time, grouped differently (exact: dyadic values),
//! and written as element-wise loops over arrays that the compiler turns
//! into vector instructions (SSE on x86_64, simd128 on wasm).
//!
//! A chunk's terms are read in [`slots`] of one vector load each (a splat or
//! a shift); lanes with fewer units than others are padded with units with
//! `b = −∞`, whose ReLU is 0 whatever `q` and `γ`
//! are (a NaN compares false and gives 0 too). Padded lanes' results are
//! dropped. Only finite columns use lanes (the caller checks), so a real
//! lane's sums are those of the scalar path.

use super::{at, Entry, Ffn, Form, Span, UnitRec};
use crate::machine::sparse::slots;
use std::ops::Range;

/// Forms per chunk (one chunk of [`slots`]).
pub const LANES: usize = 8;

/// Term slot t of a chunk: lane l adds `w[l]·a[row + l]` (a shift) or
/// `w[l]·a[row]` (a splat).
pub struct LaneTerm {
    row: u32,
    shift: bool,
    w: [f32; LANES],
}

/// Unit slot k of a chunk: lane l adds `w[l]·ReLU(sign[l]·q[l] + γ + b[l])`.
pub struct LaneUnit {
    sign: [f32; LANES],
    b: [f32; LANES],
    w: [f32; LANES],
}

/// Up to [`LANES`] forms of one group, evaluated together.
pub struct Chunk {
    terms: Span,
    units: Span,
    /// The row lane l writes (lanes `lanes..` are padding).
    out: [u32; LANES],
    lanes: usize,
    /// Every lane is real and lane l writes row `out[0] + l`.
    out_shift: bool,
}

/// The row every unit of a form writes, if it is one and the same.
fn lane_row(units: &[UnitRec], w2: &[Entry]) -> Option<u32> {
    let mut row = None;
    for u in units {
        let [(r, _)] = w2[u.w2.start as usize..u.w2.end as usize] else { return None };
        if row.replace(r).is_some_and(|prev| prev != r) {
            return None;
        }
    }
    row
}

impl<const W: usize> Ffn<W> {
    /// Puts each group's lane forms first (ordered by the row they write) and
    /// builds their chunks; a group with fewer than three keeps them scalar.
    pub(super) fn build_lanes(&mut self) {
        let mut groups = std::mem::take(&mut self.groups);
        for g in &mut groups {
            let forms = g.forms.clone();
            let mut lane: Vec<(u32, Form)> = Vec::new();
            let mut rest: Vec<Form> = Vec::new();
            for f in self.forms.drain(forms.clone()).collect::<Vec<_>>() {
                let units = &self.units[f.units.start as usize..f.units.end as usize];
                match lane_row(units, &self.w2) {
                    Some(r) => lane.push((r, f)),
                    None => rest.push(f),
                }
            }
            if lane.len() < 3 {
                rest.splice(0..0, lane.drain(..).map(|e| e.1));
            }
            lane.sort_by_key(|e| e.0);
            let first_rest = forms.start + lane.len();
            let start = self.chunks.len();
            for part in lane.chunks(LANES) {
                let chunk = self.chunk(part);
                self.chunks.push(chunk);
            }
            let ordered: Vec<Form> = lane.into_iter().map(|e| e.1).chain(rest).collect();
            self.forms.splice(forms.start..forms.start, ordered);
            g.chunks = start..self.chunks.len();
            g.rest = first_rest..forms.end;
        }
        self.groups = groups;
    }

    fn chunk(&mut self, part: &[(u32, Form)]) -> Chunk {
        let mut out = [0u32; LANES];
        for (l, (r, _)) in part.iter().enumerate() {
            out[l] = *r;
        }
        let terms = |f: &Form| &self.terms[f.terms.start as usize..f.terms.end as usize];
        let units = |f: &Form| &self.units[f.units.start as usize..f.units.end as usize];
        let slots_u = part.iter().map(|(_, f)| units(f).len()).max().unwrap_or(0);
        let mut lanes: Vec<Vec<Entry>> = part.iter().map(|(_, f)| terms(f).to_vec()).collect();
        lanes.resize(LANES, Vec::new());
        let lane_terms: Vec<LaneTerm> = slots::cover(&lanes, self.keep.len())
            .into_iter()
            .map(|s| LaneTerm { row: s.row, shift: s.shift, w: s.w[0] })
            .collect();
        let mut lane_units = Vec::with_capacity(slots_u);
        for k in 0..slots_u {
            let mut slot = LaneUnit { sign: [0.0; LANES], b: [f32::NEG_INFINITY; LANES], w: [0.0; LANES] };
            for (l, (_, f)) in part.iter().enumerate() {
                if let Some(u) = units(f).get(k) {
                    let (_, w) = self.w2[u.w2.start as usize];
                    (slot.sign[l], slot.b[l], slot.w[l]) = (u.sign, u.b, w);
                }
            }
            lane_units.push(slot);
        }
        let terms = self.lane_terms.len() as u32..(self.lane_terms.len() + lane_terms.len()) as u32;
        let units = self.lane_units.len() as u32..(self.lane_units.len() + slots_u) as u32;
        self.lane_terms.extend(lane_terms);
        self.lane_units.extend(lane_units);
        let out_shift = part.len() == LANES && (0..LANES).all(|l| out[l] == out[0] + l as u32);
        Chunk { terms, units, out, lanes: part.len(), out_shift }
    }

    /// What [`Ffn::lanes`]' unchecked indexing relies on.
    pub(super) fn check_lanes(&self, d: usize) {
        let (t, u) = (self.lane_terms.len(), self.lane_units.len());
        for c in &self.chunks {
            assert!(c.terms.start <= c.terms.end && c.terms.end as usize <= t, "lane terms within bounds");
            assert!(c.units.start <= c.units.end && c.units.end as usize <= u, "lane units within bounds");
            assert!(c.lanes <= LANES && c.out.iter().all(|&r| (r as usize) < d), "lane rows within d");
        }
        let rows = |t: &LaneTerm| t.row as usize + if t.shift { LANES } else { 1 };
        assert!(self.lane_terms.iter().all(|t| rows(t) <= d), "lane rows within d");
        let out = |c: &Chunk| c.out[0] as usize + LANES;
        assert!(self.chunks.iter().filter(|c| c.out_shift).all(|c| out(c) <= d), "lane rows within d");
    }

    /// Adds the units of the chunks `chunks` to `y` (gate sum `gamma`;
    /// `a`, `y`: d rows, finite `a`).
    #[inline(always)]
    pub(super) fn lanes(&self, chunks: &Range<usize>, gamma: f32, a: &[f32], y: &mut [f32]) {
        for c in &self.chunks[chunks.clone()] {
            let mut q = [0f32; LANES];
            for t in at(&self.lane_terms, &c.terms) {
                let r = t.row as usize;
                // SAFETY: rows checked within d at construction (see `at`).
                let v: [f32; LANES] = unsafe {
                    if t.shift {
                        *(a.as_ptr().add(r) as *const [f32; LANES])
                    } else {
                        [*a.get_unchecked(r); LANES]
                    }
                };
                for l in 0..LANES {
                    q[l] += t.w[l] * v[l];
                }
            }
            let mut sum = [0f32; LANES];
            for u in at(&self.lane_units, &c.units) {
                for l in 0..LANES {
                    let pre = u.sign[l] * q[l] + gamma + u.b[l];
                    sum[l] += u.w[l] * if pre > 0.0 { pre } else { 0.0 };
                }
            }
            if c.out_shift {
                // SAFETY: as above.
                let dst = unsafe { &mut *(y.as_mut_ptr().add(c.out[0] as usize) as *mut [f32; LANES]) };
                for l in 0..LANES {
                    dst[l] += sum[l];
                }
                continue;
            }
            for (&r, &v) in c.out.iter().zip(&sum).take(c.lanes) {
                // SAFETY: as above.
                unsafe { *y.get_unchecked_mut(r as usize) += v };
            }
        }
    }
}
