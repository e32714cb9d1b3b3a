//! Running to a wall-clock budget, for a page (or a worker) that must yield
//! regularly: [`Pacer::run_for`] runs in chunks, reading a caller-supplied
//! clock (milliseconds: `performance.now()` in wasm, `Instant` natively)
//! between chunks, and sizes the chunks from the measured rate so the clock is
//! read a few times per budget, not every step. The chunk size stays within
//! `1..=MAX_CHUNK` whatever the clock says (a chunk that doubled without bound
//! once wrapped to zero and froze limited-speed runs).

/// The largest chunk: even an interpreter at 500 M steps/s returns within a few ms.
pub const MAX_CHUNK: u64 = 1 << 20;

/// What one call to [`Pacer::run_for`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Slice {
    pub steps: u64,
    pub ms: f64,
    /// Whether the runner asked to stop (a break, a frame, the end), rather than the time or step budget.
    pub stopped: bool,
}

/// Steps per chunk, adapted to the machine's speed across calls.
#[derive(Clone, Debug)]
pub struct Pacer {
    chunk: u64,
}

impl Default for Pacer {
    fn default() -> Pacer {
        Pacer { chunk: 1 }
    }
}

impl Pacer {
    /// The chunk the next call starts with.
    pub fn chunk(&self) -> u64 {
        self.chunk
    }

    /// Starts again from one-step chunks (a run on another machine size may be far slower).
    pub fn restart(&mut self) {
        self.chunk = 1;
    }

    /// Calls `run(n)` with chunks of at most `n` steps until `budget_ms` have
    /// passed on `clock`, `max_steps` steps are done, or `run` says it stopped.
    /// `run` returns the steps it executed and whether it stopped early.
    pub fn run_for(
        &mut self,
        budget_ms: f64,
        max_steps: u64,
        clock: &mut dyn FnMut() -> f64,
        run: &mut dyn FnMut(u64) -> (u64, bool),
    ) -> Slice {
        let start = clock();
        let mut steps = 0;
        loop {
            let chunk = self.chunk.min(max_steps - steps);
            if chunk == 0 {
                return Slice { steps, ms: clock() - start, stopped: false };
            }
            let t0 = clock();
            let (ran, stopped) = run(chunk);
            let now = clock();
            steps += ran;
            // Aim at chunks of about a quarter of the budget.
            let per_step = (now - t0) / ran.max(1) as f64;
            self.chunk = if per_step > 0.0 {
                ((budget_ms / 4.0 / per_step) as u64).clamp(1, MAX_CHUNK)
            } else {
                self.chunk.saturating_mul(2).min(MAX_CHUNK)
            };
            if stopped || steps >= max_steps || now - start >= budget_ms {
                return Slice { steps, ms: now - start, stopped };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake clock advancing `step` ms per reading.
    fn clock(step: f64) -> impl FnMut() -> f64 {
        let mut t = 0.0;
        move || {
            t += step;
            t
        }
    }

    #[test]
    fn stops_on_the_clock_on_the_step_budget_and_when_asked() {
        let mut p = Pacer::default();
        let mut total = 0;
        let mut count = |n: u64| {
            total += n;
            (n, false)
        };
        let s = p.run_for(5.0, u64::MAX, &mut clock(1.0), &mut count);
        assert!(s.ms >= 5.0 && s.steps > 0 && !s.stopped);
        let s = p.run_for(1e9, 10, &mut clock(1.0), &mut count);
        assert_eq!(s.steps, 10);
        let mut left = 3;
        let mut halting = |n: u64| {
            let ran = n.min(left);
            left -= ran;
            (ran, left == 0)
        };
        assert!(p.run_for(1e9, u64::MAX, &mut clock(1.0), &mut halting).stopped);
    }

    #[test]
    fn the_chunk_stays_in_range_when_the_clock_does_not_move() {
        // A clock too coarse to see a chunk (or a limited speed allowing one
        // step per call): thousands of calls must never wrap the chunk to 0.
        let mut p = Pacer::default();
        let mut frozen = || 0.0;
        for _ in 0..10_000 {
            let s = p.run_for(8.0, 1, &mut frozen, &mut |n| (n, false));
            assert_eq!(s.steps, 1);
        }
        assert!((1..=MAX_CHUNK).contains(&p.chunk()));
    }
}
