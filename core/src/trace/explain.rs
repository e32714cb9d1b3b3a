//! A lookup explained, for a UI's key-space plot: every key the head could
//! see, scored exactly against the query, which of them are hull vertices
//! (the latest write of their address) and which are stale, the winner, the
//! best other address and the margin between them. Computed from the trace's
//! write records by brute force and counted nowhere: it is a view, not the
//! machine.

use crate::trace::context::{Lookup, Write};
use crate::trace::exec::Space;
use crate::trace::score::{self, Key, Query, Score};
use serde::{Serialize, Serializer};
use std::collections::HashMap;

fn opt_as_string<S: Serializer>(score: &Option<Score>, s: S) -> Result<S::Ok, S::Error> {
    match score {
        Some(v) => score::serialize(v, s),
        None => s.serialize_none(),
    }
}

/// A key: its write (`seq`, address, value) and its score for the query.
/// On the plot it is the point `(2·addr, −addr²)`. Scores are exact
/// integers that may exceed 2⁵³: they serialise as decimal strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Candidate {
    pub seq: u64,
    pub addr: u32,
    pub value: u32,
    #[serde(serialize_with = "score::serialize")]
    pub score: Score,
    /// A later write of the same address exists: it can never win again.
    pub stale: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Candidates {
    pub space: Space,
    pub query: u32,
    /// Keys the head held at the lookup (writes of its space before it).
    pub keys: usize,
    /// Hull vertices then: distinct addresses written.
    pub vertices: usize,
    pub winner: Option<Candidate>,
    /// The best key of another address (a hull vertex next to the winner).
    pub runner_up: Option<Candidate>,
    /// `winner − runner_up`: when the lookup hit, at least `T` less the
    /// difference of their sequence numbers (which is below the trace's length).
    #[serde(serialize_with = "opt_as_string")]
    pub margin: Option<Score>,
    /// The latest stale write of the winner's address (what latest-wins beat).
    pub shadowed: Option<Candidate>,
    pub hit: bool,
    /// The highest-scoring keys, best first.
    pub shown: Vec<Candidate>,
}

pub fn candidates(writes: &[Write], lookup: &Lookup, limit: usize) -> Candidates {
    let q = Query::new(lookup.addr);
    let end = (lookup.seq_end as usize).min(writes.len());
    let mine = |w: &&(usize, &Write)| w.1.space == lookup.space;
    let mut latest: HashMap<u32, u64> = HashMap::new();
    for (seq, w) in writes[..end].iter().enumerate().filter(|w| mine(&w)) {
        latest.insert(w.addr, seq as u64);
    }
    let mut all: Vec<Candidate> = writes[..end]
        .iter()
        .enumerate()
        .filter(|w| mine(&w))
        .map(|(seq, w)| {
            let seq = seq as u64;
            let score = q.dot(Key::new(w.addr, seq));
            Candidate { seq, addr: w.addr, value: w.value, score, stale: latest[&w.addr] != seq }
        })
        .collect();
    all.sort_by_key(|c| std::cmp::Reverse(c.score));
    let winner = all.first().copied();
    let runner_up = winner.and_then(|w| all.iter().find(|c| c.addr != w.addr).copied());
    let shadowed = winner.and_then(|w| all.iter().skip(1).find(|c| c.addr == w.addr).copied());
    let mut shown: Vec<Candidate> = all.iter().take(limit).copied().collect();
    for c in [runner_up, shadowed].into_iter().flatten() {
        if !shown.contains(&c) {
            shown.push(c);
        }
    }
    if let Some(w) = winner.filter(|w| !shown.contains(w)) {
        shown.insert(0, w);
    }
    Candidates {
        space: lookup.space,
        query: lookup.addr,
        keys: all.len(),
        vertices: latest.len(),
        winner,
        runner_up,
        margin: winner.zip(runner_up).map(|(w, r)| w.score - r.score),
        shadowed,
        hit: winner.is_some_and(|w| w.score >= q.hit_threshold()),
        shown,
    }
}
