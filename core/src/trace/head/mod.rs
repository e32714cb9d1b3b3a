//! An attention head over one address space of the trace: it receives every
//! write of that space as a key and answers reads with the argmax of the exact
//! scores (`score.rs`). Two implementations give the same answers:
//! [`brute::Brute`] scores every key (O(t)); [`hull::Hull`] searches the
//! upper convex hull (O(log t)). [`HeadMode::Both`] runs the two on every
//! lookup and reports any difference.

pub mod brute;
pub mod hull;

use crate::trace::score::{Query, Score};
use brute::Brute;
use hull::Hull;
use serde::Serialize;

/// Which implementation answers the lookups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HeadMode {
    Brute,
    Hull,
    /// Both, compared on every lookup.
    Both,
}

impl HeadMode {
    pub const ALL: [HeadMode; 3] = [HeadMode::Brute, HeadMode::Hull, HeadMode::Both];

    pub fn name(self) -> &'static str {
        match self {
            HeadMode::Brute => "brute",
            HeadMode::Hull => "hull",
            HeadMode::Both => "both",
        }
    }

    pub fn parse(s: &str) -> Result<HeadMode, String> {
        HeadMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown heads `{s}` (brute|hull|both)"))
    }
}

/// The winning key of a lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    pub addr: u32,
    pub seq: u64,
    pub value: u32,
    /// The exact score (a decimal string in JSON).
    #[serde(serialize_with = "crate::trace::score::serialize")]
    pub score: Score,
}

impl Found {
    /// Whether the winner is a write of the queried address (`score.rs`).
    pub fn hits(&self, q: &Query) -> bool {
        self.score >= q.hit_threshold()
    }
}

/// Counters of one head.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HeadStats {
    pub writes: u64,
    pub lookups: u64,
    /// Dot products the brute-force head computed (0 unless it runs).
    pub brute_dots: u64,
    /// Dot products the hull head computed (0 unless it runs).
    pub hull_dots: u64,
    /// Keys held by the brute-force head (one per write).
    pub brute_size: u64,
    /// Vertices of the hull (one per distinct address).
    pub hull_size: u64,
}

/// The two answers differed: a bug in a head, never the program's fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    pub addr: u32,
    pub brute: Option<Found>,
    pub hull: Option<Found>,
}

#[derive(Clone, Debug)]
pub struct Head {
    brute: Option<Brute>,
    hull: Option<Hull>,
    stats: HeadStats,
}

impl Head {
    pub fn new(mode: HeadMode) -> Head {
        let brute = (mode != HeadMode::Hull).then(Brute::default);
        let hull = (mode != HeadMode::Brute).then(Hull::default);
        Head { brute, hull, stats: HeadStats::default() }
    }

    pub fn write(&mut self, addr: u32, seq: u64, value: u32) {
        self.stats.writes += 1;
        if let Some(b) = &mut self.brute {
            b.insert(addr, seq, value);
            self.stats.brute_size = b.size() as u64;
        }
        if let Some(h) = &mut self.hull {
            h.insert(addr, seq, value);
            self.stats.hull_size = h.size() as u64;
        }
    }

    /// The winning key for a read of `addr` (`None` while the head is empty).
    pub fn read(&mut self, addr: u32) -> Result<Option<Found>, Disagreement> {
        let q = Query::new(addr);
        self.stats.lookups += 1;
        let brute = self.brute.as_ref().map(|b| b.lookup(&q));
        let hull = self.hull.as_ref().map(|h| h.lookup(&q));
        if let Some((_, dots)) = brute {
            self.stats.brute_dots += dots;
        }
        if let Some((_, dots)) = hull {
            self.stats.hull_dots += dots;
        }
        match (brute, hull) {
            (Some((b, _)), Some((h, _))) if b != h => Err(Disagreement { addr, brute: b, hull: h }),
            (_, Some((found, _))) | (Some((found, _)), None) => Ok(found),
            (None, None) => Ok(None),
        }
    }

    /// The winner without counting the lookup (for views and results).
    pub fn peek(&self, addr: u32) -> Option<Found> {
        let q = Query::new(addr);
        match (&self.hull, &self.brute) {
            (Some(h), _) => h.lookup(&q).0,
            (None, Some(b)) => b.lookup(&q).0,
            (None, None) => None,
        }
    }

    pub fn stats(&self) -> HeadStats {
        self.stats
    }

    /// The hull's vertices in address order (`None` in brute-force mode).
    pub fn hull_vertices(&self) -> Option<Vec<(u32, u64, u32)>> {
        self.hull.as_ref().map(Hull::vertices)
    }
}
