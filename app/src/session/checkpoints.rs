//! Saved machines for stepping back: one every `every` steps, thinned (and
//! `every` doubled) when there are too many, so a long run keeps bounded
//! memory and stepping back replays at most `every` steps.

use loom_core::frontend::Snapshot;
use loom_core::Interp;

/// At most this many snapshots (a default-size tensor is 635 KB).
const MAX: usize = 32;

pub struct Checkpoint {
    pub step: u64,
    pub machine: Snapshot,
    /// The shadow interpreter alongside a transformer.
    pub shadow: Option<Interp>,
}

pub struct Checkpoints {
    every: u64,
    list: Vec<Checkpoint>,
}

impl Checkpoints {
    pub fn new(every: u64) -> Checkpoints {
        Checkpoints { every, list: Vec::new() }
    }

    pub fn clear(&mut self, every: u64) {
        self.every = every;
        self.list.clear();
    }

    /// The next step count at which a snapshot is due.
    pub fn next_due(&self, step: u64) -> u64 {
        if self.list.last().is_none_or(|c| c.step < step) && step.is_multiple_of(self.every) {
            step
        } else {
            (step / self.every + 1) * self.every
        }
    }

    /// Whether a snapshot should be taken at `step` (not taken yet).
    pub fn due(&self, step: u64) -> bool {
        self.next_due(step) == step
    }

    pub fn push(&mut self, c: Checkpoint) {
        self.list.push(c);
        if self.list.len() > MAX {
            self.every *= 2;
            let every = self.every;
            self.list.retain(|c| c.step.is_multiple_of(every));
        }
    }

    /// The latest snapshot at or before `step`, forgetting later ones (they
    /// belong to a future that stepping forward recreates).
    pub fn back_to(&mut self, step: u64) -> Option<&Checkpoint> {
        self.list.retain(|c| c.step <= step);
        self.list.last()
    }
}
