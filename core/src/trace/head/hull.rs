//! The hull head: O(log t) lookups over the upper convex hull of the keys.
//!
//! Every key `(2a, −a²)` lies on a parabola, which is strictly concave, so
//! every distinct address is a vertex of the upper hull and a new address never
//! hides an old one: inserting a vertex removes none. Writes of an address
//! already present land on the same point; the latest of them outscores the
//! others for *every* query (same address term, larger sequence number), so the
//! vertex keeps only the latest write. This is exact, not a cache heuristic:
//! a stale write can never win again.
//!
//! **Invariant.** The tree holds one node per distinct address, in address
//! order (a treap: binary-search-tree order on the address, heap order on a
//! pseudo-random priority, so its depth is O(log n) expected whatever order
//! the addresses come in); each node holds the latest write of its address and
//! a link to its in-order predecessor (the previous vertex along the hull).
//!
//! **Lookup.** Along the hull, the scores of a query rise strictly, then fall
//! strictly (they are `T·(q² − (a−q)²) + s`, distinct integers): unimodal.
//! So the winner is the last vertex whose incoming edge rises, i.e. whose
//! score exceeds its predecessor's. One dot product per visited node — the
//! query against the edge `k_v − k_pred`, whose sign is that comparison —
//! decides whether the winner is this node or to its right, or to its left:
//! a binary search over the hull, O(log n) dot products, plus one for the
//! winner's own score.

use super::Found;
use crate::trace::score::{Key, Query};

const NIL: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node {
    addr: u32,
    seq: u64,
    value: u32,
    prio: u32,
    left: u32,
    right: u32,
    /// The previous vertex in address order (`NIL` for the first).
    pred: u32,
}

#[derive(Clone, Debug)]
pub struct Hull {
    nodes: Vec<Node>,
    root: u32,
    /// xorshift state for the priorities (fixed seed: runs are reproducible).
    rng: u32,
}

impl Default for Hull {
    fn default() -> Hull {
        Hull { nodes: Vec::new(), root: NIL, rng: 0x9E37_79B9 }
    }
}

impl Hull {
    pub fn insert(&mut self, addr: u32, seq: u64, value: u32) {
        let (mut pred, mut succ) = (NIL, NIL);
        let mut path = Vec::with_capacity(48);
        let mut v = self.root;
        while v != NIL {
            let n = &mut self.nodes[v as usize];
            if addr == n.addr {
                // The same point: the newer write dominates the vertex's old one.
                n.seq = seq;
                n.value = value;
                return;
            }
            path.push(v);
            if addr < n.addr {
                succ = v;
                v = n.left;
            } else {
                pred = v;
                v = n.right;
            }
        }
        let id = self.nodes.len() as u32;
        let prio = self.next_prio();
        self.nodes.push(Node { addr, seq, value, prio, left: NIL, right: NIL, pred });
        if succ != NIL {
            self.nodes[succ as usize].pred = id;
        }
        self.attach(&path, id);
    }

    /// Hangs the new leaf `id` under the last node of `path`, then rotates it up
    /// while its priority beats its parent's (rotations keep the in-order
    /// sequence, so the `pred` links stay true).
    fn attach(&mut self, path: &[u32], id: u32) {
        let addr = self.nodes[id as usize].addr;
        match path.last() {
            None => self.root = id,
            Some(&p) if addr < self.nodes[p as usize].addr => self.nodes[p as usize].left = id,
            Some(&p) => self.nodes[p as usize].right = id,
        }
        for i in (0..path.len()).rev() {
            let p = path[i];
            if self.nodes[id as usize].prio <= self.nodes[p as usize].prio {
                break;
            }
            if self.nodes[p as usize].left == id {
                self.nodes[p as usize].left = self.nodes[id as usize].right;
                self.nodes[id as usize].right = p;
            } else {
                self.nodes[p as usize].right = self.nodes[id as usize].left;
                self.nodes[id as usize].left = p;
            }
            match i.checked_sub(1).map(|g| path[g]) {
                None => self.root = id,
                Some(g) if self.nodes[g as usize].left == p => self.nodes[g as usize].left = id,
                Some(g) => self.nodes[g as usize].right = id,
            }
        }
    }

    fn next_prio(&mut self) -> u32 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.rng = x;
        x
    }

    fn key(&self, v: u32) -> Key {
        let n = &self.nodes[v as usize];
        Key::new(n.addr, n.seq)
    }

    /// The argmax over the hull, and the dot products it took.
    pub fn lookup(&self, q: &Query) -> (Option<Found>, u64) {
        let (mut best, mut dots) = (NIL, 0u64);
        let mut v = self.root;
        while v != NIL {
            let n = &self.nodes[v as usize];
            let rises = n.pred == NIL || {
                dots += 1;
                q.dot(self.key(v).minus(self.key(n.pred))) > 0
            };
            if rises {
                best = v;
                v = n.right;
            } else {
                v = n.left;
            }
        }
        if best == NIL {
            return (None, dots);
        }
        let n = &self.nodes[best as usize];
        let found = Found { addr: n.addr, seq: n.seq, value: n.value, score: q.dot(self.key(best)) };
        (Some(found), dots + 1)
    }

    /// Vertices: one per distinct address.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// The vertices in hull (address) order, each with its latest write.
    pub fn vertices(&self) -> Vec<(u32, u64, u32)> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = Vec::new();
        let mut v = self.root;
        while v != NIL || !stack.is_empty() {
            while v != NIL {
                stack.push(v);
                v = self.nodes[v as usize].left;
            }
            let Some(top) = stack.pop() else { break };
            let n = &self.nodes[top as usize];
            out.push((n.addr, n.seq, n.value));
            v = n.right;
        }
        out
    }
}
