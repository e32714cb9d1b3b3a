//! Which rows of one column are nonzero, as a bit mask, so a weight group
//! can tell with a few AND instructions that every row it reads is zero
//! (then every product it would form is ±0 and its sum is its bias).

/// Rows `0..256` (every configuration has d ≤ 228).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct RowMask([u64; 4]);

/// What one pass over a column finds: its nonzero rows, the largest |value|
/// (for the gate bounds), and whether every value is finite.
pub struct ColumnScan {
    pub nonzero: RowMask,
    pub max_abs: f32,
    pub finite: bool,
}

impl RowMask {
    pub const ROWS: usize = 256;
    pub const ALL: RowMask = RowMask([!0; 4]);

    pub fn of_rows(rows: impl IntoIterator<Item = usize>) -> RowMask {
        let mut m = RowMask::default();
        for r in rows {
            assert!(r < Self::ROWS, "row {r} beyond the mask");
            m.set(r);
        }
        m
    }

    #[inline]
    pub fn union(&self, o: &RowMask) -> RowMask {
        RowMask([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2], self.0[3] | o.0[3]])
    }

    #[inline]
    pub fn and(&self, o: &RowMask) -> RowMask {
        RowMask([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2], self.0[3] & o.0[3]])
    }

    /// The rows in the mask, in order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let r = w.trailing_zeros() as usize;
                    w &= w - 1;
                    64 * k + r
                })
            })
        })
    }

    #[inline]
    pub fn set(&mut self, r: usize) {
        self.0[r / 64] |= 1 << (r % 64);
    }

    #[inline]
    pub fn has(&self, r: usize) -> bool {
        self.0[r / 64] >> (r % 64) & 1 == 1
    }

    #[inline]
    pub fn not(&self) -> RowMask {
        RowMask([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    #[inline]
    pub fn meets(&self, other: &RowMask) -> bool {
        (0..4).fold(0, |acc, i| acc | (self.0[i] & other.0[i])) != 0
    }
}

impl ColumnScan {
    /// `a = inp (+ acc)`, scanned in the same pass. On the bits: |v| as an
    /// integer orders like |v| for every non-NaN float, and NaN or ±∞ is ≥
    /// the bits of +∞, so `finite` needs one integer compare per lane.
    #[inline]
    pub fn load(a: &mut [f32], inp: &[f32], acc: Option<&[f32]>) -> ColumnScan {
        assert!(a.len() == inp.len() && a.len() <= RowMask::ROWS && acc.is_none_or(|s| s.len() == a.len()));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86_64 baseline; the lengths are checked above.
        return unsafe { sse2::load(a, inp, acc) };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: simd128 is enabled for this build; the lengths are checked above.
        return unsafe { simd128::load(a, inp, acc) };
        #[allow(unreachable_code)]
        Self::load_scalar(a, inp, acc, 0, ColumnScan { nonzero: RowMask::default(), max_abs: 0.0, finite: true })
    }

    /// Rows `from..` one at a time, continuing `scan`.
    #[inline]
    fn load_scalar(a: &mut [f32], inp: &[f32], acc: Option<&[f32]>, from: usize, mut scan: ColumnScan) -> ColumnScan {
        for r in from..a.len() {
            let v = inp[r] + acc.map_or(0.0, |s| s[r]);
            a[r] = v;
            let abs = v.to_bits() & 0x7fff_ffff;
            scan.nonzero.0[r / 64] |= ((abs != 0) as u64) << (r % 64);
            scan.finite &= abs < INF;
            scan.max_abs = scan.max_abs.max(f32::from_bits(abs.min(INF)));
        }
        scan
    }
}

const INF: u32 = 0x7f80_0000;

/// `dst ← y + 0.0` (canonical zeros: −0.0 + 0.0 = +0.0); returns the rows
/// whose bits changed.
#[inline]
pub fn store(dst: &mut [f32], y: &[f32]) -> RowMask {
    assert!(dst.len() == y.len() && y.len() <= RowMask::ROWS);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86_64 baseline; the lengths are checked above.
    return unsafe { sse2::store(dst, y) };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    // SAFETY: simd128 is enabled for this build; the lengths are checked above.
    return unsafe { simd128::store(dst, y) };
    #[allow(unreachable_code)]
    store_scalar(dst, y, 0, RowMask::default())
}

#[inline]
fn store_scalar(dst: &mut [f32], y: &[f32], from: usize, mut changed: RowMask) -> RowMask {
    for r in from..y.len() {
        let v = y[r] + 0.0;
        changed.0[r / 64] |= ((v.to_bits() != dst[r].to_bits()) as u64) << (r % 64);
        dst[r] = v;
    }
    changed
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::{store_scalar, ColumnScan, RowMask, INF};
    use std::arch::x86_64::*;

    /// Sixteen rows per round; the tail row by row.
    #[inline]
    pub unsafe fn store(dst: &mut [f32], y: &[f32]) -> RowMask {
        let mut changed = RowMask::default();
        let body = y.len() / 16 * 16;
        for r in (0..body).step_by(16) {
            let mut bits = 0u64;
            for k in 0..4 {
                let at = r + 4 * k;
                let v = _mm_add_ps(_mm_loadu_ps(y.as_ptr().add(at)), _mm_setzero_ps());
                let old = _mm_loadu_ps(dst.as_ptr().add(at));
                let same = _mm_cmpeq_epi32(_mm_castps_si128(v), _mm_castps_si128(old));
                bits |= ((_mm_movemask_ps(_mm_castsi128_ps(same)) as u64) ^ 0xf) << (4 * k);
                _mm_storeu_ps(dst.as_mut_ptr().add(at), v);
            }
            changed.0[r / 64] |= bits << (r % 64);
        }
        store_scalar(dst, y, body, changed)
    }

    /// Sixteen rows per round as four independent lanes of four (so the
    /// max and the mask do not wait on each other); the tail row by row.
    #[inline]
    pub unsafe fn load(a: &mut [f32], inp: &[f32], acc: Option<&[f32]>) -> ColumnScan {
        let (abs_mask, last_finite) = (_mm_set1_epi32(0x7fff_ffff), _mm_set1_epi32(INF as i32 - 1));
        let (mut max, mut bad) = ([_mm_setzero_ps(); 4], _mm_setzero_si128());
        let mut nonzero = RowMask::default();
        let body = a.len() / 16 * 16;
        for r in (0..body).step_by(16) {
            let mut bits = 0u64;
            for (k, max) in max.iter_mut().enumerate() {
                let at = r + 4 * k;
                let mut v = _mm_loadu_ps(inp.as_ptr().add(at));
                if let Some(s) = acc {
                    v = _mm_add_ps(v, _mm_loadu_ps(s.as_ptr().add(at)));
                }
                _mm_storeu_ps(a.as_mut_ptr().add(at), v);
                let abs = _mm_and_si128(_mm_castps_si128(v), abs_mask);
                let zero = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(abs, _mm_setzero_si128()))) as u64;
                bits |= (zero ^ 0xf) << (4 * k);
                bad = _mm_or_si128(bad, _mm_cmpgt_epi32(abs, last_finite));
                *max = _mm_max_ps(*max, _mm_castsi128_ps(abs));
            }
            nonzero.0[r / 64] |= bits << (r % 64);
        }
        let mut lanes = [0f32; 4];
        let mut max_abs = 0f32;
        for m in max {
            _mm_storeu_ps(lanes.as_mut_ptr(), m);
            max_abs = lanes.iter().fold(max_abs, |m, &v| m.max(v));
        }
        let finite = _mm_movemask_epi8(bad) == 0;
        ColumnScan::load_scalar(a, inp, acc, body, ColumnScan { nonzero, max_abs, finite })
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::{store_scalar, ColumnScan, RowMask, INF};
    use std::arch::wasm32::*;

    /// As the SSE2 version: sixteen rows per round.
    #[inline]
    pub unsafe fn store(dst: &mut [f32], y: &[f32]) -> RowMask {
        let mut changed = RowMask::default();
        let body = y.len() / 16 * 16;
        for r in (0..body).step_by(16) {
            let mut bits = 0u64;
            for k in 0..4 {
                let at = r + 4 * k;
                let v = f32x4_add(v128_load(y.as_ptr().add(at) as *const v128), f32x4_splat(0.0));
                let old = v128_load(dst.as_ptr().add(at) as *const v128);
                bits |= (i32x4_bitmask(i32x4_ne(v, old)) as u64) << (4 * k);
                v128_store(dst.as_mut_ptr().add(at) as *mut v128, v);
            }
            changed.0[r / 64] |= bits << (r % 64);
        }
        store_scalar(dst, y, body, changed)
    }

    /// As the SSE2 version: sixteen rows per round in four lanes of four.
    #[inline]
    pub unsafe fn load(a: &mut [f32], inp: &[f32], acc: Option<&[f32]>) -> ColumnScan {
        let (abs_mask, last_finite) = (i32x4_splat(0x7fff_ffff), i32x4_splat(INF as i32 - 1));
        let (mut max, mut bad) = ([f32x4_splat(0.0); 4], i32x4_splat(0));
        let mut nonzero = RowMask::default();
        let body = a.len() / 16 * 16;
        for r in (0..body).step_by(16) {
            let mut bits = 0u64;
            for (k, max) in max.iter_mut().enumerate() {
                let at = r + 4 * k;
                let mut v = v128_load(inp.as_ptr().add(at) as *const v128);
                if let Some(s) = acc {
                    v = f32x4_add(v, v128_load(s.as_ptr().add(at) as *const v128));
                }
                v128_store(a.as_mut_ptr().add(at) as *mut v128, v);
                let abs = v128_and(v, abs_mask);
                bits |= (i32x4_bitmask(i32x4_ne(abs, i32x4_splat(0))) as u64) << (4 * k);
                bad = v128_or(bad, i32x4_gt(abs, last_finite));
                *max = f32x4_pmax(*max, abs);
            }
            nonzero.0[r / 64] |= bits << (r % 64);
        }
        let mut max_abs = 0f32;
        for m in max {
            let lanes = [
                f32x4_extract_lane::<0>(m),
                f32x4_extract_lane::<1>(m),
                f32x4_extract_lane::<2>(m),
                f32x4_extract_lane::<3>(m),
            ];
            max_abs = lanes.iter().fold(max_abs, |m, &v| m.max(v));
        }
        let finite = !v128_any_true(bad);
        ColumnScan::load_scalar(a, inp, acc, body, ColumnScan { nonzero, max_abs, finite })
    }
}
