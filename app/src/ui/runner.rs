//! The time-sliced run loop: each animation frame executes instructions for
//! at most [`SLICE_MS`] and then yields, so the page never blocks (no task
//! near 50 ms even on the transformer at full speed). Chunks adapt their size
//! to the engine's speed so each one takes about a millisecond.

use super::demos::DemoSlot;
use super::SessionSignal;
use crate::session::Stop;
use leptos::prelude::*;

/// Milliseconds of execution per frame.
pub const SLICE_MS: f64 = 8.0;

/// At full speed the views refresh at most this often (20 per second): laying
/// out and painting the page every frame took as long as the frame's steps.
const REFRESH_MS: f64 = 50.0;

/// Speeds offered, in steps per second; 0 = as fast as possible.
pub const SPEEDS: [u32; 6] = [0, 10_000, 1_000, 100, 10, 1];

#[derive(Clone, Copy)]
pub struct Runner {
    session: SessionSignal,
    demo: DemoSlot,
    running: RwSignal<bool>,
    /// Steps per second (0 = max).
    pub speed: RwSignal<u32>,
    /// Measured steps per second while running.
    pub rate: RwSignal<f64>,
    /// Instructions per chunk (adapted), and the fractional steps owed at a limited speed.
    chunk: StoredValue<u64>,
    owed: StoredValue<f64>,
    last: StoredValue<f64>,
    /// When the views last refreshed, and the steps run since.
    shown: StoredValue<(f64, u64)>,
}

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

impl Runner {
    pub fn new(session: SessionSignal, demo: DemoSlot) -> Runner {
        Runner {
            session,
            demo,
            running: RwSignal::new(false),
            speed: RwSignal::new(0),
            rate: RwSignal::new(0.0),
            chunk: StoredValue::new(1),
            owed: StoredValue::new(0.0),
            last: StoredValue::new(0.0),
            shown: StoredValue::new((0.0, 0)),
        }
    }

    pub fn running(&self) -> bool {
        self.running.get()
    }

    pub fn running_untracked(&self) -> bool {
        self.running.get_untracked()
    }

    pub fn pause(&self) {
        self.running.set(false);
        // The last frames may have run unshown.
        self.session.notify();
    }

    pub fn toggle(&self) {
        if self.running.get_untracked() {
            self.pause();
        } else {
            self.running.set(true);
            // Chunks start at one step: the last run may have been on a much faster machine size.
            self.chunk.set_value(1);
            self.last.set_value(now());
            self.owed.set_value(0.0);
            self.shown.set_value((now(), 0));
            let me = *self;
            request_animation_frame(move || me.tick());
        }
    }

    fn tick(self) {
        if !self.running.get_untracked() {
            return;
        }
        let start = now();
        let dt = (start - self.last.get_value()).max(0.0);
        self.last.set_value(start);
        let speed = self.speed.get_untracked();
        let mut allowed = if speed == 0 {
            u64::MAX
        } else {
            let owed = self.owed.get_value() + f64::from(speed) * dt / 1000.0;
            let whole = owed.floor();
            self.owed.set_value(owed - whole);
            whole as u64
        };
        let mut stop = Stop::Slice;
        let mut done = 0;
        let frames = self.demo.active();
        // A demo with an fps waits this long after a frame() before going on.
        let mut pause = None;
        let (shown, unshown) = self.shown.get_value();
        let refresh = speed != 0 || start - shown >= REFRESH_MS;
        let run = |s: &mut crate::session::Session| {
            // Highlights show what changed since the views last refreshed.
            if unshown == 0 {
                s.mark();
            }
            let before = s.steps();
            while allowed > 0 && now() - start < SLICE_MS {
                let chunk = self.chunk.get_value().min(allowed);
                let t = now();
                stop = s.run_slice(chunk, frames);
                let took = now() - t;
                let ran = s.steps().saturating_sub(before) - done;
                done += ran;
                allowed = allowed.saturating_sub(ran.max(1));
                // About a millisecond per chunk keeps the slice boundary sharp.
                let c = self.chunk.get_value();
                self.chunk.set_value(if took < 0.5 {
                    c * 2
                } else if took > 2.0 {
                    (c / 2).max(1)
                } else {
                    c
                });
                if stop == Stop::Frame {
                    pause = self.demo.at_frame(s);
                    stop = Stop::Slice;
                    if pause.is_some() {
                        break;
                    }
                }
                if stop != Stop::Slice {
                    break;
                }
            }
        };
        if refresh {
            self.session.update(run);
        } else {
            self.session.update_untracked(run);
        }
        let unshown = unshown + done;
        if refresh {
            let r = self.rate.get_untracked();
            let dt = start - shown;
            if dt > 0.0 {
                self.rate.set(0.8 * r + 0.2 * (unshown as f64 * 1000.0 / dt));
            }
            self.shown.set_value((start, 0));
        } else {
            self.shown.set_value((shown, unshown));
        }
        if stop != Stop::Slice {
            self.pause();
            return;
        }
        match pause {
            Some(ms) => set_timeout(
                move || request_animation_frame(move || self.tick()),
                std::time::Duration::from_secs_f64((ms - (now() - start)).max(0.0) / 1000.0),
            ),
            None => request_animation_frame(move || self.tick()),
        }
    }
}
