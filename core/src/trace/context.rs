//! The trace machine's store: the context. Every write is appended to the
//! trace (its index is its sequence number) and given, as a key, to the head of
//! its address space; every read is a lookup by that head. Nothing is ever
//! overwritten: the state *is* the trace, and a read finds the latest write of
//! an address because its score is the largest (`score.rs`).

use crate::trace::exec::{Space, Store};
use crate::trace::head::{Found, Head, HeadMode, HeadStats};
use crate::trace::score::{Query, MAX_SEQ};
use crate::trace::Trap;
use serde::Serialize;

/// One write record of the trace; its sequence number is its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Write {
    pub space: Space,
    pub addr: u32,
    pub value: u32,
}

/// One read made by a head: the query, the trace's length when it was made
/// (the keys it saw are the writes before that), the winning key, and whether
/// the winner is a write of the queried address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Lookup {
    pub space: Space,
    pub addr: u32,
    pub seq_end: u64,
    pub winner: Option<Found>,
    pub hit: bool,
}

#[derive(Clone, Debug)]
pub struct Context {
    mode: HeadMode,
    writes: Vec<Write>,
    heads: Vec<Head>,
    /// The lookups of the step in progress (or of the last step).
    lookups: Vec<Lookup>,
    total_lookups: u64,
}

impl Context {
    pub fn new(mode: HeadMode) -> Context {
        let heads = Space::ALL.iter().map(|_| Head::new(mode)).collect();
        Context { mode, writes: Vec::new(), heads, lookups: Vec::new(), total_lookups: 0 }
    }

    pub fn mode(&self) -> HeadMode {
        self.mode
    }

    /// The trace: every write, in order.
    pub fn writes(&self) -> &[Write] {
        &self.writes
    }

    /// The lookups of the last step.
    pub fn lookups(&self) -> &[Lookup] {
        &self.lookups
    }

    pub fn total_lookups(&self) -> u64 {
        self.total_lookups
    }

    pub fn head_stats(&self, space: Space) -> HeadStats {
        self.heads[space.index()].stats()
    }

    pub fn hull_vertices(&self, space: Space) -> Option<Vec<(u32, u64, u32)>> {
        self.heads[space.index()].hull_vertices()
    }

    /// The latest value at `addr`, found by the head without counting it (for
    /// results and views, not for execution).
    pub fn latest(&self, space: Space, addr: u32) -> Option<u32> {
        let q = Query::new(addr);
        self.heads[space.index()].peek(addr).filter(|f| f.hits(&q)).map(|f| f.value)
    }

    /// Forgets the previous step's lookups (called as a step begins).
    pub fn begin_step(&mut self) {
        self.lookups.clear();
    }
}

impl Store for Context {
    fn read(&mut self, space: Space, addr: u32) -> Result<Option<u32>, Trap> {
        let winner = self.heads[space.index()].read(addr).map_err(|d| {
            Trap::Internal(format!(
                "the brute-force and hull heads disagree on {} address {addr}: {:?} vs {:?}",
                space.name(),
                d.brute,
                d.hull
            ))
        })?;
        let hit = winner.is_some_and(|f| f.hits(&Query::new(addr)));
        let seq_end = self.writes.len() as u64;
        self.lookups.push(Lookup { space, addr, seq_end, winner, hit });
        self.total_lookups += 1;
        Ok(winner.filter(|_| hit).map(|f| f.value))
    }

    fn write(&mut self, space: Space, addr: u32, value: u32) -> Result<(), Trap> {
        let seq = self.writes.len() as u64;
        if seq > MAX_SEQ {
            return Err(Trap::TraceFull);
        }
        self.writes.push(Write { space, addr, value });
        self.heads[space.index()].write(addr, seq, value);
        Ok(())
    }

    fn seq(&self) -> u64 {
        self.writes.len() as u64
    }

    fn begin_step(&mut self) {
        Context::begin_step(self);
    }
}
