//! The playground's view-model: the program being edited, the machine running
//! it and what the page shows about both, in plain Rust. Components only read
//! it and call its actions, so it is tested without a DOM and survives any
//! change of layout.
//!
//! Stepping back restores the latest checkpoint (a snapshot every few hundred
//! steps) and replays forward; the engines are deterministic, so the state
//! reached equals the one stepping forward reached.

mod ahead;
mod download;
mod driver;
pub mod protocol;
mod view;

pub use driver::{Driver, Next, SPEEDS};
pub use loom_core::frontend::{EngineKind, Lang, DENSE_MAX_N};
pub use protocol::{AttnRow, Build, Command, Event, File, FileKind, ListingRow, StepBy, View};
pub use view::{shown, value_text, VarRow};

use ahead::Ahead;
use loom_core::frontend::{
    build, explain, Breakpoint, Debugger, Explanation, FrameView, Layout, Machine, StepTrace, Stop as Arrival, Tensor,
};
use loom_core::frontend::{host, Config, Engine, Program};
use loom_core::frontend::{render_all, Diagnostic};
use loom_core::frontend::{MachineState, Status};

/// How far one "step line" may run before giving up (a one-line loop never leaves its line).
pub const LINE_BUDGET: u64 = 2_000;

/// The C program the editor starts with.
pub const EXAMPLE: &str = "\
// Sum of the first n numbers, and a running maximum.
int n = 10;
int sum = 0;
int xs[4] = {3, -1, 2, 0};

int main() {
    while (n > 0) {
        sum = sum + n;
        n = n - 1;
    }
    xs[3] = sum;
    return 0;
}
";

/// How the session stands, for the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Edited since the last build: nothing loaded (or the loaded machine is for older text).
    Edited,
    /// The source does not build; see [`Session::diagnostics`].
    Error,
    /// Loaded and not finished.
    Ready,
    Halted,
    Fault {
        message: String,
        line: Option<u32>,
    },
}

/// Why a run slice stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It used the steps it was given; the run goes on.
    Slice,
    /// The PC reached a breakpoint's line.
    Breakpoint,
    /// The PC reached a `frame()` point (only when frames were asked for).
    Frame,
    /// Halted or faulted.
    Finished,
}

/// What the last traced step shows, layer by layer.
struct Layers {
    trace: StepTrace,
    /// The layer on display; `None` once the whole instruction is shown.
    at: Option<usize>,
    /// The instruction the step executed (its index): what every view shows during the walk.
    executing: Option<usize>,
    /// The step in words, written once when it is traced.
    explained: Option<Explanation>,
}

pub struct Session {
    source: String,
    lang: Lang,
    config: Config,
    engine: EngineKind,
    /// The source text, configuration and engine the loaded machine was built for.
    built: Option<(String, Config, EngineKind)>,
    /// Counts builds: views of the build alone (listing, column window) key on
    /// it instead of comparing what they show on every step.
    builds: u64,
    program: Option<Program>,
    listing: Vec<ListingRow>,
    diagnostics: Vec<Diagnostic>,
    /// The loaded program's debugger: its machine, the shadow interpreter, checkpoints,
    /// the host's writes and the breakpoints.
    dbg: Option<Debugger>,
    /// The run's total step count, when it can be known.
    ahead: Ahead,
    breakpoints: Vec<u32>,
    /// The state and tensor before the last action, for highlighting changes.
    before: Option<MachineState>,
    before_tensor: Option<Tensor>,
    layers: Option<Layers>,
    /// Why the last action stopped where it did, when that needs saying.
    note: Option<String>,
    /// The text the program reads (the Input box), given to every machine loaded.
    input: String,
}

impl Session {
    pub fn new(source: String, config: Config) -> Session {
        Session {
            lang: Lang::detect(&source),
            source,
            config,
            engine: EngineKind::Sparse,
            built: None,
            builds: 0,
            program: None,
            listing: Vec::new(),
            diagnostics: Vec::new(),
            dbg: None,
            ahead: Ahead::default(),
            breakpoints: Vec::new(),
            before: None,
            before_tensor: None,
            layers: None,
            note: None,
            input: String::new(),
        }
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// The editor changed. The machine stays visible until the next build.
    /// The diagnostics follow the text as it is typed (the last good build
    /// stays loaded, so its views stay until the next build).
    pub fn set_source(&mut self, source: String) {
        self.lang = Lang::detect(&source);
        self.source = source;
        self.check();
    }

    /// The language, when the front end knows better than detection.
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
        self.check();
    }

    /// Diagnostics of the current text without loading it.
    fn check(&mut self) {
        self.diagnostics = build(self.lang, &self.source, self.config).diagnostics;
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// Switching configuration rebuilds, since layout and word size change;
    /// an engine not offered for it falls back to the sparse transformer.
    pub fn set_config(&mut self, config: Config) {
        self.set_config_quietly(config);
        self.compile();
    }

    /// Switches configuration without building (the caller builds next).
    pub fn set_config_quietly(&mut self, config: Config) {
        self.config = config;
        if !self.engine.offered(config.n) {
            self.engine = EngineKind::Sparse;
        }
    }

    pub fn engine(&self) -> EngineKind {
        self.engine
    }

    /// Switches engine (rebuilding); refused when not offered for the configuration.
    pub fn set_engine(&mut self, engine: EngineKind) -> bool {
        if !engine.offered(self.config.n) {
            return false;
        }
        self.engine = engine;
        self.compile();
        true
    }

    /// Switches engine without building (the caller checked it is offered, and builds next).
    pub fn set_engine_quietly(&mut self, engine: EngineKind) {
        self.engine = engine;
    }

    /// Builds the source and loads a fresh machine; on failure keeps the
    /// diagnostics and unloads. Returns whether it built.
    pub fn compile(&mut self) -> bool {
        self.dbg = None;
        self.program = None;
        self.listing.clear();
        self.ahead.forget();
        self.built = Some((self.source.clone(), self.config, self.engine));
        self.builds += 1;
        let built = build(self.lang, &self.source, self.config);
        self.diagnostics = built.diagnostics;
        let Some(program) = built.program else { return false };
        if let Err(e) = self.load(&program) {
            self.diagnostics.push(Diagnostic::error(Default::default(), e));
            return false;
        }
        self.listing = view::listing(&program, &self.source);
        self.program = Some(program);
        self.update_breaks();
        true
    }

    fn load(&mut self, prog: &Program) -> Result<(), String> {
        let mut dbg = Debugger::new(self.engine, prog).map_err(|e| e.to_string())?;
        dbg.set_input(self.input.as_bytes());
        self.dbg = Some(dbg);
        self.note = None;
        self.before = None;
        self.before_tensor = None;
        self.layers = None;
        // A new machine (a build, or Reset) keeps the editor's breakpoints.
        self.update_breaks();
        Ok(())
    }

    /// The text the program reads. What it read stays read; a run's known length is not
    /// this input's.
    pub fn set_input(&mut self, text: String) {
        if let Some(d) = &mut self.dbg {
            d.set_input(text.as_bytes());
        }
        self.input = text;
        self.ahead.forget();
    }

    /// Back to the initial state of the current build (rebuilding if the source changed).
    pub fn reset(&mut self) {
        if self.is_stale() {
            self.compile();
        } else if let Some(prog) = self.program.clone() {
            // The program loaded before, so it loads again.
            let _ = self.load(&prog);
        }
    }

    /// Whether the editor text (or configuration, engine) differs from what the machine was built from.
    pub fn is_stale(&self) -> bool {
        self.built.as_ref().is_none_or(|(s, c, e)| s != &self.source || *c != self.config || *e != self.engine)
    }

    /// The machine, building it first when the text changed since the last build.
    fn ready(&mut self) -> bool {
        if self.is_stale() {
            self.compile();
        }
        self.machine().is_some_and(|m| m.status().is_running())
    }

    fn remember_before(&mut self) {
        let Some(m) = self.dbg.as_ref().map(Debugger::machine) else { return };
        (self.before, self.before_tensor) = (Some(m.state()), m.tensor().cloned());
    }

    fn machine(&self) -> Option<&Machine> {
        self.dbg.as_ref().map(Debugger::machine)
    }

    /// Runs at most `max` instructions (stopping early where `breaks` says) through the
    /// debugger, which takes checkpoints, keeps the shadow in step and replays the host's
    /// writes; a finished run's step count is the total from then on.
    fn exec(&mut self, max: u64, breaks: Option<&[bool]>) -> Status {
        let Some(d) = self.dbg.as_mut() else { return Status::Halted };
        let status = d.exec(max, breaks);
        if !status.is_running() && status != Status::Budget {
            self.ahead.finished(d.steps(), d.writes_at_start());
        }
        status
    }

    /// Executes one instruction. In the middle of a layer walk, shows the rest of it instead.
    pub fn step(&mut self) {
        if let Some(l) = &mut self.layers {
            if l.at.is_some_and(|i| i + 1 < l.trace.layers.len()) {
                l.at = None;
                return;
            }
        }
        if self.ready() {
            self.traced_step(None);
        }
    }

    /// One instruction, traced; `at` is the layer to show first (None: the whole step).
    fn traced_step(&mut self, at: Option<usize>) {
        self.remember_before();
        self.note = None;
        let executing = self.pc_index();
        let Some(d) = self.dbg.as_mut() else { return };
        let before = d.machine().tensor().cloned();
        let trace = d.exec_traced();
        let lay = d.machine().layout().copied();
        let prog = self.program.as_ref();
        self.layers = trace.filter(|t| !t.layers.is_empty()).map(|trace| {
            let explained = match (prog, lay, before) {
                (Some(p), Some(l), Some(x)) => Some(explain(p, &l, &x, &trace)),
                _ => None,
            };
            Layers { trace, at, executing, explained }
        });
    }

    /// Shows the next layer of the current instruction, executing the next
    /// instruction (traced) when the last layer is on display.
    pub fn step_layer(&mut self) {
        if let Some(l) = &mut self.layers {
            if let Some(i) = l.at.filter(|i| i + 1 < l.trace.layers.len()) {
                l.at = Some(i + 1);
                return;
            }
        }
        if self.ready() && self.engine.is_transformer() {
            self.traced_step(Some(0));
        }
    }

    /// Runs until the PC reaches an instruction of another source line (or stops).
    pub fn step_line(&mut self) {
        if !self.ready() {
            return;
        }
        let Some(prog) = &self.program else { return };
        let line = self.pc_line();
        let mut breaks: Vec<bool> = prog.locs.iter().map(|l| l.map(|l| l.line) != line).collect();
        breaks.push(true);
        self.remember_before();
        self.layers = None;
        let start = self.steps();
        let status = self.exec(LINE_BUDGET, Some(&breaks));
        self.note = (status == Status::Budget).then(|| {
            format!(
                "Line step stopped after {} steps without leaving line {}: a loop on one line? Step again to go on, or Run.",
                self.steps() - start,
                line.unwrap_or(0)
            )
        });
    }

    /// From the initial state, runs `step` instructions (ignoring
    /// breakpoints), the last one traced so its change is on display.
    pub fn seek(&mut self, step: u64) {
        if step == 0 || !self.ready() {
            return;
        }
        self.layers = None;
        self.note = None;
        if step > 1 {
            self.exec(step - 1, None);
        }
        if self.ready() {
            self.traced_step(None);
        }
    }

    /// Runs the calls made on this line whole, to the next line of this function (or out
    /// of it, when it returns first).
    pub fn step_over(&mut self) {
        self.debug_move(Debugger::step_over);
    }

    /// Runs until this function returns to its caller; the note says what it returned.
    pub fn step_out(&mut self) {
        self.debug_move(Debugger::step_out);
    }

    /// Runs until the PC enters `line` (a breakpoint or the end may come first).
    pub fn run_to_line(&mut self, line: u32) {
        self.debug_move(|d| d.run_to_line(line));
    }

    /// A move of the debugger (Back undoes it as one), with a note when it did not arrive.
    fn debug_move(&mut self, go: impl FnOnce(&mut Debugger) -> Arrival) {
        if !self.ready() {
            return;
        }
        self.remember_before();
        self.layers = None;
        let Some(d) = self.dbg.as_mut() else { return };
        let start = d.steps();
        let arrival = go(d);
        let returned = d.returned().map(|r| match r.value {
            Some(v) => format!("{} returned {v}.", r.func),
            None => format!("{} returned.", r.func),
        });
        self.note = match arrival {
            Arrival::Budget => {
                Some(format!("Stopped after {} steps without arriving: Run to go on.", d.steps() - start))
            }
            _ => returned,
        };
        if !d.status().is_running() {
            self.ahead.finished(d.steps(), d.writes_at_start());
        }
    }

    /// The call stack, innermost first (empty when nothing is loaded or it has finished).
    pub fn frames(&self) -> Vec<FrameView> {
        self.dbg.as_ref().map(Debugger::frames).unwrap_or_default()
    }

    /// Goes back: a step over, out or to a line as one move, else one instruction (the
    /// debugger restores the latest checkpoint before it and replays).
    pub fn step_back(&mut self) {
        if self.is_stale() || self.steps() == 0 {
            return;
        }
        self.layers = None;
        self.note = None;
        let Some(d) = self.dbg.as_mut() else { return };
        let Some(target) = d.take_back() else { return };
        // The last replayed instruction is the one whose change is shown.
        if target > 0 {
            d.rewind_to(target - 1);
            self.remember_before();
            self.exec(1, None);
        } else {
            d.rewind_to(0);
            self.before = None;
            self.before_tensor = None;
        }
    }

    /// Gets a run going: builds the edited source, or starts a finished
    /// machine over. Returns whether there is a machine to run.
    pub fn start_run(&mut self) -> bool {
        if self.is_stale() {
            self.compile();
        } else if self.machine().is_some_and(|m| !m.status().is_running()) {
            self.reset();
        }
        self.machine().is_some_and(|m| m.status().is_running())
    }

    /// One slice of a run: at most `max` instructions, stopping at breakpoints
    /// and (with `frames`) at `frame()` points. It never builds: an edit made
    /// while running shows as edited, and the run goes on with the last build.
    pub fn run_slice(&mut self, max: u64, frames: bool) -> Stop {
        if !self.machine().is_some_and(|m| m.status().is_running()) {
            return Stop::Finished;
        }
        self.layers = None;
        self.note = None;
        let breaks = self.run_breaks(frames);
        let status = self.exec(max, breaks.as_deref());
        if !status.is_running() && status != Status::Budget {
            return Stop::Finished;
        }
        let k = self.pc_index();
        let at = |v: &[bool]| k.is_some_and(|k| v.get(k) == Some(&true));
        if status == Status::Running && frames && self.program.as_ref().is_some_and(|p| at(&host::frame_breaks(p))) {
            Stop::Frame
        } else if status == Status::Running && self.dbg.as_ref().is_some_and(|d| d.breakpoint_hit().is_some()) {
            Stop::Breakpoint
        } else {
            Stop::Slice
        }
    }

    /// Marks the current state as "before" for the highlights: the run loop
    /// calls it after each refresh of the views, so changes since the last
    /// drawn state show.
    pub fn mark(&mut self) {
        self.remember_before();
    }

    /// Runs to the end (or `max` steps) in one go: for tests and the CLI-like path.
    pub fn run_to_end(&mut self, max: u64) -> Stop {
        if !self.start_run() {
            return Stop::Finished;
        }
        self.mark();
        let mut stop = Stop::Slice;
        let start = self.steps();
        while stop == Stop::Slice && self.steps() - start < max {
            stop = self.run_slice(max - (self.steps() - start), false);
        }
        stop
    }

    fn run_breaks(&self, frames: bool) -> Option<Vec<bool>> {
        self.dbg.as_ref()?.run_breaks(frames)
    }

    pub fn breakpoints(&self) -> &[u32] {
        &self.breakpoints
    }

    /// Source lines to stop at (the editor's gutter).
    pub fn set_breakpoints(&mut self, lines: Vec<u32>) {
        self.breakpoints = lines;
        self.update_breaks();
    }

    fn update_breaks(&mut self) {
        let Some(d) = self.dbg.as_mut() else { return };
        let list = self.breakpoints.iter().filter_map(|&l| Breakpoint::new(l, None).ok()).collect();
        d.set_breakpoints(list);
    }

    /// Lets the host write the machine's memory (a demo's inputs, an
    /// `input` command) through `f`. The debugger copies the words it changed
    /// into the shadow interpreter and logs them at the current step, so
    /// stepping back replays them. None when nothing is loaded.
    pub fn host<T>(&mut self, f: impl FnOnce(&mut dyn Engine) -> T) -> Option<T> {
        let (out, changed) = self.dbg.as_mut()?.host(f);
        if !changed.is_empty() {
            self.ahead.stop();
        }
        Some(out)
    }

    /// The run's total step count, when it can be known (a finished run of
    /// the same build and start inputs, or the interpreter that ran ahead).
    pub fn total(&self) -> Option<u64> {
        self.ahead.total(self.dbg.as_ref().and_then(Debugger::writes_at_start).as_deref())
    }

    /// A run starts (its inputs written): the interpreter starts looking
    /// ahead of it when the total is not known.
    pub fn start_look_ahead(&mut self) {
        let d = self.dbg.as_ref();
        self.ahead.start(d.and_then(Debugger::shadow), d.and_then(Debugger::writes_at_start).as_deref());
    }

    /// Lets the interpreter look ahead for at most `ms` on `clock` (during a
    /// run); with `frames`, it stops at a `frame()` point, where the host writes.
    pub fn look_ahead(&mut self, ms: f64, frames: bool, clock: &mut dyn FnMut() -> f64) {
        let breaks = frames.then(|| self.program.as_ref().map(host::frame_breaks)).flatten();
        self.ahead.advance(ms, breaks.as_deref(), clock);
    }

    pub fn engine_ref(&self) -> Option<&dyn Engine> {
        self.machine().map(|m| m as &dyn Engine)
    }

    pub fn phase(&self) -> Phase {
        if self.diagnostics.iter().any(Diagnostic::is_error) {
            return Phase::Error;
        }
        let Some(m) = self.machine() else { return Phase::Edited };
        match m.status() {
            Status::Halted => Phase::Halted,
            Status::Fault { pc, message } => Phase::Fault { message, line: m.program().line_at_pc(pc) },
            Status::Running | Status::Budget => Phase::Ready,
        }
    }

    /// One line for the status bar.
    pub fn status_text(&self) -> String {
        match self.phase() {
            Phase::Edited => "edited — compile to load".into(),
            Phase::Error => {
                let n = self.diagnostics.iter().filter(|d| d.is_error()).count();
                format!("error — {n} problem{} in the source", if n == 1 { "" } else { "s" })
            }
            Phase::Ready if self.steps() == 0 => "loaded".into(),
            Phase::Ready => "paused".into(),
            Phase::Halted => "halted".into(),
            Phase::Fault { message, line: Some(l) } => format!("fault at line {l} — {message}"),
            Phase::Fault { message, line: None } => format!("fault — {message}"),
        }
    }

    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The diagnostics rendered rustc-style, against the text they were found in (the current one).
    pub fn rendered_diagnostics(&self) -> String {
        render_all(&self.diagnostics, self.lang.file(), &self.source)
    }

    /// Instructions executed since the start.
    pub fn steps(&self) -> u64 {
        self.machine().map_or(0, |m| m.steps())
    }

    /// Why the last action stopped where it did, when that needs saying.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    pub fn program(&self) -> Option<&Program> {
        self.program.as_ref()
    }

    /// The PC (a column) of the loaded machine.
    pub fn pc(&self) -> Option<usize> {
        self.machine().map(|m| m.pc())
    }

    /// The index of the instruction the PC stands on.
    pub fn pc_index(&self) -> Option<usize> {
        let pc = self.pc()?;
        pc.checked_sub(self.config.instr_col(0))
    }

    /// The source line of the instruction the PC stands on.
    pub fn pc_line(&self) -> Option<u32> {
        let m = self.machine()?;
        m.program().line_at_pc(m.pc())
    }

    /// Whether the transformer's decoded state equals the shadow interpreter's (None: no transformer).
    pub fn agrees(&self) -> Option<bool> {
        self.dbg.as_ref()?.agrees()
    }

    /// The layer on display ("L3 indirect"), when walking an instruction layer by layer.
    pub fn layer(&self) -> Option<(usize, &'static str)> {
        let l = self.layers.as_ref()?;
        l.at.map(|i| (i, l.trace.layers[i].name))
    }

    /// The tensor on display: after the shown layer, or the machine's.
    pub fn tensor(&self) -> Option<&Tensor> {
        match &self.layers {
            Some(Layers { trace, at: Some(i), .. }) => Some(&trace.layers[*i].after),
            _ => self.machine()?.tensor(),
        }
    }

    /// The tensor before what is on display (the previous layer or step), for highlighting.
    pub fn previous_tensor(&self) -> Option<&Tensor> {
        match &self.layers {
            Some(Layers { trace, at: Some(i), .. }) if *i > 0 => Some(&trace.layers[i - 1].after),
            _ => self.before_tensor.as_ref(),
        }
    }

    pub fn layout(&self) -> Option<&Layout> {
        self.machine()?.layout()
    }

    /// The last traced instruction (manual steps on a transformer).
    pub fn trace(&self) -> Option<&StepTrace> {
        self.layers.as_ref().map(|l| &l.trace)
    }

    /// The last traced instruction in words.
    pub fn explanation(&self) -> Option<&Explanation> {
        self.layers.as_ref()?.explained.as_ref()
    }

    /// How many builds there were (changes with every build, and only then).
    pub fn builds(&self) -> u64 {
        self.builds
    }

    pub fn listing(&self) -> &[ListingRow] {
        &self.listing
    }

    /// The state before the last action.
    pub fn before(&self) -> Option<&MachineState> {
        self.before.as_ref()
    }
}
