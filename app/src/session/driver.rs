//! The session's driver: it takes the protocol's [`Command`]s, runs the
//! machine in time slices ([`Driver::tick`]) and answers with [`Event`]s. It
//! owns everything that must live beside the machine — the session, the
//! demo's inputs and pacing, the run speed — so a transport only moves
//! commands in and events out: the page's own loop calls it in-thread, and a
//! web worker can call the very same code.

use super::protocol::{Build, Command, DemoInfo, Event, StepBy, View};
use super::{Session, Stop};
use crate::demo::{trace_matches, DemoRunner, DEMOS};
use loom_core::frontend::host::write_scalar;
use loom_core::frontend::Config;
use loom_core::frontend::Pacer;
use loom_core::frontend::{EngineKind, Lang};

/// Speeds offered, in steps per second; 0 = as fast as possible.
pub const SPEEDS: [u32; 6] = [0, 10_000, 1_000, 100, 10, 1];

/// At full speed the views refresh at most this often (10 per second):
/// drawing them every frame took as long as the frame's steps.
const REFRESH_MS: f64 = 100.0;

/// A game held at its first `frame()` looks for the player's first key this
/// often (a key command does not tick the driver by itself).
const HELD_POLL_MS: f64 = 50.0;

/// What the caller should do before the next [`Driver::tick`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Next {
    /// Tick again soon (the next animation frame, or at once in a worker).
    Soon,
    /// Tick again after this many milliseconds (a demo keeping its frame rate).
    After(f64),
    /// Nothing to do until the next command.
    Idle,
}

/// A demo on display: its runner, chosen example, and whether the player has pressed a key yet.
struct Demo {
    runner: DemoRunner,
    example: usize,
    /// Whether a key came since the example was prepared: a game waits at its
    /// first `frame()` until the first key, so it never ends before the player can act.
    started: bool,
    /// Stopped at that first `frame()`, waiting.
    held: bool,
}

pub struct Driver {
    session: Session,
    demo: Option<Demo>,
    running: bool,
    speed: u32,
    pacer: Pacer,
    /// Steps per second measured while running.
    rate: f64,
    /// Fractional steps owed at a limited speed, and the time of the last tick.
    owed: f64,
    last: f64,
    /// When the views last refreshed, and the steps run since.
    shown: (f64, u64),
    /// A seed for the demos' "random" examples, advanced on every use.
    random: u64,
}

impl Driver {
    pub fn new(session: Session) -> Driver {
        Driver {
            session,
            demo: None,
            running: false,
            speed: 0,
            pacer: Pacer::default(),
            rate: 0.0,
            owed: 0.0,
            last: 0.0,
            shown: (0.0, 0),
            random: 0x2545_f491_4f6c_dd1d,
        }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn running(&self) -> bool {
        self.running
    }

    pub fn speed(&self) -> u32 {
        self.speed
    }

    /// The views' data now.
    pub fn view(&self) -> View {
        let mut v = self.session.view(self.running, self.rate);
        if let Some(d) = &self.demo {
            let matches = self.session.trace().map(trace_matches).unwrap_or_default();
            v.demo = self.session.engine_ref().map(|e| d.runner.view(e, &matches));
            if self.running && d.held {
                v.note = Some("Press a key to start (the arrow keys, or the buttons under the board).".into());
            }
        }
        v
    }

    /// What the build shows now.
    pub fn build(&self) -> Build {
        let mut b = self.session.build_info();
        b.demo = self.demo.as_ref().map(|d| DemoInfo {
            id: d.runner.demo().id.to_owned(),
            examples: d.runner.examples(),
            example: d.example,
            keys: d.runner.keys(),
        });
        b
    }

    /// The event that reports the view now: how the machine stands.
    fn moved(&self) -> Event {
        let v = Box::new(self.view());
        match v.status {
            super::protocol::Status::Halted => Event::Halted(v),
            super::protocol::Status::Fault => Event::Fault(v),
            _ => Event::Step(v),
        }
    }

    fn next_random(&mut self) -> u64 {
        // xorshift64: only the demos' shuffles depend on it.
        self.random ^= self.random << 13;
        self.random ^= self.random >> 7;
        self.random ^= self.random << 17;
        self.random
    }

    /// Writes the demo's example into the freshly loaded machine.
    fn prepare_demo(&mut self) {
        let seed = self.next_random();
        let Some(d) = self.demo.as_mut() else { return };
        d.started = false;
        d.held = false;
        d.runner.reseed(seed);
        // A refused write (source edited away from the metadata) shows in the demo's view.
        let _ = self.session.host(|e| d.runner.prepare(e, d.example));
    }

    /// Builds, then writes the demo's inputs when a demo is on display.
    fn compile(&mut self) {
        if self.session.compile() {
            self.prepare_demo();
        }
    }

    fn pause(&mut self) {
        self.running = false;
    }

    /// Does what the command asks; `now` is the clock in milliseconds.
    /// Errors name what was wrong with the command; the session is unchanged then.
    pub fn handle(&mut self, cmd: Command, now: f64) -> Result<Vec<Event>, String> {
        let builds = self.session.builds();
        let mut events = Vec::new();
        match cmd {
            Command::Load { source, lang, config, engine } => {
                self.pause();
                let config = config.map(|c| Config::preset(&c).map_err(|e| e.to_string())).transpose()?;
                if let Some(e) = engine {
                    let n = config.unwrap_or(self.session.config()).n;
                    if !e.offered(n) {
                        return Err(format!("the {} engine is not offered for this configuration", e.name()));
                    }
                }
                self.demo = None;
                self.session.set_source(source);
                if let Some(l) = lang {
                    self.session.set_lang(l);
                }
                if let Some(c) = config {
                    self.session.set_config_quietly(c);
                }
                if let Some(e) = engine {
                    self.session.set_engine_quietly(e);
                }
                self.compile();
            }
            Command::Edit { source } => {
                // The diagnostics follow the text; the machine and its views stay until a build.
                self.session.set_source(source);
                events.push(Event::Compiled(Box::new(self.build())));
            }
            Command::Compile => {
                self.pause();
                self.compile();
            }
            Command::Config { name } => {
                let c = Config::preset(&name).map_err(|e| e.to_string())?;
                self.pause();
                self.session.set_config_quietly(c);
                self.compile();
            }
            Command::Engine { name } => {
                if !name.offered(self.session.config().n) {
                    return Err(format!("the {} engine is not offered for this configuration", name.name()));
                }
                self.pause();
                self.session.set_engine_quietly(name);
                self.compile();
            }
            Command::Run => {
                if !self.running {
                    self.start(now);
                }
            }
            Command::Pause => {
                if self.running {
                    self.pause();
                    events.push(Event::Paused(Box::new(self.view())));
                    return Ok(events);
                }
            }
            Command::Speed { steps_per_second } => {
                self.speed = steps_per_second;
                self.owed = 0.0;
                return Ok(events);
            }
            Command::Step { by } => {
                self.pause();
                let was_stale = self.session.is_stale();
                match by {
                    StepBy::Layer => self.session.step_layer(),
                    StepBy::Instruction => self.session.step(),
                    StepBy::Line => self.session.step_line(),
                    StepBy::Over => self.session.step_over(),
                    StepBy::Out => self.session.step_out(),
                }
                if was_stale && self.session.builds() != builds {
                    // The step built the edited source first: its inputs go in before it runs.
                    self.prepare_demo();
                }
            }
            Command::RunTo { line } => {
                self.pause();
                let was_stale = self.session.is_stale();
                self.session.run_to_line(line);
                if was_stale && self.session.builds() != builds {
                    self.prepare_demo();
                }
            }
            Command::Back => {
                self.pause();
                self.session.step_back();
            }
            Command::Seek { step } => {
                self.pause();
                if self.session.is_stale() {
                    self.compile();
                } else {
                    self.session.reset();
                    self.prepare_demo();
                }
                self.session.seek(step);
            }
            Command::Reset => {
                self.pause();
                if self.session.is_stale() {
                    self.compile();
                } else {
                    self.session.reset();
                    self.prepare_demo();
                }
            }
            Command::State => {}
            Command::Breakpoints { lines } => {
                self.session.set_breakpoints(lines);
                return Ok(events);
            }
            Command::Stdin { text } => self.session.set_input(text),
            Command::Input { name, value } => {
                let written = self.session.host(|e| write_scalar(e, &name, value)).ok_or("nothing is loaded")?;
                written.map_err(|e| e.to_string())?;
            }
            Command::Demo { id } => self.load_demo(id.as_deref())?,
            Command::Example { index } => {
                let d = self.demo.as_mut().ok_or("no demo is loaded")?;
                if index >= d.runner.examples().len() {
                    return Err(format!("the demo has no example {index}"));
                }
                d.example = index;
                self.pause();
                self.session.reset();
                self.prepare_demo();
            }
            Command::Key { key } => {
                let d = self.demo.as_mut().ok_or("no demo is loaded")?;
                if d.runner.on_key(&key) {
                    d.started = true;
                }
                return Ok(events);
            }
            Command::Puzzle { text } => {
                let d = self.demo.as_mut().ok_or("no demo is loaded")?;
                d.example = d.runner.set_puzzle(&text)?;
                self.pause();
                self.compile();
            }
            // A file changes nothing: while running it is the state of the moment asked.
            Command::Download { file } => return Ok(vec![Event::File(Box::new(self.session.file(file)?))]),
        }
        if self.session.builds() != builds && events.is_empty() {
            events.push(Event::Compiled(Box::new(self.build())));
        }
        events.push(self.moved());
        Ok(events)
    }

    /// Does what each command asks, in order, stopping at the first one
    /// refused: the events of those carried out, and why one was refused.
    pub fn handle_all(&mut self, commands: Vec<Command>, now: f64) -> (Vec<Event>, Result<(), String>) {
        let mut events = Vec::new();
        for cmd in commands {
            match self.handle(cmd, now) {
                Ok(e) => events.extend(e),
                Err(why) => return (events, Err(why)),
            }
        }
        (events, Ok(()))
    }

    fn load_demo(&mut self, id: Option<&str>) -> Result<(), String> {
        self.pause();
        let Some(id) = id else {
            self.demo = None;
            return Ok(());
        };
        let demo = DEMOS.iter().find(|d| d.id == id).ok_or_else(|| format!("no demo `{id}`"))?;
        let runner = DemoRunner::new(demo);
        let config = Config::preset(&runner.meta().config).map_err(|e| e.to_string())?;
        self.demo = Some(Demo { runner, example: 0, started: false, held: false });
        self.session.set_source(demo.source.to_owned());
        self.session.set_lang(Lang::C);
        self.session.set_config_quietly(config);
        if !self.session.engine().offered(config.n) {
            self.session.set_engine_quietly(EngineKind::Sparse);
        }
        self.compile();
        Ok(())
    }

    fn start(&mut self, now: f64) {
        let builds = self.session.builds();
        if !self.session.start_run() {
            return;
        }
        if self.session.builds() != builds || self.session.steps() == 0 {
            self.prepare_demo();
        }
        self.session.start_look_ahead();
        self.session.mark();
        self.running = true;
        // Chunks start at one step: the last run may have been on a much faster machine size.
        self.pacer.restart();
        self.owed = 0.0;
        self.last = now;
        self.shown = (now, 0);
    }

    /// Runs for at most `budget_ms` on `clock` (milliseconds) and reports
    /// what the views should show: a view at most every [`REFRESH_MS`] at
    /// full speed (every tick at a limited speed), and one when the run stops.
    pub fn tick(&mut self, clock: &mut dyn FnMut() -> f64, budget_ms: f64) -> (Vec<Event>, Next) {
        if !self.running {
            return (Vec::new(), Next::Idle);
        }
        if let Some(d) = self.demo.as_mut().filter(|d| d.held) {
            if !d.started {
                // Waiting for the player banks no steps: the first key starts the game at its speed, not in a burst.
                self.last = clock();
                return (Vec::new(), Next::After(HELD_POLL_MS));
            }
            // The first key came: it goes in at the frame the game waited at.
            d.held = false;
            self.session.host(|e| d.runner.at_frame(e));
        }
        let start = clock();
        let allowed = if self.speed == 0 {
            u64::MAX
        } else {
            let dt = (start - self.last).max(0.0);
            self.owed = (self.owed + f64::from(self.speed) * dt / 1000.0).min(f64::from(self.speed));
            let whole = self.owed.floor();
            self.owed -= whole;
            whole as u64
        };
        self.last = start;
        let frames = self.demo.is_some();
        // The interpreter looks ahead for the progress bar's total, on a tenth of the budget.
        self.session.look_ahead(budget_ms / 10.0, frames, clock);
        let mut stop = Stop::Slice;
        let session = &mut self.session;
        let slice = self.pacer.run_for(budget_ms, allowed, clock, &mut |n| {
            let before = session.steps();
            stop = session.run_slice(n, frames);
            (session.steps() - before, stop != Stop::Slice)
        });
        let mut pause = None;
        if stop == Stop::Frame {
            stop = Stop::Slice;
            let d = self.demo.as_mut().expect("invariant: frames stop only demos");
            if !d.started && d.runner.waits_for_key() {
                // The game is at its first frame and the player has not moved yet.
                d.held = true;
                pause = Some(HELD_POLL_MS);
            } else {
                self.session.host(|e| d.runner.at_frame(e));
                pause = d.runner.frame_interval_ms();
            }
        }
        let (shown, unshown) = self.shown;
        let unshown = unshown + slice.steps;
        let now = clock();
        let mut events = Vec::new();
        if stop != Stop::Slice {
            self.running = false;
        }
        // A view when the run stops or pauses at a frame, and otherwise when
        // it moved: every tick at a limited speed, 10 times a second at full speed.
        let moved = slice.steps > 0 && (self.speed != 0 || now - shown >= REFRESH_MS);
        if stop != Stop::Slice || pause.is_some() || moved {
            if now > shown {
                self.rate = 0.8 * self.rate + 0.2 * (unshown as f64 * 1000.0 / (now - shown));
            }
            self.shown = (now, 0);
            let view = Box::new(self.view());
            events.push(match stop {
                Stop::Finished => self.moved(),
                Stop::Breakpoint => Event::Paused(view),
                Stop::Frame | Stop::Slice if pause.is_some() => Event::Frame(view),
                _ => Event::Step(view),
            });
            // Highlights show what changed since the views last refreshed.
            self.session.mark();
        } else {
            self.shown = (shown, unshown);
        }
        let next = match (self.running, pause) {
            (false, _) => Next::Idle,
            (true, Some(ms)) => Next::After((ms - (now - start)).max(0.0)),
            (true, None) => Next::Soon,
        };
        (events, next)
    }
}
