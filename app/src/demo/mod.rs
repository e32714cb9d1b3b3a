//! The demos in the page: [`DemoRunner`] (plain Rust, no DOM) turns a demo's
//! metadata into input writes, pacing and a [`DemoView`] to draw;
//! [`DemoPanel`] draws it. The page owns the engine and the run loop and calls
//! the runner at the moments the host convention names (`demos/README.md`):
//! after loading ([`DemoRunner::prepare`]), on key presses
//! ([`DemoRunner::on_key`]), at each `frame()` ([`DemoRunner::at_frame`]) and
//! whenever it draws ([`DemoRunner::view`]).
//!
//! Wiring it into the page (what the page must do):
//! 1. link `www/demo.css` from `www/index.html`;
//! 2. call [`DemoRunner::reseed`] with a random number before `prepare` (for
//!    "Random shuffle" / "Random seed");
//! 3. pass `on_puzzle` to [`DemoPanel`]: call [`DemoRunner::set_puzzle`] (the
//!    panel has already validated the text), rebuild, then `prepare` with the
//!    returned index;
//! 4. for the sort highlight, keep the [`trace_matches`] of the last ~10
//!    traced steps (oldest first) and pass them to `view` (the interpreter has
//!    no trace: the highlight is then empty);
//! 5. Sudoku has no `frame()`: run it in time slices and redraw each slice.

mod attention;
mod panel;
mod puzzle;
mod setup;
mod view;

pub use attention::{trace_matches, AttnMatch};
pub use loom_core::frontend::demos::{Demo, DEMOS};
pub use panel::DemoPanel;
pub use puzzle::parse_puzzle;
pub use view::{
    two_words, BarsView, Control, Counter, DemoView, GridCell, GridView, Info, SudokuCell, SudokuState, SudokuView,
    HIGH_WORD,
};

use loom_core::frontend::demos::Meta;
use loom_core::frontend::host::write_var;
use loom_core::frontend::Engine;
use setup::Setup;
use std::collections::VecDeque;

/// The demo a saved draft still shows after a reload: the saved demo `id`
/// when the draft is its source unchanged. An edited demo reloads as the
/// user's own program (their text, without the demo's board).
pub fn restored(id: Option<&str>, draft: &str) -> Option<&'static str> {
    DEMOS.iter().find(|d| Some(d.id) == id && d.source == draft).map(|d| d.id)
}

/// Key presses waiting for the next `frame()`; more are dropped, so holding a
/// key down does not queue moves for seconds ahead.
const MAX_QUEUED: usize = 3;

/// Plain-Rust model of a running demo: input mapping, pacing, what to draw.
pub struct DemoRunner {
    demo: &'static Demo,
    meta: Meta,
    setups: Vec<Setup>,
    /// State of the generator behind the "random" setups (xorshift64, never 0).
    random: u64,
    /// `(input, value)` writes waiting for the next `frame()`.
    queued: VecDeque<(String, i64)>,
    /// The display array's words as `prepare` wrote them (Sudoku: the givens).
    prepared: Vec<i64>,
    /// The last write the program refused (a source edited away from its metadata).
    problem: Option<String>,
}

impl DemoRunner {
    pub fn new(demo: &'static Demo) -> DemoRunner {
        let meta = demo.meta().expect("the demo metadata is tested to parse");
        let setups = setup::setups(&meta);
        DemoRunner {
            demo,
            meta,
            setups,
            random: 0x9e37_79b9_7f4a_7c15,
            queued: VecDeque::new(),
            prepared: Vec::new(),
            problem: None,
        }
    }

    pub fn demo(&self) -> &'static Demo {
        self.demo
    }

    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// Examples (puzzles, seeds, inputs) from the metadata, by display name.
    pub fn examples(&self) -> Vec<String> {
        self.setups.iter().map(|s| s.name.clone()).collect()
    }

    /// Seeds the "random" examples (shuffle, random seed); the page passes a
    /// fresh random number (e.g. from `Math.random`) before each `prepare`.
    pub fn reseed(&mut self, random: u64) {
        self.random = random | 1;
    }

    /// Adds (or replaces) the example "Your puzzle" from 81 digits typed by the
    /// user (see [`parse_puzzle`]) and returns its index for [`DemoRunner::prepare`].
    pub fn set_puzzle(&mut self, text: &str) -> Result<usize, String> {
        let grid = parse_puzzle(text)?;
        let var = self.meta.display.var.clone();
        Ok(setup::put(&mut self.setups, Setup::fixed(setup::OWN_PUZZLE, vec![(var, grid)])))
    }

    /// Called right after the page built `demo.source` for `meta().config` and
    /// loaded an engine: writes the chosen example's inputs.
    pub fn prepare(&mut self, engine: &mut dyn Engine, example: usize) -> Result<(), String> {
        let setup = self.setups.get(example).ok_or_else(|| format!("no example {example}"))?;
        let writes = setup.writes(&mut self.random);
        self.queued.clear();
        self.problem = None;
        self.prepared.clear();
        for (name, values) in writes {
            write_var(engine, &name, &values).map_err(|e| e.to_string())?;
            if name == self.meta.display.var {
                self.prepared = values;
            }
        }
        Ok(())
    }

    /// A key press (`KeyboardEvent.key`) or on-screen button; true if the demo
    /// uses it. The write is queued for the next `frame()`.
    pub fn on_key(&mut self, key: &str) -> bool {
        let key = if key.chars().count() == 1 { key.to_lowercase() } else { key.to_owned() };
        let hit = self.meta.inputs.iter().filter(|i| i.when == "frame").find_map(|i| Some((i, *i.keys.get(&key)?)));
        let Some((input, value)) = hit else { return false };
        if self.queued.len() < MAX_QUEUED {
            self.queued.push_back((input.name.clone(), value));
        }
        true
    }

    /// The run loop paused at a `frame()`: writes the oldest queued value of
    /// each input (one per frame, so two quick presses make two turns).
    pub fn at_frame(&mut self, engine: &mut dyn Engine) {
        let mut written: Vec<String> = Vec::new();
        let mut rest = VecDeque::new();
        while let Some((name, value)) = self.queued.pop_front() {
            if written.contains(&name) {
                rest.push_back((name, value));
                continue;
            }
            if let Err(e) = write_var(engine, &name, &[value]) {
                self.problem = Some(e.to_string());
            }
            written.push(name);
        }
        self.queued = rest;
    }

    /// The keys the demo reads at `frame()` (`KeyboardEvent.key`, lower case for letters).
    pub fn keys(&self) -> Vec<String> {
        self.meta.inputs.iter().filter(|i| i.when == "frame").flat_map(|i| i.keys.keys().cloned()).collect()
    }

    /// Whether the demo is a game played with keys: it waits for the first
    /// key at its first `frame()` rather than playing itself out.
    pub fn waits_for_key(&self) -> bool {
        !self.keys().is_empty()
    }

    /// Minimum milliseconds between frames (from the metadata's fps), None =
    /// as fast as possible.
    pub fn frame_interval_ms(&self) -> Option<f64> {
        self.meta.fps.filter(|&f| f > 0).map(|f| 1000.0 / f as f64)
    }

    /// What to draw now. `matches` are the attention matches of the last
    /// executed step(s), oldest first (see [`trace_matches`]); the sort view
    /// highlights the array elements they read and wrote.
    pub fn view(&self, engine: &dyn Engine, matches: &[AttnMatch]) -> DemoView {
        view::build(&self.meta, &self.prepared, self.problem.as_deref(), engine, matches)
    }
}
