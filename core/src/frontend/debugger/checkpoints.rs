//! Saved machines for stepping back: one every `every` steps near the newest
//! step, thinned with age (each doubling of age keeps [`PER_LEVEL`] of them at
//! double the spacing), so a run of N steps keeps O(log N) snapshots while
//! stepping back from where the run stopped replays at most `every` steps,
//! however long the run was. A replay takes snapshots on its way, so the
//! next step back is as cheap again.

use crate::frontend::Snapshot;

/// Snapshots kept per level of age (the spacing doubles from one level to the next).
const PER_LEVEL: u64 = 2;

pub struct Checkpoint {
    pub step: u64,
    pub machine: Snapshot,
    /// The shadow interpreter alongside a transformer.
    pub shadow: Option<Snapshot>,
    /// How many host writes (the session's log) the snapshot already holds.
    pub writes: usize,
}

pub struct Checkpoints {
    every: u64,
    list: Vec<Checkpoint>,
}

impl Checkpoints {
    pub fn new(every: u64) -> Checkpoints {
        Checkpoints { every, list: Vec::new() }
    }

    /// The next step count at or after `step` at which a snapshot is due.
    pub fn next_due(&self, step: u64) -> u64 {
        let step = match self.list.last() {
            Some(c) => step.max(c.step + 1),
            None => step,
        };
        step.div_ceil(self.every) * self.every
    }

    /// Whether a snapshot should be taken at `step` (not taken yet).
    pub fn due(&self, step: u64) -> bool {
        self.next_due(step) == step
    }

    pub fn push(&mut self, c: Checkpoint) {
        self.list.push(c);
        thin(&mut self.list, self.every, |c| c.step);
    }

    /// The latest snapshot at or before `step`, forgetting later ones (they
    /// belong to a future that stepping forward recreates).
    pub fn back_to(&mut self, step: u64) -> Option<&Checkpoint> {
        self.list.retain(|c| c.step <= step);
        self.list.last()
    }
}

/// Keeps, among snapshots taken every `every` steps (oldest first), those
/// whose step is a multiple of the spacing their age allows: `every` for the
/// newest `every · PER_LEVEL` steps, then doubling with each doubling of age.
fn thin<T>(list: &mut Vec<T>, every: u64, step: impl Fn(&T) -> u64) {
    let Some(newest) = list.last().map(&step) else { return };
    list.retain(|c| {
        let age = newest - step(c);
        let level = (age / (every * PER_LEVEL) + 1).ilog2().min(40);
        step(c).is_multiple_of(every << level)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of `steps` taking a snapshot every `every` steps: what is kept.
    fn run(every: u64, steps: u64) -> Vec<u64> {
        let mut list = Vec::new();
        for s in (0..=steps).step_by(every as usize) {
            list.push(s);
            thin(&mut list, every, |&s| s);
        }
        list
    }

    #[test]
    fn a_long_run_keeps_few_snapshots_and_a_recent_one() {
        let kept = run(128, 40_000_000);
        assert!(kept.len() <= 40, "{} snapshots for 40 M steps", kept.len());
        assert_eq!(kept.last(), Some(&(40_000_000 / 128 * 128)));
        assert_eq!(kept[0], 0, "the start is always kept");
        // Stepping back k steps from the end restores a snapshot at most about k / PER_LEVEL + 2·128 older.
        let end = *kept.last().unwrap();
        for k in [1u64, 200, 5_000, 100_000, 3_000_000, 39_000_000] {
            let target = end - k;
            let from = kept.iter().rev().find(|&&s| s <= target).unwrap();
            assert!(target - from <= k / PER_LEVEL + 2 * 128, "back {k}: replays {} steps", target - from);
        }
    }

    #[test]
    fn the_snapshots_are_sorted_and_unique() {
        let kept = run(128, 1_000_000);
        assert!(kept.windows(2).all(|w| w[0] < w[1]), "{kept:?}");
    }
}
