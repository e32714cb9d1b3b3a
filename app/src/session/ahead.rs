//! How many steps the run will take, when that can be known: the progress
//! bar's total and its ETA. Either a run of the same build from the same
//! start inputs already finished (its step count is the answer), or the
//! interpreter — over a thousand times faster than the transformer, and
//! equal to it after every step — runs ahead from where the run started, in
//! short slices beside it, until it halts or faults. A program that writes
//! inputs at `frame()` cannot be foreseen (the player's keys decide), nor one
//! that runs for longer than the look-ahead may spend.

use super::writes::Write;
use loom_core::pace::Pacer;
use loom_core::state::Status;
use loom_core::{Engine, Interp};

/// The look-ahead gives up after spending this long (an endless loop has no total).
const GIVE_UP_MS: f64 = 2_000.0;

#[derive(Default)]
pub struct Ahead {
    /// The interpreter running ahead, while it may.
    interp: Option<Interp>,
    pacer: Pacer,
    /// Milliseconds the look-ahead has spent.
    spent: f64,
    /// A run's total step count, and the start inputs it was for (see [`super::writes::Writes::at_start`]).
    known: Option<(Vec<Write>, u64)>,
    /// The start inputs of the run the interpreter looks ahead of.
    key: Vec<Write>,
}

impl Ahead {
    /// A new build: nothing is known of it.
    pub fn forget(&mut self) {
        self.interp = None;
        self.known = None;
    }

    /// A run starts with the machine where `shadow` stands; `start` are the
    /// start inputs (None: the host wrote after the start, so no total holds).
    pub fn start(&mut self, shadow: Option<&Interp>, start: Option<&[Write]>) {
        self.interp = None;
        let Some(key) = start.filter(|_| self.total(start).is_none()) else { return };
        self.key = key.to_vec();
        self.interp = shadow.cloned();
        self.spent = 0.0;
        self.pacer.restart();
    }

    /// The host wrote while running: the interpreter's future is not the machine's.
    pub fn stop(&mut self) {
        self.interp = None;
    }

    /// A run ended after `steps` steps from the start inputs `start`.
    pub fn finished(&mut self, steps: u64, start: Option<Vec<Write>>) {
        self.interp = None;
        self.known = start.map(|s| (s, steps));
    }

    /// Runs the interpreter ahead for at most `ms` on `clock`; `frames`
    /// marks the instructions where the host writes (the look-ahead stops there).
    pub fn advance(&mut self, ms: f64, frames: Option<&[bool]>, clock: &mut dyn FnMut() -> f64) {
        let Some(interp) = self.interp.as_mut() else { return };
        let mut status = Status::Running;
        let slice = self.pacer.run_for(ms, u64::MAX, clock, &mut |n| {
            let before = interp.steps();
            status = interp.run(before + n, frames);
            (interp.steps() - before, status != Status::Budget)
        });
        self.spent += slice.ms;
        match status {
            Status::Halted | Status::Fault { .. } => {
                let total = interp.steps();
                self.interp = None;
                // Known from now on for these start inputs, like a finished run's.
                self.known = Some((std::mem::take(&mut self.key), total));
            }
            Status::Running => self.interp = None,
            Status::Budget if self.spent > GIVE_UP_MS => self.interp = None,
            Status::Budget => {}
        }
    }

    /// The total step count for a run from the start inputs `start`, if known.
    pub fn total(&self, start: Option<&[Write]>) -> Option<u64> {
        let (s, total) = self.known.as_ref()?;
        (Some(s.as_slice()) == start).then_some(*total)
    }
}
