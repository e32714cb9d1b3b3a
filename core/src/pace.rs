//! Running to a wall-clock budget, for a page that must yield to the browser
//! every frame: [`run_for`] runs any engine in chunks, reading a
//! caller-supplied clock (milliseconds: `performance.now()` in wasm,
//! `Instant` natively) between chunks, and sizes the chunks from the measured
//! rate so the clock is read a few times per budget, not every step.

use crate::engine::Engine;
use crate::state::Status;

/// What one call to [`run_for`] did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Slice {
    pub steps: u64,
    pub ms: f64,
    /// As [`Engine::run`] returns it (`Budget` when the time or the step budget ran out).
    pub status: Status,
}

impl Slice {
    pub fn steps_per_sec(&self) -> f64 {
        if self.ms > 0.0 {
            self.steps as f64 * 1000.0 / self.ms
        } else {
            0.0
        }
    }
}

/// Steps per chunk, adapted to the engine's speed across calls.
#[derive(Clone, Debug)]
pub struct Pacer {
    chunk: u64,
}

impl Default for Pacer {
    fn default() -> Pacer {
        Pacer { chunk: 16 }
    }
}

impl Pacer {
    /// Runs until `budget_ms` have passed on `clock`, the machine stops, a
    /// break is hit or `max_steps` steps in total are done.
    pub fn run_for(
        &mut self,
        engine: &mut dyn Engine,
        budget_ms: f64,
        max_steps: u64,
        breaks: Option<&[bool]>,
        clock: &mut dyn FnMut() -> f64,
    ) -> Slice {
        let (start, first) = (clock(), engine.steps());
        loop {
            let t0 = clock();
            let target = engine.steps().saturating_add(self.chunk).min(max_steps);
            let status = engine.run(target, breaks);
            let now = clock();
            // Aim at chunks of about a quarter of the budget.
            let per_step = (now - t0) / self.chunk as f64;
            if per_step > 0.0 {
                self.chunk = ((budget_ms / 4.0 / per_step) as u64).clamp(1, 1 << 20);
            } else {
                self.chunk = (self.chunk * 2).min(1 << 20);
            }
            let done = status != Status::Budget || engine.steps() >= max_steps || now - start >= budget_ms;
            if done {
                let steps = engine.steps() - first;
                return Slice { steps, ms: now - start, status };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{asm::assemble, Config, Interp};

    #[test]
    fn stops_on_the_clock_on_halt_and_on_the_step_budget() {
        let src = ".data n = 0\nloop: INC n\nJMP loop";
        let prog = assemble(src, Config::preset("tiny").unwrap()).unwrap();
        let mut e = Interp::new(&prog).unwrap();
        // A fake clock advancing 1 ms per reading.
        let mut t = 0.0;
        let mut clock = || {
            t += 1.0;
            t
        };
        let mut p = Pacer::default();
        let s = p.run_for(&mut e, 5.0, u64::MAX, None, &mut clock);
        assert_eq!(s.status, Status::Budget);
        assert!(s.ms >= 5.0 && s.steps > 0 && s.steps == e.steps());
        let until = e.steps() + 10;
        let s = p.run_for(&mut e, 1e9, until, None, &mut clock);
        assert_eq!(s.steps, 10);
        let halting = assemble("INC n\nHALT\n.data n = 0", Config::preset("tiny").unwrap()).unwrap();
        let mut h = Interp::new(&halting).unwrap();
        assert_eq!(p.run_for(&mut h, 1e9, u64::MAX, None, &mut clock).status, Status::Halted);
    }
}
