//! The exact scores of the trace machine's attention heads.
//!
//! A write of address `a` (a `u32`) with sequence number `s` (its position in
//! the trace) is the key `k = (2a, −a², s)`; a read of address `q` is the query
//! `Q = (T·q, T, 1)`. The score is the dot product
//!
//! ```text
//! Q·k = T·(2aq − a²) + s = T·(q² − (a − q)²) + s
//! ```
//!
//! Why the argmax is exactly the latest write of `q`, with no tolerance:
//! - every term is an integer and `|2aq − a²| < 2⁶⁶`, `T = 2⁴⁰`, so `Q·k` fits in
//!   an `i128` with room to spare: nothing rounds (the published heads used
//!   floats and confused addresses past 4096);
//! - `q² − (a − q)²` is maximal exactly at `a = q`, and any other address scores
//!   at least 1 less; multiplied by `T` that gap exceeds any difference of
//!   sequence numbers (`0 ≤ s < T`), so every write of `q` beats every write of
//!   another address;
//! - among the writes of `q` the larger `s` wins: *latest wins* by an exact
//!   integer, not by an ε added to a float.
//!
//! Sequence numbers are distinct, so no two keys tie: the argmax is unique and
//! every head implementation must return the same key.
//!
//! A read of an address never written still has a winner (the nearest address),
//! so the head also says whether it *hit*: `Q·k ≥ T·q²` exactly when `a = q`.

/// The weight of the address part of a score; sequence numbers stay below it.
pub const T: i128 = 1 << 40;

/// The largest sequence number a trace can give (a trace longer than this would
/// let a sequence number outweigh an address: the machine stops first).
pub const MAX_SEQ: u64 = (1 << 40) - 1;

/// A score: an exact dot product.
pub type Score = i128;

/// Scores can exceed 2⁵³ (JSON numbers lose them): they serialise as decimal strings.
pub fn serialize<S: serde::Serializer>(score: &Score, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&score.to_string())
}

/// A write's key on the parabola, with its sequence number as the third component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub x: i128,
    pub y: i128,
    pub s: i128,
}

impl Key {
    pub fn new(addr: u32, seq: u64) -> Key {
        let a = i128::from(addr);
        Key { x: 2 * a, y: -a * a, s: i128::from(seq) }
    }

    /// The edge from `from` to `self`: its dot product with a query is the
    /// difference of the two scores (the hull compares scores this way).
    pub fn minus(self, from: Key) -> Key {
        Key { x: self.x - from.x, y: self.y - from.y, s: self.s - from.s }
    }
}

/// A read's query: `(T·q, T, 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    pub addr: u32,
    x: i128,
}

impl Query {
    pub fn new(addr: u32) -> Query {
        Query { addr, x: T * i128::from(addr) }
    }

    /// One dot product.
    pub fn dot(&self, k: Key) -> Score {
        self.x * k.x + T * k.y + k.s
    }

    /// The score at or above which the winner is a write of this very address.
    pub fn hit_threshold(&self) -> Score {
        let q = i128::from(self.addr);
        T * q * q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_match_wins_and_the_latest_match_wins() {
        let q = Query::new(4097);
        let own_old = q.dot(Key::new(4097, 0));
        let own_new = q.dot(Key::new(4097, 5));
        let neighbour_newest = q.dot(Key::new(4096, MAX_SEQ));
        assert!(own_new > own_old && own_old > neighbour_newest);
        assert!(own_old >= q.hit_threshold() && neighbour_newest < q.hit_threshold());
    }

    #[test]
    fn extreme_addresses_stay_exact() {
        let top = u32::MAX;
        let q = Query::new(top);
        assert_eq!(q.dot(Key::new(top, 7)), q.hit_threshold() + 7);
        assert_eq!(q.dot(Key::new(top - 1, 0)), q.hit_threshold() - T);
        assert_eq!(Query::new(0).dot(Key::new(top, 0)), -T * i128::from(top) * i128::from(top));
        let edge = Key::new(top, 3).minus(Key::new(1, 2));
        assert_eq!(q.dot(edge), q.dot(Key::new(top, 3)) - q.dot(Key::new(1, 2)));
    }
}
