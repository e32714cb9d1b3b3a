//! The host's writes into a machine's memory (a demo's inputs at `frame()`,
//! an `input` command), logged at the step they were made, so that a replay
//! (step back: restore a checkpoint, run forward) writes them again at the
//! same steps and reaches exactly the state the run reached. Stepping
//! forward again after stepping back writes them too (the history stays
//! until the host writes something new, which starts another future).

/// One word the host wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Write {
    /// The machine's step count when it was written.
    pub step: u64,
    pub slot: usize,
    pub value: i32,
}

#[derive(Default)]
pub struct Writes {
    log: Vec<Write>,
    /// How many of the log's writes the machine holds now (the rest are due during a replay).
    applied: usize,
}

impl Writes {
    /// The host just wrote these words at `step` (perhaps none): the machine
    /// holds them, and the writes of the future it left behind are forgotten.
    pub fn record(&mut self, step: u64, words: impl IntoIterator<Item = (usize, i32)>) {
        self.log.truncate(self.applied);
        self.log.extend(words.into_iter().map(|(slot, value)| Write { step, slot, value }));
        self.applied = self.log.len();
    }

    /// How many writes the machine holds (what a checkpoint records).
    pub fn applied(&self) -> usize {
        self.applied
    }

    /// Back to a checkpoint that held `applied` writes.
    pub fn rewind(&mut self, applied: usize) {
        self.applied = applied.min(self.log.len());
    }

    /// The writes due at `step` (made at it or before, not held yet), marked held.
    pub fn due(&mut self, step: u64) -> &[Write] {
        let start = self.applied;
        while self.log.get(self.applied).is_some_and(|w| w.step <= step) {
            self.applied += 1;
        }
        &self.log[start..self.applied]
    }

    /// The step of the next write not held yet.
    pub fn next_step(&self) -> Option<u64> {
        self.log.get(self.applied).map(|w| w.step)
    }

    /// The writes made before the first step (a demo's start inputs): what a
    /// program's step count depends on when nothing is written later.
    pub fn at_start(&self) -> Option<Vec<Write>> {
        self.log.iter().all(|w| w.step == 0).then(|| self.log.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_gets_the_writes_back_at_their_steps() {
        let mut w = Writes::default();
        w.record(0, [(3, 7)]);
        w.record(500, [(1, -2), (2, 4)]);
        w.record(900, [(1, 0)]);
        assert_eq!(w.at_start(), None);
        // Back to a checkpoint at step 256 that held the first write.
        w.rewind(1);
        assert_eq!(w.next_step(), Some(500));
        assert!(w.due(499).is_empty());
        assert_eq!(w.due(500), &[Write { step: 500, slot: 1, value: -2 }, Write { step: 500, slot: 2, value: 4 }]);
        assert_eq!(w.next_step(), Some(900), "stepping forward gets the later write too");
        // A new write at 600 starts another future: the one at 900 is gone.
        w.record(600, [(1, 5)]);
        assert_eq!((w.next_step(), w.applied()), (None, 4));
    }
}
