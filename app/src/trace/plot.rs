//! The key-space plot of one read, as geometry (no DOM): every key the head
//! held is the point `(2a, −a²)` on the parabola; the query `(q, 1)` scores
//! a key `2aq − a²` (its address part), so the keys of equal score lie on a
//! line of slope −q, and the winner's line touches the parabola's upper
//! hull there. Drawn from `trace::explain`'s candidates, never recomputed.
//!
//! A stale write has the same point as the latest write of its address (they
//! differ only in the sequence number, the key's third component), so it is
//! drawn that many [`STALE_DROP`] pixels below its vertex, newest first.

use loom_core::frontend::trace::explain::{Candidate, Candidates};

pub const WIDTH: f64 = 440.0;
pub const HEIGHT: f64 = 260.0;
const PAD: f64 = 20.0;
/// Pixels between a vertex and each older write of its address.
pub const STALE_DROP: f64 = 6.0;
/// Segments of the drawn parabola.
const CURVE: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Winner,
    RunnerUp,
    /// The latest write of an address: a vertex of the hull.
    Vertex,
    /// An older write of an address.
    Stale,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Winner => "winner",
            Role::RunnerUp => "runner-up",
            Role::Vertex => "vertex",
            Role::Stale => "stale",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dot {
    pub x: f64,
    pub y: f64,
    pub role: Role,
    pub key: Candidate,
}

pub type Pt = (f64, f64);

#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    /// One per shown candidate, in the candidates' order.
    pub dots: Vec<Dot>,
    pub parabola: Vec<Pt>,
    /// The hull's vertices among the shown keys, by address.
    pub hull: Vec<Pt>,
    /// The winner's iso-score line across the plot.
    pub iso: Option<[Pt; 2]>,
    /// The runner-up's (parallel to the winner's: the gap is the margin).
    pub iso_runner_up: Option<[Pt; 2]>,
    /// Where the query's own address sits on the parabola.
    pub query: Pt,
}

/// The plot's window: addresses `lo..=hi` mapped onto the box.
struct Frame {
    lo: f64,
    hi: f64,
}

impl Frame {
    fn of(c: &Candidates) -> Frame {
        let addrs = c.shown.iter().map(|k| f64::from(k.addr)).chain([f64::from(c.query)]);
        let (lo, hi) = addrs.fold((f64::MAX, f64::MIN), |(lo, hi), a| (lo.min(a), hi.max(a)));
        if hi > lo {
            Frame { lo, hi }
        } else {
            Frame { lo: (lo - 1.0).max(0.0), hi: hi + 1.0 }
        }
    }

    /// The point of key-space coordinates `(x, y)`.
    fn at(&self, x: f64, y: f64) -> Pt {
        let (top, bottom) = (-self.lo * self.lo, -self.hi * self.hi);
        let px = PAD + (x / 2.0 - self.lo) / (self.hi - self.lo) * (WIDTH - 2.0 * PAD);
        let py = PAD + (top - y) / (top - bottom) * (HEIGHT - 2.0 * PAD);
        (px, py)
    }

    fn key(&self, addr: f64) -> Pt {
        self.at(2.0 * addr, -addr * addr)
    }

    /// The line `q·x + y = q·2a − a²` (the scores equal to key `a`'s) across the window.
    fn iso(&self, q: f64, a: f64) -> [Pt; 2] {
        let c = q * 2.0 * a - a * a;
        let (x0, x1) = (2.0 * self.lo, 2.0 * self.hi);
        [self.at(x0, c - q * x0), self.at(x1, c - q * x1)]
    }
}

pub fn geometry(c: &Candidates) -> Geometry {
    let frame = Frame::of(c);
    let q = f64::from(c.query);
    let dots = c
        .shown
        .iter()
        .map(|k| {
            let role = if Some(*k) == c.winner {
                Role::Winner
            } else if Some(*k) == c.runner_up {
                Role::RunnerUp
            } else if k.stale {
                Role::Stale
            } else {
                Role::Vertex
            };
            let (x, y) = frame.key(f64::from(k.addr));
            let drop = if k.stale { stale_rank(c, k) as f64 * STALE_DROP } else { 0.0 };
            Dot { x, y: y + drop, role, key: *k }
        })
        .collect();
    let mut vertices: Vec<&Candidate> = c.shown.iter().filter(|k| !k.stale).collect();
    vertices.sort_by_key(|k| k.addr);
    let step = (frame.hi - frame.lo) / CURVE as f64;
    Geometry {
        dots,
        parabola: (0..=CURVE).map(|i| frame.key(frame.lo + step * i as f64)).collect(),
        hull: vertices.iter().map(|k| frame.key(f64::from(k.addr))).collect(),
        iso: c.winner.map(|w| frame.iso(q, f64::from(w.addr))),
        iso_runner_up: c.runner_up.map(|r| frame.iso(q, f64::from(r.addr))),
        query: frame.key(q),
    }
}

/// 1 for the newest stale write of an address, 2 for the one before, …
fn stale_rank(c: &Candidates, k: &Candidate) -> usize {
    c.shown.iter().filter(|o| o.addr == k.addr && o.stale && o.seq >= k.seq).count()
}
