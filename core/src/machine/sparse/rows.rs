//! Which rows of one column are nonzero, as a bit mask, so a weight group
//! can tell with a few AND instructions that every row it reads is zero
//! (then every product it would form is ±0 and its sum is its bias), and the
//! two passes every evaluated column takes: in (input + attention, scanned,
//! and the FFN's starting output) and out (canonical zeros, changed rows).
//! Both run four rows per instruction (SSE2 on x86_64, simd128 on wasm).

/// Rows `0..256` (every configuration has d ≤ 228).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct RowMask([u64; 4]);

/// The rows of a [`RowMask`], in order.
pub struct Rows {
    words: [u64; 4],
    k: usize,
}

impl Iterator for Rows {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.k < 4 {
            let w = &mut self.words[self.k];
            if *w != 0 {
                let r = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(64 * self.k + r);
            }
            self.k += 1;
        }
        None
    }
}

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
    pub fn iter(&self) -> Rows {
        Rows { words: self.0, k: 0 }
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
    /// `a = inp (+ acc)` and `y = a & keep` (bitwise: all ones keeps a row,
    /// 0 zeroes it), scanned in the same pass. On the bits: |v| as an integer
    /// orders like |v| for every non-NaN float, and NaN or ±∞ is ≥ the bits
    /// of +∞, so the max and `finite` are integer operations.
    #[inline]
    pub fn load(a: &mut [f32], y: &mut [f32], keep: &[u32], inp: &[f32], acc: Option<&[f32]>) -> ColumnScan {
        let d = a.len();
        assert!(
            (4..=RowMask::ROWS).contains(&d) && [y.len(), keep.len(), inp.len(), acc.map_or(d, <[f32]>::len)] == [d; 4]
        );
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86_64 baseline; the lengths are checked above.
        return unsafe { sse2::load(a, y, keep, inp, acc) };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: simd128 is enabled for this build; the lengths are checked above.
        return unsafe { simd128::load(a, y, keep, inp, acc) };
        #[allow(unreachable_code)]
        {
            let (mut nonzero, mut max) = (RowMask::default(), 0u32);
            for r in 0..d {
                let v = acc.map_or(inp[r], |s| inp[r] + s[r]);
                a[r] = v;
                y[r] = f32::from_bits(v.to_bits() & keep[r]);
                let abs = v.to_bits() & 0x7fff_ffff;
                if abs != 0 {
                    nonzero.set(r);
                }
                max = max.max(abs);
            }
            ColumnScan::of(nonzero, max)
        }
    }

    /// From the nonzero rows and the largest |value| as bits.
    #[inline]
    fn of(nonzero: RowMask, max_bits: u32) -> ColumnScan {
        ColumnScan { nonzero, max_abs: f32::from_bits(max_bits.min(INF)), finite: max_bits < INF }
    }
}

const INF: u32 = 0x7f80_0000;

/// `dst ← y + 0.0` (canonical zeros: −0.0 + 0.0 = +0.0); returns the rows
/// whose bits changed.
#[inline]
pub fn store(dst: &mut [f32], y: &[f32]) -> RowMask {
    assert!(dst.len() == y.len() && y.len() >= 4 && y.len() <= RowMask::ROWS);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86_64 baseline; the lengths are checked above.
    return unsafe { sse2::store(dst, y) };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    // SAFETY: simd128 is enabled for this build; the lengths are checked above.
    return unsafe { simd128::store(dst, y) };
    #[allow(unreachable_code)]
    {
        let mut changed = RowMask::default();
        for r in 0..y.len() {
            let v = y[r] + 0.0;
            if v.to_bits() != dst[r].to_bits() {
                changed.set(r);
            }
            dst[r] = v;
        }
        changed
    }
}

/// Runs `four(at)` (which handles rows `at..at + 4` and returns their 4 bits)
/// over rows `0..len`, in rounds of sixteen, then fours, the last four
/// overlapping the one before when `len` is not a multiple of four (a row
/// seen twice gives the same bits). Returns the bits as a mask.
#[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn by_fours(len: usize, mut four: impl FnMut(usize, usize) -> u64) -> RowMask {
    let mut mask = RowMask::default();
    let mut r = 0;
    while r + 16 <= len {
        let bits = four(r, 0) | four(r + 4, 1) << 4 | four(r + 8, 2) << 8 | four(r + 12, 3) << 12;
        mask.0[r / 64] |= bits << (r % 64);
        r += 16;
    }
    while r < len {
        let at = r.min(len - 4);
        let bits = four(at, 0);
        for i in 0..4 {
            mask.0[(at + i) / 64] |= (bits >> i & 1) << ((at + i) % 64);
        }
        r = at + 4;
    }
    mask
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::{by_fours, ColumnScan, RowMask, INF};
    use std::arch::x86_64::*;

    /// Four independent max lanes (lane k for the k-th four of a round), so
    /// the rounds do not wait on each other.
    #[inline]
    pub unsafe fn load(a: &mut [f32], y: &mut [f32], keep: &[u32], inp: &[f32], acc: Option<&[f32]>) -> ColumnScan {
        let (abs_mask, last_finite) = (_mm_set1_epi32(0x7fff_ffff), _mm_set1_epi32(INF as i32 - 1));
        let (mut max, mut bad) = ([_mm_setzero_ps(); 4], _mm_setzero_si128());
        let nonzero = by_fours(a.len(), |at, lane| {
            let mut v = _mm_loadu_ps(inp.as_ptr().add(at));
            if let Some(s) = acc {
                v = _mm_add_ps(v, _mm_loadu_ps(s.as_ptr().add(at)));
            }
            _mm_storeu_ps(a.as_mut_ptr().add(at), v);
            let k = _mm_loadu_si128(keep.as_ptr().add(at) as *const __m128i);
            _mm_storeu_ps(y.as_mut_ptr().add(at), _mm_and_ps(v, _mm_castsi128_ps(k)));
            let abs = _mm_and_si128(_mm_castps_si128(v), abs_mask);
            // maxps may drop a NaN; `bad` keeps it (and ±∞).
            max[lane] = _mm_max_ps(max[lane], _mm_castsi128_ps(abs));
            bad = _mm_or_si128(bad, _mm_cmpgt_epi32(abs, last_finite));
            let zero = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(abs, _mm_setzero_si128()))) as u64;
            zero ^ 0xf
        });
        let all = _mm_max_ps(_mm_max_ps(max[0], max[1]), _mm_max_ps(max[2], max[3]));
        let mut lanes = [0u32; 4];
        _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, _mm_castps_si128(all));
        let max = lanes.iter().copied().max().unwrap_or(0);
        ColumnScan::of(nonzero, if _mm_movemask_epi8(bad) == 0 { max.min(INF - 1) } else { INF })
    }

    #[inline]
    pub unsafe fn store(dst: &mut [f32], y: &[f32]) -> RowMask {
        by_fours(y.len(), |at, _| {
            let v = _mm_add_ps(_mm_loadu_ps(y.as_ptr().add(at)), _mm_setzero_ps());
            let old = _mm_loadu_ps(dst.as_ptr().add(at));
            let same = _mm_cmpeq_epi32(_mm_castps_si128(v), _mm_castps_si128(old));
            _mm_storeu_ps(dst.as_mut_ptr().add(at), v);
            (_mm_movemask_ps(_mm_castsi128_ps(same)) as u64) ^ 0xf
        })
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::{by_fours, ColumnScan, RowMask};
    use std::arch::wasm32::*;

    /// As the SSE2 version (simd128 has an unsigned integer max).
    #[inline]
    pub unsafe fn load(a: &mut [f32], y: &mut [f32], keep: &[u32], inp: &[f32], acc: Option<&[f32]>) -> ColumnScan {
        let abs_mask = i32x4_splat(0x7fff_ffff);
        let mut max = [i32x4_splat(0); 4];
        let nonzero = by_fours(a.len(), |at, lane| {
            let mut v = v128_load(inp.as_ptr().add(at) as *const v128);
            if let Some(s) = acc {
                v = f32x4_add(v, v128_load(s.as_ptr().add(at) as *const v128));
            }
            v128_store(a.as_mut_ptr().add(at) as *mut v128, v);
            let k = v128_load(keep.as_ptr().add(at) as *const v128);
            v128_store(y.as_mut_ptr().add(at) as *mut v128, v128_and(v, k));
            let abs = v128_and(v, abs_mask);
            max[lane] = u32x4_max(max[lane], abs);
            i32x4_bitmask(i32x4_ne(abs, i32x4_splat(0))) as u64
        });
        let all = u32x4_max(u32x4_max(max[0], max[1]), u32x4_max(max[2], max[3]));
        let lanes = [
            u32x4_extract_lane::<0>(all),
            u32x4_extract_lane::<1>(all),
            u32x4_extract_lane::<2>(all),
            u32x4_extract_lane::<3>(all),
        ];
        ColumnScan::of(nonzero, lanes.iter().copied().max().unwrap_or(0))
    }

    #[inline]
    pub unsafe fn store(dst: &mut [f32], y: &[f32]) -> RowMask {
        by_fours(y.len(), |at, _| {
            let v = f32x4_add(v128_load(y.as_ptr().add(at) as *const v128), f32x4_splat(0.0));
            let old = v128_load(dst.as_ptr().add(at) as *const v128);
            v128_store(dst.as_mut_ptr().add(at) as *mut v128, v);
            i32x4_bitmask(i32x4_ne(v, old)) as u64
        })
    }
}
