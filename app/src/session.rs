//! The playground's view-model: the program being edited, the machine running
//! it and what the page shows about both, in plain Rust. Components only read
//! it and call its actions, so it is tested without a DOM and survives any
//! change of layout.

use loom_core::diag::{render_all, Diagnostic};
use loom_core::report;
use loom_core::state::{MachineState, Status};
use loom_core::{asm, Config, Engine, Interp, Program};
use serde_json::Value;

/// Steps one "Run" may take before it stops with `budget`: an endless loop
/// must not freeze the tab (the interpreter does about this many per second).
pub const RUN_BUDGET: u64 = 5_000_000;

/// Snapshots kept for highlighting (and, later, stepping back): bounded so a
/// long stepping session cannot grow without limit.
const HISTORY_LIMIT: usize = 10_000;

/// The name diagnostics are rendered against.
const FILE: &str = "program.s";

/// A small program the editor starts with.
pub const EXAMPLE: &str = "\
; Multiply a by b with repeated addition.
.data a = 6
.data b = 7
.data product = 0
loop: ADD product, a
      DEC b
      JNZ b, loop
      HALT
";

/// Which engine executes the program. The transformer engines join this list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    Interp,
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Interp => "interp",
        }
    }

    fn load(self, prog: &Program) -> Result<Box<dyn Engine>, String> {
        match self {
            EngineKind::Interp => Ok(Box::new(Interp::new(prog).map_err(|e| e.to_string())?)),
        }
    }
}

/// One named variable as the page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarRow {
    pub name: String,
    /// The value as text: `42`, or `[3, -1, 2]` for an array.
    pub value: String,
    /// Whether the last step or run changed it.
    pub changed: bool,
}

/// How the session stands, for the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Edited since the last build: nothing loaded (or the loaded machine is for older text).
    Edited,
    /// The source does not build; see [`Session::diagnostics`].
    Error,
    /// Loaded and not finished (at the start, after steps, or stopped by the budget).
    Ready,
    Halted,
    Fault {
        message: String,
        line: Option<u32>,
    },
}

pub struct Session {
    source: String,
    config: Config,
    engine: EngineKind,
    /// The source text the loaded machine was built from.
    built: Option<String>,
    machine: Option<Box<dyn Engine>>,
    diagnostics: Vec<Diagnostic>,
    /// The machine state before each step or run, oldest first.
    history: Vec<MachineState>,
    /// Whether the last run stopped because it used up [`RUN_BUDGET`].
    out_of_budget: bool,
}

impl Session {
    pub fn new(source: String, config: Config) -> Session {
        Session {
            source,
            config,
            engine: EngineKind::Interp,
            built: None,
            machine: None,
            diagnostics: Vec::new(),
            history: Vec::new(),
            out_of_budget: false,
        }
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// The editor changed. The machine stays visible until the next build.
    pub fn set_source(&mut self, source: String) {
        self.source = source;
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// Switching configuration rebuilds, since layout and word size change.
    pub fn set_config(&mut self, config: Config) {
        self.config = config;
        self.compile();
    }

    pub fn engine(&self) -> EngineKind {
        self.engine
    }

    /// Builds the source and loads a fresh machine; on failure keeps the
    /// diagnostics and unloads. Returns whether it built.
    pub fn compile(&mut self) -> bool {
        self.machine = None;
        self.history.clear();
        self.out_of_budget = false;
        self.built = Some(self.source.clone());
        let loaded = asm::assemble(&self.source, self.config)
            .map_err(|d| d.into_iter().filter(Diagnostic::is_error).collect())
            .and_then(|prog| self.engine.load(&prog).map_err(|e| vec![Diagnostic::error(Default::default(), e)]));
        match loaded {
            Ok(machine) => {
                self.machine = Some(machine);
                self.diagnostics.clear();
                true
            }
            Err(diags) => {
                self.diagnostics = diags;
                false
            }
        }
    }

    /// Back to the initial state of the current build (rebuilding if the source changed).
    pub fn reset(&mut self) {
        if self.is_stale() {
            self.compile();
            return;
        }
        if let Some(m) = &self.machine {
            let prog = m.program().clone();
            self.machine = self.engine.load(&prog).ok();
        }
        self.history.clear();
        self.out_of_budget = false;
    }

    /// Executes one instruction (building first if needed).
    pub fn step(&mut self) {
        if let Some(m) = self.loaded() {
            if m.status().is_running() {
                let before = m.state();
                m.step();
                self.remember(before);
                self.out_of_budget = false;
            }
        }
    }

    /// Runs until HALT, a fault or the budget; a finished machine starts over.
    pub fn run(&mut self) {
        if self.loaded().is_some_and(|m| !m.status().is_running()) {
            self.reset();
        }
        if let Some(m) = self.loaded() {
            let before = m.state();
            let status = m.run(m.steps() + RUN_BUDGET, None);
            self.out_of_budget = status == Status::Budget;
            self.remember(before);
        }
    }

    /// What Ctrl/Cmd+Enter does: build the current text and run it from the start.
    pub fn compile_and_run(&mut self) {
        if self.compile() {
            self.run();
        }
    }

    /// Whether the editor text differs from what the machine was built from.
    pub fn is_stale(&self) -> bool {
        self.built.as_deref() != Some(self.source.as_str())
    }

    pub fn phase(&self) -> Phase {
        if !self.diagnostics.is_empty() {
            return Phase::Error;
        }
        let Some(m) = &self.machine else { return Phase::Edited };
        match m.status() {
            Status::Halted => Phase::Halted,
            Status::Fault { pc, message } => Phase::Fault { message, line: m.program().line_at_pc(pc) },
            Status::Running | Status::Budget => Phase::Ready,
        }
    }

    /// One line for the status bar.
    pub fn status_text(&self) -> String {
        match self.phase() {
            Phase::Edited => "edited — press Run".into(),
            Phase::Error => format!("error — {} in the source", plural(self.diagnostics.len(), "problem")),
            Phase::Ready if self.out_of_budget => format!("budget — stopped after {RUN_BUDGET} steps; Run continues"),
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

    /// The diagnostics rendered rustc-style (`--> program.s:3:1` and a caret),
    /// against the text they were found in.
    pub fn rendered_diagnostics(&self) -> String {
        render_all(&self.diagnostics, FILE, self.built.as_deref().unwrap_or(&self.source))
    }

    pub fn steps(&self) -> u64 {
        self.machine.as_ref().map_or(0, |m| m.steps())
    }

    /// The PC (a column) of the loaded machine.
    pub fn pc(&self) -> Option<usize> {
        self.machine.as_ref().map(|m| m.pc())
    }

    /// The source line of the instruction the PC stands on.
    pub fn pc_line(&self) -> Option<u32> {
        let m = self.machine.as_ref()?;
        m.program().line_at_pc(m.pc())
    }

    /// The named variables with their values, marked when the last action changed them.
    pub fn variables(&self) -> Vec<VarRow> {
        let Some(m) = &self.machine else { return Vec::new() };
        let prog = m.program();
        let now = report::vars(prog, &m.state().mem);
        let before = self.history.last().map(|s| report::vars(prog, &s.mem));
        now.into_iter()
            .map(|(name, v)| {
                let changed = before.as_ref().is_some_and(|b| b.get(&name) != Some(&v));
                VarRow { value: show(&v), name, changed }
            })
            .collect()
    }

    pub fn history(&self) -> &[MachineState] {
        &self.history
    }

    /// The machine, building it first when the text changed since the last build.
    fn loaded(&mut self) -> Option<&mut Box<dyn Engine>> {
        if self.is_stale() {
            self.compile();
        }
        self.machine.as_mut()
    }

    fn remember(&mut self, state: MachineState) {
        if self.history.len() == HISTORY_LIMIT {
            self.history.remove(0);
        }
        self.history.push(state);
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Array(xs) => format!("[{}]", xs.iter().map(show).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
