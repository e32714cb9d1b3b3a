//! The trace page's session: the second machine (`loom_core::frontend::trace`,
//! WebAssembly by attention over its trace) behind its own small protocol
//! ([`protocol`]), testable without a DOM like the Loom session.
//!
//! Scrubbing: the machine only runs forward, and it is deterministic, so the
//! session keeps the furthest run (`ahead`: the trace table's rows, the
//! scrubber's range) and, when the scrubber is behind it, a second machine
//! replayed from the start to the step on display (`at`). Stepping forward
//! from there steps the replay until it meets the furthest run again. A
//! replay is the same steps, so it shows exactly what the first run did.

pub mod plot;
pub mod protocol;
pub mod view;

use loom_core::frontend::trace::code::Code;
use loom_core::frontend::trace::programs::PROGRAMS;
use loom_core::frontend::trace::{HeadMode, LoadError, Machine, Status};
use loom_core::frontend::Pacer;
use loom_core::frontend::{Diagnostic, Span};
pub use protocol::{TraceCommand, TraceEvent};
pub use view::{TraceBuild, TraceView};

/// The furthest a run goes in the page: the trace lives in the tab's memory
/// (a write record, a step record and the heads' keys per step; in `both`
/// mode the brute-force head alone scans every key per lookup).
pub const MAX_STEPS: u64 = 1_000_000;

/// While running, a view is sent at most this often (ms): building one walks
/// the memory writes, and nobody reads a table faster.
pub const VIEW_EVERY_MS: f64 = 100.0;

/// The starter shown first.
pub const FIRST_EXAMPLE: &str = "gcd";

pub struct TraceSession {
    source: String,
    example: Option<String>,
    mode: HeadMode,
    /// The loaded program (`None` after a load error).
    code: Option<Code>,
    diagnostics: Vec<Diagnostic>,
    builds: u64,
    /// The furthest run.
    ahead: Option<Machine>,
    /// The machine at an earlier step than `ahead`, while scrubbing.
    at: Option<Machine>,
    /// The read of the current step the plot explains (`None`: the default one).
    pick: Option<usize>,
    running: bool,
    pacer: Pacer,
    last_view_ms: f64,
}

impl Default for TraceSession {
    fn default() -> TraceSession {
        TraceSession::new()
    }
}

impl TraceSession {
    /// A session with the first starter loaded, on the hull heads (as the
    /// CLI: brute force, alone or in `both`, costs O(t) per read, and a
    /// scrub replays every step before the one shown).
    pub fn new() -> TraceSession {
        let mut s = TraceSession {
            source: String::new(),
            example: None,
            mode: HeadMode::Hull,
            code: None,
            diagnostics: Vec::new(),
            builds: 0,
            ahead: None,
            at: None,
            pick: None,
            running: false,
            pacer: Pacer::default(),
            last_view_ms: 0.0,
        };
        s.example(FIRST_EXAMPLE).expect("invariant: the first example is a starter");
        s
    }

    /// Applies a command; its events, or why it was refused (nothing changed then).
    pub fn handle(&mut self, cmd: TraceCommand) -> Result<Vec<TraceEvent>, String> {
        match cmd {
            TraceCommand::Load { source } => {
                self.load(source, None);
                return Ok(vec![self.loaded(), self.moved()]);
            }
            TraceCommand::Example { name } => {
                self.example(&name)?;
                return Ok(vec![self.loaded(), self.moved()]);
            }
            TraceCommand::Heads { mode } => {
                self.mode = HeadMode::parse(&mode)?;
                let at = self.position();
                self.rebuild();
                self.seek(at);
                return Ok(vec![self.loaded(), self.moved()]);
            }
            TraceCommand::Run => {
                self.machine()?;
                self.running = self.cursor().is_some_and(|m| *m.status() == Status::Running && m.steps() < MAX_STEPS);
                self.pacer.restart();
            }
            TraceCommand::Pause => self.running = false,
            TraceCommand::Step => {
                self.machine()?;
                self.running = false;
                self.seek(self.position() + 1);
            }
            TraceCommand::Back => {
                self.machine()?;
                self.running = false;
                self.seek(self.position().saturating_sub(1));
            }
            TraceCommand::Seek { step } => {
                self.machine()?;
                self.running = false;
                self.seek(step);
            }
            TraceCommand::Reset => {
                self.machine()?;
                self.running = false;
                self.rebuild();
            }
            TraceCommand::Lookup { index } => {
                let reads = self.cursor().map_or(0, |m| m.last_lookups().len());
                if index >= reads {
                    return Err(format!("this step made {reads} reads: there is no read {index}"));
                }
                self.pick = Some(index);
            }
        }
        Ok(vec![self.moved()])
    }

    /// While running: runs for about `budget_ms` on `clock` (ms). Returns a
    /// view when one is due (the end of the run, or every [`VIEW_EVERY_MS`]).
    pub fn tick(&mut self, clock: &mut dyn FnMut() -> f64, budget_ms: f64) -> Vec<TraceEvent> {
        if !self.running {
            return Vec::new();
        }
        let Some(ahead) = self.ahead.as_mut() else {
            self.running = false;
            return vec![self.moved()];
        };
        let at = &mut self.at;
        let known = ahead.steps();
        let mut caught_up = false;
        self.pacer.run_for(budget_ms, u64::MAX, clock, &mut |n| {
            let (m, limit, replay) = match at.as_mut() {
                Some(m) => (m, known, true),
                None => (&mut *ahead, MAX_STEPS, false),
            };
            let ran = m.run(n.min(limit.saturating_sub(m.steps())));
            caught_up = replay && m.steps() == known;
            (ran, caught_up || *m.status() != Status::Running || m.steps() >= MAX_STEPS)
        });
        if caught_up {
            self.at = None;
        }
        let now = clock();
        let done = self.cursor().is_none_or(|m| *m.status() != Status::Running || m.steps() >= MAX_STEPS);
        if done {
            self.running = false;
        }
        if done || now - self.last_view_ms >= VIEW_EVERY_MS {
            self.last_view_ms = now;
            vec![self.moved()]
        } else {
            Vec::new()
        }
    }

    pub fn running(&self) -> bool {
        self.running
    }

    /// The build event: the source, its diagnostics, the heads.
    pub fn build(&self) -> TraceBuild {
        TraceBuild {
            builds: self.builds,
            source: self.source.clone(),
            example: self.example.clone(),
            heads: self.mode.name().to_owned(),
            diagnostics: self.diagnostics.clone(),
            instructions: self.code.as_ref().map_or(0, |c| c.instrs.len()),
        }
    }

    /// The machine at the step on display, as the page shows it.
    pub fn view(&self) -> TraceView {
        match (self.cursor(), &self.ahead) {
            (Some(m), Some(ahead)) => TraceView::of(m, ahead, self.pick, self.running),
            _ => TraceView::unloaded(),
        }
    }

    /// The machine at the step on display (`None` without a program).
    pub fn cursor(&self) -> Option<&Machine> {
        self.at.as_ref().or(self.ahead.as_ref())
    }

    /// Steps executed by the machine on display.
    pub fn position(&self) -> u64 {
        self.cursor().map_or(0, Machine::steps)
    }

    fn loaded(&self) -> TraceEvent {
        TraceEvent::Loaded(Box::new(self.build()))
    }

    fn moved(&self) -> TraceEvent {
        TraceEvent::Moved(Box::new(self.view()))
    }

    fn machine(&self) -> Result<(), String> {
        match self.code {
            Some(_) => Ok(()),
            None => Err("no program: fix the errors in the WAT source first".into()),
        }
    }

    fn example(&mut self, name: &str) -> Result<(), String> {
        let p = PROGRAMS.iter().find(|p| p.name == name).ok_or_else(|| {
            let names: Vec<&str> = PROGRAMS.iter().map(|p| p.name).collect();
            format!("no starter program `{name}` (one of {})", names.join(", "))
        })?;
        self.load(p.source.to_owned(), Some(name.to_owned()));
        Ok(())
    }

    fn load(&mut self, source: String, example: Option<String>) {
        self.running = false;
        self.builds += 1;
        match loom_core::frontend::trace::load_wat(&source) {
            Ok(code) => {
                self.code = Some(code);
                self.diagnostics.clear();
            }
            Err(e) => {
                self.code = None;
                self.diagnostics = vec![diagnostic(&e)];
            }
        }
        self.source = source;
        self.example = example;
        self.rebuild();
    }

    /// A fresh machine before its first step (none without a program).
    fn rebuild(&mut self) {
        self.ahead = self.code.clone().map(|c| Machine::with_heads(c, self.mode));
        self.at = None;
        self.pick = None;
    }

    /// Brings the machine on display to `step` instructions (or as far as
    /// the program goes): runs the furthest run on, or replays to an earlier step.
    fn seek(&mut self, step: u64) {
        let (Some(code), Some(ahead)) = (&self.code, self.ahead.as_mut()) else { return };
        let step = step.min(MAX_STEPS);
        self.pick = None;
        if step >= ahead.steps() {
            ahead.run(step - ahead.steps());
            self.at = None;
            return;
        }
        if self.at.as_ref().is_none_or(|m| m.steps() > step) {
            self.at = Some(Machine::with_heads(code.clone(), self.mode));
        }
        if let Some(m) = self.at.as_mut() {
            m.run(step - m.steps());
        }
    }
}

/// A load error as the editor's diagnostic: at its WAT line and column, or
/// (no span: an error about the binary `wat` produced) on the first line
/// with the byte offset in the message.
fn diagnostic(e: &LoadError) -> Diagnostic {
    match e.span {
        Some(span) => Diagnostic::error(span, e.message.clone()),
        None => Diagnostic::error(Span { line: 1, col: 0, end_col: 0 }, e.to_string()),
    }
}
