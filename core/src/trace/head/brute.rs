//! The brute-force head: every key the head ever received, scored against the
//! query one by one. O(t) dot products per lookup; the definition of attention
//! (with argmax) that the hull must reproduce.

use super::Found;
use crate::trace::score::{Key, Query};

#[derive(Clone, Debug, Default)]
pub struct Brute {
    /// `(address, sequence number, value)` in trace order.
    keys: Vec<(u32, u64, u32)>,
}

impl Brute {
    pub fn insert(&mut self, addr: u32, seq: u64, value: u32) {
        self.keys.push((addr, seq, value));
    }

    /// The argmax over all keys, and the dot products it took (one per key).
    pub fn lookup(&self, q: &Query) -> (Option<Found>, u64) {
        let mut best: Option<Found> = None;
        for &(addr, seq, value) in &self.keys {
            let score = q.dot(Key::new(addr, seq));
            if best.is_none_or(|b| score > b.score) {
                best = Some(Found { addr, seq, value, score });
            }
        }
        (best, self.keys.len() as u64)
    }

    /// Keys held: one per write.
    pub fn size(&self) -> usize {
        self.keys.len()
    }
}
