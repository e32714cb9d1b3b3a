//! Covering a small sparse matrix by vector loads. The matrix has `lanes`
//! (an FFN form each, or a key dimension, or a value slot), each a list of
//! `(row, weight)` terms over one column. A slot is one load of the column
//! for every lane at once — a splat (every lane reads one row) or a shift
//! (lane l reads row `base + l`: the bits of a word in the lanes of the bits)
//! — with a weight per lane (0 where the slot has nothing for that lane).
//! Summing `w · load` over the slots gives every lane its terms' sum, in
//! another order (exact: dyadic values) and with `0·x` added for the lanes
//! a slot does not serve (±0 for finite x).

pub struct Slot {
    pub row: u32,
    pub shift: bool,
    /// The lanes the slot has weights for.
    pub lanes: usize,
    /// One weight per lane, eight lanes a chunk (0 past `lanes`).
    pub w: Vec<[f32; 8]>,
}

impl Slot {
    /// The rows the slot loads (`row..row + lanes` for a shift).
    pub fn end(&self) -> usize {
        self.row as usize + if self.shift { self.lanes } else { 1 }
    }
}

/// `out = Σ w · load` over `slots` (lanes `0..lanes` in chunks of eight;
/// every slot covers as many chunks as `out` has), the lanes past `lanes`
/// +0. A shift whose chunks stay within the column loads them whole: its
/// weights past `lanes` are 0 and those lanes are cleared afterwards, so
/// what they read (a NaN: 0·NaN) never counts.
#[inline(always)]
pub fn sum(slots: &[Slot], col: &[f32], lanes: usize, out: &mut [[f32; 8]]) {
    let width = 8 * out.len();
    debug_assert!(out.len() == lanes.div_ceil(8));
    if slots.is_empty() {
        out.fill([0.0; 8]);
    }
    for (k, s) in slots.iter().enumerate() {
        let at = s.row as usize;
        debug_assert!(s.w.len() == out.len() && s.end() <= col.len());
        // The sums start from +0 (the first slot's chunks are not read first, so `out`
        // is not cleared by a call to memset): the same additions as from a cleared `out`.
        let start = |o: &[f32; 8]| if k == 0 { [0.0; 8] } else { *o };
        // Whole chunks in locals: the compiler sees they do not overlap.
        if !s.shift {
            let x = col[at];
            for (o, w) in out.iter_mut().zip(&s.w) {
                let (a, w) = (start(o), *w);
                *o = std::array::from_fn(|l| a[l] + w[l] * x);
            }
        } else if at + width <= col.len() {
            for (c, (o, w)) in out.iter_mut().zip(&s.w).enumerate() {
                let x: [f32; 8] = col[at + 8 * c..at + 8 * c + 8].try_into().expect("eight rows");
                let (a, w) = (start(o), *w);
                *o = std::array::from_fn(|l| a[l] + w[l] * x[l]);
            }
        } else {
            if k == 0 {
                out.fill([0.0; 8]);
            }
            let flat = out.as_flattened_mut();
            for (l, x) in col[at..at + s.lanes].iter().enumerate() {
                flat[l] += s.w[l / 8][l % 8] * x;
            }
        }
    }
    // The lanes past `lanes` (all in the last chunk) are +0, by a select rather than a memset.
    if let Some(last) = out.last_mut() {
        let keep = lanes - 8 * (width / 8 - 1);
        let v = *last;
        *last = std::array::from_fn(|l| if l < keep { v[l] } else { 0.0 });
    }
}

/// Covers every term of `lanes` by slots, greedily: each time the splat or
/// shift (within `d` rows) that serves the most lanes not yet served.
pub fn cover(lanes: &[Vec<(u32, f32)>], d: usize) -> Vec<Slot> {
    let width = lanes.len();
    let mut left: Vec<(usize, u32, f32)> =
        lanes.iter().enumerate().flat_map(|(l, ts)| ts.iter().map(move |&(r, w)| (l, r, w))).collect();
    let hit = |row: u32, shift: bool, l: usize, r: u32| if shift { r as usize == row as usize + l } else { r == row };
    let mut out = Vec::new();
    while !left.is_empty() {
        // A slot serves a lane once: count the lanes it reaches.
        let serves = |row: u32, shift: bool| {
            let mut lanes_hit = vec![false; width];
            left.iter().filter(|e| hit(row, shift, e.0, e.1)).for_each(|e| lanes_hit[e.0] = true);
            lanes_hit.iter().filter(|&&h| h).count()
        };
        let mut best = (0, 0u32, false);
        for &(l, r, _) in &left {
            let n = serves(r, false);
            if n > best.0 {
                best = (n, r, false);
            }
            if let Some(base) = (r as usize).checked_sub(l).filter(|b| b + width <= d) {
                let n = serves(base as u32, true);
                if n > best.0 {
                    best = (n, base as u32, true);
                }
            }
        }
        let (_, row, shift) = best;
        let mut slot = Slot { row, shift, lanes: width, w: vec![[0.0; 8]; width.div_ceil(8)] };
        let mut taken = vec![false; width];
        left.retain(|&(l, r, w)| {
            let take = !taken[l] && hit(row, shift, l, r);
            if take {
                (slot.w[l / 8][l % 8], taken[l]) = (w, true);
            }
            !take
        });
        out.push(slot);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slots add up to each lane's terms, and bit-sliced terms take one shift.
    #[test]
    fn slots_sum_every_lane_and_shift_bit_slices() {
        let lanes: Vec<Vec<(u32, f32)>> =
            (0..8).map(|l| vec![(10 + l, 1.0), (40, -2.0 - l as f32), (20 + 2 * l, 0.5), (10 + l, 3.0)]).collect();
        let slots = cover(&lanes, 64);
        let col: Vec<f32> = (0..64).map(|r| r as f32 * 0.25 - 3.0).collect();
        for (l, terms) in lanes.iter().enumerate() {
            let want: f32 = terms.iter().map(|&(r, w)| w * col[r as usize]).sum();
            let got: f32 = slots
                .iter()
                .map(|s| s.w[l / 8][l % 8] * col[if s.shift { s.row as usize + l } else { s.row as usize }])
                .sum();
            assert_eq!(got, want, "lane {l}");
        }
        assert!(slots.iter().all(|s| s.end() <= 64));
        // Rows 10 + l twice (two shifts), row 40 (a splat), rows 20 + 2l (eight splats).
        assert_eq!(slots.len(), 2 + 1 + 8);
        // `sum` over nine lanes (two chunks): the shift ending at row 50 loads whole
        // chunks when the column goes on (the NaN past it does not count), else row by row.
        let nine: Vec<Vec<(u32, f32)>> = (0..9).map(|l| vec![(41 + l, 1.0 + l as f32), (3, -0.5)]).collect();
        let mut col = col;
        col[52] = f32::NAN;
        for d in [64, 50] {
            let slots = cover(&nine, d);
            let mut out = [[0.0; 8]; 2];
            sum(&slots, &col[..d], 9, &mut out);
            let want: Vec<f32> = nine.iter().map(|t| t.iter().map(|&(r, w)| w * col[r as usize]).sum()).collect();
            assert_eq!(out.as_flattened()[..9], want[..], "d = {d}");
            assert_eq!(out.as_flattened()[9..], [0.0; 7], "d = {d}");
        }
    }
}
