//! Which rows of one column are nonzero, as a bit mask, so a weight group
//! can tell with a few AND instructions that every row it reads is zero
//! (then every product it would form is ±0 and its sum is its bias), and the
//! two passes every evaluated column takes: in (input + attention, scanned,
//! and the FFN's starting output) and out (canonical zeros, changed rows).
//! Both run four rows per instruction (SSE2 on x86_64, simd128 on wasm), or
//! eight with AVX2 where the CPU has it (checked at run time).

/// Rows `0..64·W`. The engine is built with the narrowest mask that holds its
/// configuration's d rows ([`super::Sparse`]): every test of a mask costs one
/// instruction per word, and 8- and 16-bit machines (d ≤ 228) need only 4.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RowMask<const W: usize>([u64; W]);

impl<const W: usize> Default for RowMask<W> {
    fn default() -> Self {
        RowMask([0; W])
    }
}

/// The blocks of eight rows a pass over a column of d rows loads and stores:
/// every block holding one of the given rows (as [`RowMask::blocks`] finds
/// them, the last moved back to end at d). Each start + 8 ≤ d, checked here,
/// is what the passes' unchecked loads rely on.
pub struct Blocks<const W: usize> {
    d: usize,
    /// The starts of the blocks at multiples of eight, and of the one moved back.
    aligned: Vec<u32>,
    tail: Option<u32>,
    /// The rows of the column outside the blocks.
    outside: RowMask<W>,
}

impl<const W: usize> Blocks<W> {
    /// The blocks holding `rows` (those below d) in a column of `d ≥ 8` rows.
    pub fn of(rows: RowMask<W>, d: usize) -> Blocks<W> {
        assert!((8..=RowMask::<W>::ROWS).contains(&d), "a column of 8..=ROWS rows");
        let (mut starts, mut covered) = (Vec::new(), RowMask::default());
        rows.and(&RowMask::of_rows(0..d)).blocks(d, |at, _| {
            starts.push(u32::try_from(at).expect("row fits u32"));
            covered.or_bits(at, 0xff);
            true
        });
        assert!(starts.iter().all(|&at| at as usize + 8 <= d));
        let tail = starts.last().copied().filter(|at| at % 8 != 0);
        starts.truncate(starts.len() - usize::from(tail.is_some()));
        Blocks { d, aligned: starts, tail, outside: RowMask::of_rows(0..d).and(&covered.not()) }
    }

    /// Every block's first row.
    pub fn starts(&self) -> impl Iterator<Item = usize> + '_ {
        self.aligned.iter().chain(&self.tail).map(|&at| at as usize)
    }

    /// Every block of the column.
    pub fn all(d: usize) -> Blocks<W> {
        Blocks::of(RowMask::ALL, d)
    }

    /// The rows of the column outside the blocks.
    #[inline]
    pub fn outside(&self) -> RowMask<W> {
        self.outside
    }
}

/// What one pass over a column finds: its nonzero rows, the largest |value|
/// (for the gate bounds), and whether every value is finite.
pub struct ColumnScan<const W: usize> {
    pub nonzero: RowMask<W>,
    pub max_abs: f32,
    pub finite: bool,
}

impl<const W: usize> RowMask<W> {
    pub const ROWS: usize = 64 * W;
    pub const ALL: RowMask<W> = RowMask([!0; W]);

    pub fn of_rows(rows: impl IntoIterator<Item = usize>) -> RowMask<W> {
        let mut m = RowMask::default();
        for r in rows {
            assert!(r < Self::ROWS, "row {r} beyond the mask");
            m.set(r);
        }
        m
    }

    #[inline]
    pub fn union(&self, o: &RowMask<W>) -> RowMask<W> {
        RowMask(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }

    #[inline]
    pub fn and(&self, o: &RowMask<W>) -> RowMask<W> {
        RowMask(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }

    /// Calls `f` with every row in the mask, in order, until it returns false;
    /// returns whether it never did.
    #[inline]
    pub fn all(&self, mut f: impl FnMut(usize) -> bool) -> bool {
        for (k, &word) in self.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                if !f(64 * k + w.trailing_zeros() as usize) {
                    return false;
                }
                w &= w - 1;
            }
        }
        true
    }

    /// Calls `f(at, bits)` for every block of eight rows `at..at + 8` that
    /// holds a row of the mask (bit l of `bits`: row `at + l`), in order, until
    /// it returns false; returns whether it never did. A block reaching past
    /// `d` (rows of the mask lie below `d ≥ 8`) is moved back to end at `d`,
    /// its bits shifted with it, so it overlaps the block before.
    #[inline(always)]
    pub fn blocks(&self, d: usize, mut f: impl FnMut(usize, u32) -> bool) -> bool {
        debug_assert!((8..=Self::ROWS).contains(&d));
        for (k, &word) in self.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let shift = w.trailing_zeros() & !7;
                let (bits, at) = (((w >> shift) & 0xff) as u32, 64 * k + shift as usize);
                w &= !(0xff << shift);
                let ok = if at + 8 <= d { f(at, bits) } else { f(d - 8, bits << (at + 8 - d)) };
                if !ok {
                    return false;
                }
            }
        }
        true
    }

    #[inline]
    pub fn set(&mut self, r: usize) {
        self.0[r / 64] |= 1 << (r % 64);
    }

    /// Adds rows `at + l` for the bits l of `bits` (below 8; `at + 8 ≤ ROWS`).
    #[inline(always)]
    pub fn or_bits(&mut self, at: usize, bits: u32) {
        let (word, shift, bits) = (at / 64, at % 64, u64::from(bits & 0xff));
        self.0[word] |= bits << shift;
        if shift > 56 {
            self.0[word + 1] |= bits >> (64 - shift);
        }
    }

    #[inline]
    pub fn has(&self, r: usize) -> bool {
        self.0[r / 64] >> (r % 64) & 1 == 1
    }

    #[inline]
    pub fn not(&self) -> RowMask<W> {
        RowMask(self.0.map(|w| !w))
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; W]
    }

    #[inline]
    pub fn meets(&self, other: &RowMask<W>) -> bool {
        (0..W).fold(0, |acc, i| acc | (self.0[i] & other.0[i])) != 0
    }
}

impl<const W: usize> ColumnScan<W> {
    /// `a = inp (+ acc)` and `y = a & keep` (bitwise: all ones keeps a row,
    /// 0 zeroes it) in the blocks of eight rows starting at `blocks`, scanned
    /// in the same pass (the scan sees only those rows). On the bits: |v| as
    /// an integer orders like |v| for every non-NaN float, and NaN or ±∞ is ≥
    /// the bits of +∞, so the max and `finite` are integer operations.
    #[inline(always)]
    pub fn load(
        a: &mut [f32],
        y: &mut [f32],
        keep: &[u32],
        inp: &[f32],
        acc: Option<&[f32]>,
        blocks: &Blocks<W>,
    ) -> ColumnScan<W> {
        let d = a.len();
        assert!(
            (8..=RowMask::<W>::ROWS).contains(&d)
                && [y.len(), keep.len(), inp.len(), acc.map_or(d, <[f32]>::len)] == [d; 4]
                && blocks.d == d
        );
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 is checked at run time (d ≥ 8 rows), SSE2 is part of
        // the x86_64 baseline; the lengths are checked above.
        return unsafe {
            if d >= 8 && std::arch::is_x86_feature_detected!("avx2") {
                avx2::load(a, y, keep, inp, acc, blocks)
            } else {
                sse2::load(a, y, keep, inp, acc, blocks)
            }
        };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: simd128 is enabled for this build; the lengths are checked above.
        return unsafe { simd128::load(a, y, keep, inp, acc, blocks) };
        #[allow(unreachable_code)]
        scalar::load(a, y, keep, inp, acc, blocks)
    }

    /// From the nonzero rows and the largest |value| as bits.
    #[inline]
    fn of(nonzero: RowMask<W>, max_bits: u32) -> ColumnScan<W> {
        ColumnScan { nonzero, max_abs: f32::from_bits(max_bits.min(INF)), finite: max_bits < INF }
    }
}

const INF: u32 = 0x7f80_0000;

/// `dst ← y + 0.0` (canonical zeros: −0.0 + 0.0 = +0.0) in the blocks of
/// eight rows starting at `blocks`; returns the rows whose bits changed.
#[inline(always)]
pub fn store<const W: usize>(dst: &mut [f32], y: &[f32], blocks: &Blocks<W>) -> RowMask<W> {
    assert!(dst.len() == y.len() && y.len() >= 8 && y.len() <= RowMask::<W>::ROWS && blocks.d == y.len());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: AVX2 is checked at run time (≥ 8 rows), SSE2 is part of the
    // x86_64 baseline; the lengths are checked above.
    return unsafe {
        if y.len() >= 8 && std::arch::is_x86_feature_detected!("avx2") {
            avx2::store(dst, y, blocks)
        } else {
            sse2::store(dst, y, blocks)
        }
    };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    // SAFETY: simd128 is enabled for this build; the lengths are checked above.
    return unsafe { simd128::store(dst, y, blocks) };
    #[allow(unreachable_code)]
    scalar::store(dst, y, blocks)
}

/// Rows `at..at + 8` of a layer's input `src (+ acc)`, as the layer sees them.
#[inline(always)]
pub fn value8(src: &[f32], acc: Option<&[f32]>, at: usize) -> [f32; 8] {
    let s: [f32; 8] = src[at..at + 8].try_into().expect("eight rows");
    match acc {
        Some(acc) => {
            let a: [f32; 8] = acc[at..at + 8].try_into().expect("eight rows");
            std::array::from_fn(|l| s[l] + a[l])
        }
        None => std::array::from_fn(|l| s[l] + 0.0),
    }
}

/// Bit l set where `|v[l]| ≤ tol` (false for NaN), for eight rows.
#[inline(always)]
pub fn within8(v: &[f32; 8], tol: f32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86_64 baseline; two loads of four within `v`.
    return unsafe { sse2::within8(v, tol) };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    // SAFETY: simd128 is enabled for this build; two loads of four within `v`.
    return unsafe { simd128::within8(v, tol) };
    #[allow(unreachable_code)]
    scalar::within8(v, tol)
}

/// Bit l set where the bits of `v[l]`, masked by `mask`, are `value`, for eight lanes.
#[inline(always)]
pub fn eq8(v: &[f32; 8], mask: u32, value: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86_64 baseline; two loads of four within `v`.
    return unsafe { sse2::eq8(v, mask, value) };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    // SAFETY: simd128 is enabled for this build; two loads of four within `v`.
    return unsafe { simd128::eq8(v, mask, value) };
    #[allow(unreachable_code)]
    scalar::eq8(v, mask, value)
}

/// `dst[l] ← v[l] + 0.0` for the bits l of `take`; returns the bits whose row changed.
#[inline(always)]
pub fn put8(dst: &mut [f32; 8], v: &[f32; 8], take: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86_64 baseline; loads and stores of four within the arrays.
    return unsafe { sse2::put8(dst, v, take) };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    // SAFETY: simd128 is enabled for this build; as above.
    return unsafe { simd128::put8(dst, v, take) };
    #[allow(unreachable_code)]
    scalar::put8(dst, v, take)
}

/// The definition the SIMD passes follow, one row at a time.
mod scalar {
    use super::{Blocks, ColumnScan, RowMask};

    pub fn load<const W: usize>(
        a: &mut [f32],
        y: &mut [f32],
        keep: &[u32],
        inp: &[f32],
        acc: Option<&[f32]>,
        blocks: &Blocks<W>,
    ) -> ColumnScan<W> {
        let (mut nonzero, mut max) = (RowMask::default(), 0u32);
        for r in blocks.starts().flat_map(|at| at..at + 8) {
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

    pub fn within8(v: &[f32; 8], tol: f32) -> u32 {
        (0..8).fold(0, |m, l| m | ((v[l].abs() <= tol) as u32) << l)
    }

    pub fn eq8(v: &[f32; 8], mask: u32, value: u32) -> u32 {
        (0..8).fold(0, |m, l| m | ((v[l].to_bits() & mask == value) as u32) << l)
    }

    pub fn put8(dst: &mut [f32; 8], v: &[f32; 8], take: u32) -> u32 {
        let mut changed = 0;
        for l in (0..8).filter(|l| take >> l & 1 == 1) {
            let new = v[l] + 0.0;
            changed |= ((new.to_bits() != dst[l].to_bits()) as u32) << l;
            dst[l] = new;
        }
        changed
    }

    pub fn store<const W: usize>(dst: &mut [f32], y: &[f32], blocks: &Blocks<W>) -> RowMask<W> {
        let mut changed = RowMask::default();
        for r in blocks.starts().flat_map(|at| at..at + 8) {
            let v = y[r] + 0.0;
            if v.to_bits() != dst[r].to_bits() {
                changed.set(r);
            }
            dst[r] = v;
        }
        changed
    }
}

/// Runs `lanes(at, k)` (which handles rows `at..at + 8` and returns their
/// eight bits; `k` numbers the call within a round of four, so that a caller
/// can keep four independent accumulators) on every block of `blocks`.
/// Returns the bits as a mask of W words.
#[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn by_blocks<const W: usize>(blocks: &Blocks<W>, mut lanes: impl FnMut(usize, usize) -> u64) -> RowMask<W> {
    let mut mask = RowMask::default();
    // An aligned block's eight bits are one byte of the mask (little-endian words).
    let put = |mask: &mut RowMask<W>, at: usize, bits: u64| {
        let bytes = mask.0.as_mut_ptr() as *mut u8;
        // SAFETY: at + 8 ≤ d ≤ 64·W (checked by `Blocks::of`): byte at / 8 is within the W words.
        unsafe { *bytes.add(at / 8) = bits as u8 }
    };
    let mut rounds = blocks.aligned.chunks_exact(4);
    for round in &mut rounds {
        let at: [usize; 4] = std::array::from_fn(|k| round[k] as usize);
        let bits = [lanes(at[0], 0), lanes(at[1], 1), lanes(at[2], 2), lanes(at[3], 3)];
        (0..4).for_each(|k| put(&mut mask, at[k], bits[k]));
    }
    for &at in rounds.remainder() {
        put(&mut mask, at as usize, lanes(at as usize, 0));
    }
    if let Some(at) = blocks.tail {
        mask.or_bits(at as usize, lanes(at as usize, 0) as u32);
    }
    mask
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::{by_blocks, Blocks, ColumnScan, RowMask, INF};
    use std::arch::x86_64::*;

    /// Eight rows a call, as two fours; four independent max lanes (lane k
    /// for the k-th eight of a round), so the rounds do not wait on each other.
    #[inline]
    pub unsafe fn load<const W: usize>(
        a: &mut [f32],
        y: &mut [f32],
        keep: &[u32],
        inp: &[f32],
        acc: Option<&[f32]>,
        blocks: &Blocks<W>,
    ) -> ColumnScan<W> {
        let (abs_mask, last_finite) = (_mm_set1_epi32(0x7fff_ffff), _mm_set1_epi32(INF as i32 - 1));
        let (mut max, mut bad) = ([_mm_setzero_ps(); 4], _mm_setzero_si128());
        let nonzero = by_blocks(blocks, |at, lane| {
            let mut zero = 0;
            for at in [at, at + 4] {
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
                zero = zero << 4 | _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(abs, _mm_setzero_si128()))) as u64;
            }
            // Rows at + 4.. came second: swap the halves back.
            (zero >> 4 | (zero & 0xf) << 4) ^ 0xff
        });
        let all = _mm_max_ps(_mm_max_ps(max[0], max[1]), _mm_max_ps(max[2], max[3]));
        let mut lanes = [0u32; 4];
        _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, _mm_castps_si128(all));
        let max = lanes.iter().copied().max().unwrap_or(0);
        ColumnScan::of(nonzero, if _mm_movemask_epi8(bad) == 0 { max.min(INF - 1) } else { INF })
    }

    #[inline(always)]
    pub unsafe fn within8(v: &[f32; 8], tol: f32) -> u32 {
        let (abs, t) = (_mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff)), _mm_set1_ps(tol));
        let lo = _mm_cmple_ps(_mm_and_ps(_mm_loadu_ps(v.as_ptr()), abs), t);
        let hi = _mm_cmple_ps(_mm_and_ps(_mm_loadu_ps(v.as_ptr().add(4)), abs), t);
        (_mm_movemask_ps(lo) | _mm_movemask_ps(hi) << 4) as u32
    }

    #[inline(always)]
    pub unsafe fn eq8(v: &[f32; 8], mask: u32, value: u32) -> u32 {
        let (m, x) = (_mm_set1_epi32(mask as i32), _mm_set1_epi32(value as i32));
        let half = |p: *const f32| {
            let eq = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(p as *const __m128i), m), x);
            _mm_movemask_ps(_mm_castsi128_ps(eq)) as u32
        };
        half(v.as_ptr()) | half(v.as_ptr().add(4)) << 4
    }

    #[inline(always)]
    pub unsafe fn put8(dst: &mut [f32; 8], v: &[f32; 8], take: u32) -> u32 {
        let lane = _mm_setr_epi32(1, 2, 4, 8);
        let mut changed = 0;
        for half in 0..2 {
            let (d, bits) = (dst.as_mut_ptr().add(4 * half), _mm_set1_epi32((take >> (4 * half)) as i32));
            let take = _mm_cmpeq_epi32(_mm_and_si128(bits, lane), lane);
            let new = _mm_castps_si128(_mm_add_ps(_mm_loadu_ps(v.as_ptr().add(4 * half)), _mm_setzero_ps()));
            let old = _mm_castps_si128(_mm_loadu_ps(d));
            let moved = _mm_andnot_si128(_mm_cmpeq_epi32(new, old), take);
            let out = _mm_or_si128(_mm_and_si128(take, new), _mm_andnot_si128(take, old));
            _mm_storeu_ps(d, _mm_castsi128_ps(out));
            changed |= (_mm_movemask_ps(_mm_castsi128_ps(moved)) as u32) << (4 * half);
        }
        changed
    }

    #[inline]
    pub unsafe fn store<const W: usize>(dst: &mut [f32], y: &[f32], blocks: &Blocks<W>) -> RowMask<W> {
        by_blocks(blocks, |at, _| {
            let mut half = |at: usize| {
                let v = _mm_add_ps(_mm_loadu_ps(y.as_ptr().add(at)), _mm_setzero_ps());
                let old = _mm_loadu_ps(dst.as_ptr().add(at));
                let same = _mm_cmpeq_epi32(_mm_castps_si128(v), _mm_castps_si128(old));
                _mm_storeu_ps(dst.as_mut_ptr().add(at), v);
                _mm_movemask_ps(_mm_castsi128_ps(same)) as u64
            };
            let lo = half(at);
            (lo | half(at + 4) << 4) ^ 0xff
        })
    }
}

/// As [`sse2`], eight rows per instruction; chosen at run time.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{by_blocks, Blocks, ColumnScan, RowMask};
    use std::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn load<const W: usize>(
        a: &mut [f32],
        y: &mut [f32],
        keep: &[u32],
        inp: &[f32],
        acc: Option<&[f32]>,
        blocks: &Blocks<W>,
    ) -> ColumnScan<W> {
        let abs_mask = _mm256_set1_epi32(0x7fff_ffff);
        let mut max = [_mm256_setzero_si256(); 4];
        let nonzero = by_blocks(blocks, |at, lane| {
            let mut v = _mm256_loadu_ps(inp.as_ptr().add(at));
            if let Some(s) = acc {
                v = _mm256_add_ps(v, _mm256_loadu_ps(s.as_ptr().add(at)));
            }
            _mm256_storeu_ps(a.as_mut_ptr().add(at), v);
            let k = _mm256_loadu_si256(keep.as_ptr().add(at) as *const __m256i);
            _mm256_storeu_ps(y.as_mut_ptr().add(at), _mm256_and_ps(v, _mm256_castsi256_ps(k)));
            let abs = _mm256_and_si256(_mm256_castps_si256(v), abs_mask);
            // The unsigned max of the bits keeps a NaN and ±∞ (≥ the bits of +∞).
            max[lane] = _mm256_max_epu32(max[lane], abs);
            let zero = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(abs, _mm256_setzero_si256()))) as u64;
            zero ^ 0xff
        });
        let all = _mm256_max_epu32(_mm256_max_epu32(max[0], max[1]), _mm256_max_epu32(max[2], max[3]));
        let mut lanes = [0u32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, all);
        ColumnScan::of(nonzero, lanes.iter().copied().max().unwrap_or(0))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn store<const W: usize>(dst: &mut [f32], y: &[f32], blocks: &Blocks<W>) -> RowMask<W> {
        by_blocks(blocks, |at, _| {
            let v = _mm256_add_ps(_mm256_loadu_ps(y.as_ptr().add(at)), _mm256_setzero_ps());
            let old = _mm256_loadu_ps(dst.as_ptr().add(at));
            let same = _mm256_cmpeq_epi32(_mm256_castps_si256(v), _mm256_castps_si256(old));
            _mm256_storeu_ps(dst.as_mut_ptr().add(at), v);
            (_mm256_movemask_ps(_mm256_castsi256_ps(same)) as u64) ^ 0xff
        })
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::{by_blocks, Blocks, ColumnScan, RowMask};
    use std::arch::wasm32::*;

    /// As the SSE2 version (simd128 has an unsigned integer max).
    #[inline]
    pub unsafe fn load<const W: usize>(
        a: &mut [f32],
        y: &mut [f32],
        keep: &[u32],
        inp: &[f32],
        acc: Option<&[f32]>,
        blocks: &Blocks<W>,
    ) -> ColumnScan<W> {
        let abs_mask = i32x4_splat(0x7fff_ffff);
        let mut max = [i32x4_splat(0); 4];
        let nonzero = by_blocks(blocks, |at, lane| {
            let mut half = |at: usize| {
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
            };
            let lo = half(at);
            lo | half(at + 4) << 4
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

    #[inline(always)]
    pub unsafe fn within8(v: &[f32; 8], tol: f32) -> u32 {
        let t = f32x4_splat(tol);
        let lo = f32x4_le(f32x4_abs(v128_load(v.as_ptr() as *const v128)), t);
        let hi = f32x4_le(f32x4_abs(v128_load(v.as_ptr().add(4) as *const v128)), t);
        (i32x4_bitmask(lo) | i32x4_bitmask(hi) << 4) as u32
    }

    #[inline(always)]
    pub unsafe fn eq8(v: &[f32; 8], mask: u32, value: u32) -> u32 {
        let (m, x) = (u32x4_splat(mask), u32x4_splat(value));
        let half = |p: *const f32| i32x4_bitmask(i32x4_eq(v128_and(v128_load(p as *const v128), m), x)) as u32;
        half(v.as_ptr()) | half(v.as_ptr().add(4)) << 4
    }

    #[inline(always)]
    pub unsafe fn put8(dst: &mut [f32; 8], v: &[f32; 8], take: u32) -> u32 {
        let lane = i32x4(1, 2, 4, 8);
        let mut changed = 0;
        for half in 0..2 {
            let (d, bits) = (dst.as_mut_ptr().add(4 * half), i32x4_splat((take >> (4 * half)) as i32));
            let take = i32x4_eq(v128_and(bits, lane), lane);
            let new = f32x4_add(v128_load(v.as_ptr().add(4 * half) as *const v128), f32x4_splat(0.0));
            let old = v128_load(d as *const v128);
            let moved = v128_and(i32x4_ne(new, old), take);
            v128_store(d as *mut v128, v128_bitselect(new, old, take));
            changed |= (i32x4_bitmask(moved) as u32) << (4 * half);
        }
        changed
    }

    #[inline]
    pub unsafe fn store<const W: usize>(dst: &mut [f32], y: &[f32], blocks: &Blocks<W>) -> RowMask<W> {
        by_blocks(blocks, |at, _| {
            let mut half = |at: usize| {
                let v = f32x4_add(v128_load(y.as_ptr().add(at) as *const v128), f32x4_splat(0.0));
                let old = v128_load(dst.as_ptr().add(at) as *const v128);
                v128_store(dst.as_mut_ptr().add(at) as *mut v128, v);
                i32x4_bitmask(i32x4_ne(v, old)) as u64
            };
            let lo = half(at);
            lo | half(at + 4) << 4
        })
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    type Load<const W: usize> =
        unsafe fn(&mut [f32], &mut [f32], &[u32], &[f32], Option<&[f32]>, &Blocks<W>) -> ColumnScan<W>;
    type Store<const W: usize> = unsafe fn(&mut [f32], &[f32], &Blocks<W>) -> RowMask<W>;

    const SPECIAL: [f32; 8] = [0.0, -0.0, 0.5, -1.0, 100.0, f32::MIN_POSITIVE, -3.0e38, 1.25];

    /// Columns of the lengths `lens`, with zeros of both signs, NaN, ±∞, and
    /// large and tiny values, in a fixed pattern.
    fn columns(lens: impl IntoIterator<Item = usize>) -> Vec<Vec<f32>> {
        let special = SPECIAL;
        let mut out = Vec::new();
        for len in lens {
            for seed in 0..6u64 {
                let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let mut col: Vec<f32> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        special[(x % 8) as usize]
                    })
                    .collect();
                match seed {
                    4 => col[len - 1] = f32::NAN,
                    5 => col[len / 2] = f32::NEG_INFINITY,
                    _ => {}
                }
                out.push(col);
            }
        }
        out
    }

    fn scan_bits<const W: usize>(s: &ColumnScan<W>) -> (RowMask<W>, u32, bool) {
        (s.nonzero, s.max_abs.to_bits(), s.finite)
    }

    /// Every SIMD pass this machine can run computes what the scalar definition
    /// computes, bit for bit: with the 4-word masks of 8- and 16-bit machines on
    /// every length from 8 to 64 and the compact d, and with the 6-word masks of
    /// 32-bit machines on lengths around each word's end and up to 384 rows;
    /// over every block of the column and over some of them.
    #[test]
    fn simd_passes_match_the_scalar_definition() {
        check::<4>(&columns((8..=64).chain([146])));
        check::<6>(&columns([8, 63, 64, 65, 255, 256, 257, 301, 320, 383, 384]));
    }

    fn check<const W: usize>(cols: &[Vec<f32>]) {
        let mut loads: Vec<(&str, Load<W>)> = vec![("sse2", sse2::load)];
        let mut stores: Vec<(&str, Store<W>)> = vec![("sse2", sse2::store)];
        if std::arch::is_x86_feature_detected!("avx2") {
            loads.push(("avx2", avx2::load));
            stores.push(("avx2", avx2::store));
        }
        for (i, inp) in cols.iter().enumerate() {
            let d = inp.len();
            // Half the columns with an attention sum: another of the same length.
            let acc = (i % 2 == 0).then(|| &cols[i / 6 * 6 + (i + 1) % 6][..]);
            let keep: Vec<u32> = (0..d).map(|r| if r % 3 == 0 { 0 } else { !0 }).collect();
            // Every block, and the blocks holding every seventh row from the third.
            let some = Blocks::<W>::of(RowMask::of_rows((3..d).step_by(7 + i % 5 * 4)), d);
            let blocks = if i / 2 % 2 == 0 { Blocks::<W>::all(d) } else { some };
            let (mut a0, mut y0) = (vec![0.0; d], vec![0.0; d]);
            let want = scalar::load(&mut a0, &mut y0, &keep, inp, acc, &blocks);
            for (name, load) in &loads {
                let (mut a, mut y) = (vec![0.0; d], vec![0.0; d]);
                // SAFETY: the feature was detected; the lengths agree; `Blocks` checked the starts.
                let got = unsafe { load(&mut a, &mut y, &keep, inp, acc, &blocks) };
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(scan_bits(&got), scan_bits(&want), "{name} load, column {i}");
                assert_eq!((bits(&a), bits(&y)), (bits(&a0), bits(&y0)), "{name} load, column {i}");
            }
            for at in (0..d - 7).step_by(5) {
                let v: &[f32; 8] = inp[at..at + 8].try_into().unwrap();
                let old: [f32; 8] = cols[i / 6 * 6 + (i + 2) % 6][at..at + 8].try_into().unwrap();
                let (tol, take) = (SPECIAL[at % 8].abs(), (at * 37 % 256) as u32);
                // SAFETY: SSE2 is part of the x86_64 baseline.
                for (mask, value) in [(0x7fff_ffff, 0), (0x7fff_ffff, 0x3f80_0000), (!0, 0x3f80_0000)] {
                    let want = scalar::eq8(v, mask, value);
                    assert_eq!(unsafe { sse2::eq8(v, mask, value) }, want, "eq8, column {i} row {at}");
                }
                // SAFETY: as above.
                assert_eq!(unsafe { sse2::within8(v, tol) }, scalar::within8(v, tol), "within8, column {i} row {at}");
                let (mut want, mut got) = (old, old);
                let moved = scalar::put8(&mut want, v, take);
                // SAFETY: as above.
                assert_eq!(unsafe { sse2::put8(&mut got, v, take) }, moved, "put8, column {i} row {at}");
                assert_eq!(want.map(f32::to_bits), got.map(f32::to_bits), "put8, column {i} row {at}");
            }
            let mut dst0 = cols[i / 6 * 6 + (i + 3) % 6].clone();
            let old = dst0.clone();
            let want = scalar::store(&mut dst0, inp, &blocks);
            for (name, store) in &stores {
                let mut dst = old.clone();
                // SAFETY: as above.
                let got = unsafe { store(&mut dst, inp, &blocks) };
                assert_eq!(got, want, "{name} store, column {i}");
                assert!(dst.iter().zip(&dst0).all(|(x, y)| x.to_bits() == y.to_bits()), "{name} store, column {i}");
            }
        }
    }
}
