//! Shared by the trace machine's tests: a seeded random generator, the random
//! WAT program generator, and the comparison of our machine (both heads) with
//! our reference and with `wasmi`.
#![allow(dead_code)]

pub mod gen;
#[cfg(not(target_arch = "wasm32"))]
pub mod oracle;

/// splitmix64: small, seeded, reproducible.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }

    /// A 32-bit value, often one of the edge cases.
    pub fn value(&mut self) -> i32 {
        const EDGES: [i32; 14] = [0, 1, -1, 2, -2, 31, 32, 33, 0x80, 0xFF, 0x8000, i32::MIN, i32::MAX, i32::MIN + 1];
        match self.below(3) {
            0 => *self.pick(&EDGES),
            1 => self.below(200) as i32 - 100,
            _ => self.next() as i32,
        }
    }
}
