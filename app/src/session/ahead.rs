//! How many steps the run will take, when that can be known: the progress
//! bar's total and its ETA. Either a run of the same build from the same
//! start inputs already finished (its step count is the answer), or the
//! interpreter — over a thousand times faster than the transformer, and
//! equal to it after every step — runs ahead from where the run started, in
//! short slices beside it, until it halts or faults. A program that writes
//! inputs at `frame()` cannot be foreseen (the player's keys decide), nor one
//! that runs for longer than the look-ahead may spend.

use loom_core::frontend::debugger::Write;
use loom_core::frontend::Engine;
use loom_core::frontend::Machine;
use loom_core::frontend::Pacer;
use loom_core::frontend::Status;

/// The look-ahead gives up after spending this long (an endless loop has no total).
const GIVE_UP_MS: f64 = 2_000.0;
/// Or after this many steps, whatever the clock says: the hard Sudoku takes
/// 40.9 M, and a clock that does not see the work (a test's simulated one)
/// must not let an endless loop run ahead for billions.
const GIVE_UP_STEPS: u64 = 64_000_000;

#[derive(Default)]
pub struct Ahead {
    /// The interpreter running ahead, while it may (a machine: it reads the program's input).
    interp: Option<Machine>,
    pacer: Pacer,
    /// Milliseconds the look-ahead has spent.
    spent: f64,
    /// A run's total step count, and the start inputs it was for (see [`loom_core::frontend::Debugger::writes_at_start`]).
    known: Option<(Vec<Write>, u64)>,
    /// The start inputs of the run the interpreter looks ahead of.
    key: Vec<Write>,
    /// The interpreter's step count where the look-ahead started.
    from: u64,
}

impl Ahead {
    /// A new build: nothing is known of it.
    pub fn forget(&mut self) {
        self.interp = None;
        self.known = None;
    }

    /// A run starts with the machine where `shadow` stands; `start` are the
    /// start inputs (None: the host wrote after the start, so no total holds).
    pub fn start(&mut self, shadow: Option<&Machine>, start: Option<&[Write]>) {
        self.interp = None;
        let Some(key) = start.filter(|_| self.total(start).is_none()) else { return };
        self.key = key.to_vec();
        self.interp = shadow.and_then(Machine::interp_copy);
        self.from = self.interp.as_ref().map_or(0, Machine::steps);
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
        let left = GIVE_UP_STEPS.saturating_sub(interp.steps() - self.from);
        let slice = self.pacer.run_for(ms, left, clock, &mut |n| {
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
            Status::Budget if self.spent > GIVE_UP_MS || slice.steps == left => self.interp = None,
            Status::Budget => {}
        }
    }

    /// The total step count for a run from the start inputs `start`, if known.
    pub fn total(&self, start: Option<&[Write]>) -> Option<u64> {
        let (s, total) = self.known.as_ref()?;
        (Some(s.as_slice()) == start).then_some(*total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loom_core::frontend::Config;

    fn interp(source: &str) -> Machine {
        let built = loom_core::frontend::compile(source, Config::preset("small").unwrap());
        Machine::new(loom_core::frontend::EngineKind::Interp, built.program.as_ref().unwrap()).unwrap()
    }

    /// A clock that advances `ms` per reading, whatever the work between readings.
    fn blind_clock(ms: f64) -> impl FnMut() -> f64 {
        let mut t = 0.0;
        move || {
            t += ms;
            t
        }
    }

    #[test]
    fn an_endless_loop_is_given_up_after_its_step_cap_even_when_the_clock_does_not_see_the_work() {
        let mut ahead = Ahead::default();
        ahead.start(Some(&interp("int n; int main() { while (1) { n++; } return 0; }")), Some(&[]));
        let mut clock = blind_clock(0.05);
        while let Some(ran) = ahead.interp.as_ref().map(|i| i.steps() - ahead.from) {
            assert!(ran <= GIVE_UP_STEPS, "looked {ran} steps ahead");
            ahead.advance(10.0, None, &mut clock);
        }
        assert_eq!(ahead.total(Some(&[])), None, "an endless loop has no total");
    }

    #[test]
    fn a_program_that_halts_within_the_cap_gets_its_total() {
        let mut ahead = Ahead::default();
        ahead.start(Some(&interp("int n; int main() { while (n < 100) { n++; } return 0; }")), Some(&[]));
        let mut clock = blind_clock(0.05);
        while ahead.interp.is_some() {
            ahead.advance(10.0, None, &mut clock);
        }
        assert!(ahead.total(Some(&[])).is_some_and(|n| n > 100));
    }
}
