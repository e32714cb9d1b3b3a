//! The engines by name, and [`Machine`]: one program running on one of them,
//! with what a debugger needs (traced steps, snapshots, the tensor, registers).

use crate::engine::Engine;
use crate::host::{self, Input, Output};
use crate::image::{LoadError, Program};
use crate::interp::Interp;
use crate::machine::layout::{Layout, Width};
use crate::machine::tensor::Tensor;
use crate::machine::trace::StepTrace;
use crate::machine::{DenseEngine, Saved, SparseEngine};
use crate::state::{MachineState, Status};

/// Which engine executes a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The transformer, sparse argmax engine (the product engine).
    Sparse,
    /// The reference interpreter (no tensor).
    Interp,
    /// The transformer, dense reference (slow: small configurations only in the page).
    Dense,
}

/// Configurations with at most this many columns offer the dense engine in the page.
pub const DENSE_MAX_N: usize = 128;

impl EngineKind {
    pub const ALL: [EngineKind; 3] = [EngineKind::Sparse, EngineKind::Interp, EngineKind::Dense];

    /// The name front ends use: `"sparse"`, `"interp"`, `"dense"`.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Sparse => "sparse",
            EngineKind::Interp => "interp",
            EngineKind::Dense => "dense",
        }
    }

    pub fn by_name(name: &str) -> Result<EngineKind, String> {
        EngineKind::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| {
            let names: Vec<_> = EngineKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown engine `{name}` (engines: {})", names.join(", "))
        })
    }

    /// What a picker shows.
    pub fn label(self) -> &'static str {
        match self {
            EngineKind::Sparse => "transformer (sparse)",
            EngineKind::Interp => "interpreter",
            EngineKind::Dense => "transformer (dense)",
        }
    }

    /// Whether the page offers the engine for a configuration of `n` columns.
    pub fn offered(self, n: usize) -> bool {
        self != EngineKind::Dense || n <= DENSE_MAX_N
    }

    pub fn is_transformer(self) -> bool {
        self != EngineKind::Interp
    }

    /// The engine for a program, boxed (the command line and benchmarks).
    pub fn start(self, prog: &Program) -> Result<Box<dyn Engine>, LoadError> {
        Ok(match self {
            EngineKind::Interp => Box::new(Interp::new(prog)?),
            EngineKind::Sparse => Box::new(SparseEngine::new(prog)?),
            EngineKind::Dense => Box::new(DenseEngine::new(prog)?),
        })
    }

    /// [`EngineKind::start`] by name, with errors as text (`bench::Factory`).
    pub fn start_by_name(name: &str, prog: &Program) -> Result<Box<dyn Engine>, String> {
        EngineKind::by_name(name)?.start(prog).map_err(|e| e.to_string())
    }
}

/// Boxed alike: an interpreter is small, a transformer is megabytes, and a
/// machine moves around (into checkpoints' owner, a worker) by pointer.
enum Engines {
    Interp(Box<Interp>),
    Sparse(Box<SparseEngine>),
    Dense(Box<DenseEngine>),
}

impl Engines {
    fn as_engine(&self) -> &dyn Engine {
        match self {
            Engines::Interp(m) => m.as_ref(),
            Engines::Sparse(m) => m.as_ref(),
            Engines::Dense(m) => m.as_ref(),
        }
    }
}

/// A program loaded on one engine, with what it printed so far and the input it reads:
/// every run and step through the machine collects the console's characters and hands
/// the program its input a byte at a time ([`host::run_printing`]).
pub struct Machine {
    engine: Engines,
    output: Output,
    input: Input,
}

/// A saved machine (its output and how much input it consumed), restored with
/// [`Machine::restore`] into the machine that took it.
#[derive(Clone)]
pub struct Snapshot {
    engine: SavedEngine,
    output: Output,
    input_pos: usize,
}

#[derive(Clone)]
enum SavedEngine {
    Interp(Box<Interp>),
    Transformer(Saved),
}

/// One of column 0's decoded fields (a register), named by the layout.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Register {
    pub name: String,
    /// Signed for words, unsigned for addresses.
    pub value: i64,
}

impl Machine {
    /// Validates the program and loads it on the chosen engine.
    pub fn new(kind: EngineKind, prog: &Program) -> Result<Machine, LoadError> {
        let engine = match kind {
            EngineKind::Interp => Engines::Interp(Box::new(Interp::new(prog)?)),
            EngineKind::Sparse => Engines::Sparse(Box::new(SparseEngine::new(prog)?)),
            EngineKind::Dense => Engines::Dense(Box::new(DenseEngine::new(prog)?)),
        };
        Ok(Machine { engine, output: Output::default(), input: Input::default() })
    }

    /// What the program printed so far.
    pub fn output(&self) -> &Output {
        &self.output
    }

    /// The program's input and how much of it it has read.
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// Gives the program `text` to read (`getchar`, `scanf`). Bytes already consumed stay
    /// consumed: set it before the run, or while paused to change what is still unread.
    pub fn set_input(&mut self, text: impl Into<Vec<u8>>) {
        self.input.set_text(text);
    }

    /// A copy of a machine on the interpreter (its output and input too), to run ahead of
    /// it; `None` for a transformer (megabytes: use [`Machine::snapshot`]).
    pub fn interp_copy(&self) -> Option<Machine> {
        let Engines::Interp(m) = &self.engine else { return None };
        Some(Machine { engine: Engines::Interp(m.clone()), output: self.output.clone(), input: self.input.clone() })
    }

    pub fn kind(&self) -> EngineKind {
        match &self.engine {
            Engines::Interp(_) => EngineKind::Interp,
            Engines::Sparse(_) => EngineKind::Sparse,
            Engines::Dense(_) => EngineKind::Dense,
        }
    }

    fn engine(&self) -> &dyn Engine {
        self.engine.as_engine()
    }

    fn engine_mut(&mut self) -> &mut dyn Engine {
        match &mut self.engine {
            Engines::Interp(m) => m.as_mut(),
            Engines::Sparse(m) => m.as_mut(),
            Engines::Dense(m) => m.as_mut(),
        }
    }

    /// One instruction, with every layer's tensor and every head's matches
    /// when the engine is a transformer.
    pub fn step_traced(&mut self) -> (Status, Option<StepTrace>) {
        let at = host::current_instr(self.engine());
        let input = std::mem::take(&mut self.input);
        input.before_step(self.engine_mut(), at);
        self.input = input;
        let stepped = self.step_traced_engine();
        self.output.after_step(self.engine.as_engine(), at);
        self.input.after_step(self.engine.as_engine(), at);
        stepped
    }

    fn step_traced_engine(&mut self) -> (Status, Option<StepTrace>) {
        match &mut self.engine {
            Engines::Interp(m) => (m.step(), None),
            Engines::Sparse(m) => {
                let (s, t) = m.step_traced();
                (s, Some(t))
            }
            Engines::Dense(m) => {
                let (s, t) = m.step_traced();
                (s, Some(t))
            }
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        let engine = match &self.engine {
            Engines::Interp(m) => SavedEngine::Interp(m.clone()),
            Engines::Sparse(m) => SavedEngine::Transformer(m.save()),
            Engines::Dense(m) => SavedEngine::Transformer(m.save()),
        };
        Snapshot { engine, output: self.output.clone(), input_pos: self.input.consumed() }
    }

    /// Puts back a snapshot this machine took (steps and status included).
    pub fn restore(&mut self, snap: &Snapshot) {
        match (&mut self.engine, &snap.engine) {
            (Engines::Interp(m), SavedEngine::Interp(s)) => m.as_mut().clone_from(s),
            (Engines::Sparse(m), SavedEngine::Transformer(s)) => m.restore(s),
            (Engines::Dense(m), SavedEngine::Transformer(s)) => m.restore(s),
            _ => panic!("invariant: a snapshot is restored into the engine kind that took it"),
        }
        self.output.clone_from(&snap.output);
        self.input.seek(snap.input_pos);
    }

    /// The state tensor (transformers only).
    pub fn tensor(&self) -> Option<&Tensor> {
        match &self.engine {
            Engines::Interp(_) => None,
            Engines::Sparse(m) => Some(m.tensor()),
            Engines::Dense(m) => Some(m.tensor()),
        }
    }

    /// The rows' names (transformers only).
    pub fn layout(&self) -> Option<&Layout> {
        match &self.engine {
            Engines::Interp(_) => None,
            Engines::Sparse(m) => Some(m.layout()),
            Engines::Dense(m) => Some(m.layout()),
        }
    }
}

/// The ISA state a tensor holds (the PC and every memory word): how a view
/// shows the machine at any layer of a step, not only between steps.
pub fn decode(x: &Tensor, lay: &Layout, cfg: &crate::config::Config) -> MachineState {
    crate::machine::tensor::state(x, lay, cfg)
}

/// Column 0's registers in a tensor, named and read as the layout declares them.
pub fn registers(x: &Tensor, lay: &Layout) -> Vec<Register> {
    let sign =
        |v: u64, bits: usize| if bits > 0 && v >> (bits - 1) & 1 == 1 { v as i64 - (1i64 << bits) } else { v as i64 };
    lay.registers()
        .map(|(r, width)| {
            let bits = x.bits(r, 0);
            let value = if width == Width::Word { sign(bits, r.len) } else { bits as i64 };
            Register { name: r.name.to_owned(), value }
        })
        .collect()
}

/// A machine is an engine: everything the [`Engine`] trait offers goes to the loaded one.
impl Engine for Machine {
    fn name(&self) -> &'static str {
        self.engine().name()
    }

    fn program(&self) -> &Program {
        self.engine().program()
    }

    fn run(&mut self, max_steps: u64, breaks: Option<&[bool]>) -> Status {
        let (mut output, mut input) = (std::mem::take(&mut self.output), std::mem::take(&mut self.input));
        let status = host::run_printing(self.engine_mut(), max_steps, breaks, &mut output, &mut input);
        (self.output, self.input) = (output, input);
        status
    }

    fn step(&mut self) -> Status {
        let (mut output, mut input) = (std::mem::take(&mut self.output), std::mem::take(&mut self.input));
        let status = host::step_io(self.engine_mut(), &mut output, &mut input);
        (self.output, self.input) = (output, input);
        status
    }

    fn status(&self) -> Status {
        self.engine().status()
    }

    fn steps(&self) -> u64 {
        self.engine().steps()
    }

    fn pc(&self) -> usize {
        self.engine().pc()
    }

    fn read_slot(&self, slot: usize) -> i32 {
        self.engine().read_slot(slot)
    }

    fn write_slot(&mut self, slot: usize, value: i64) {
        self.engine_mut().write_slot(slot, value)
    }

    fn state(&self) -> MachineState {
        self.engine().state()
    }
}
