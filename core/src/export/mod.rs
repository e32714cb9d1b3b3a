//! The model outside the playground: the transformer of a configuration as a
//! safetensors or ONNX file, and machine states as `.npy` arrays to feed it.
//!
//! - [`model`]: the weights as named dense arrays plus metadata (row names,
//!   configuration, statistics, the rules in words); both formats write it.
//! - [`safetensors`], [`onnx`], [`npy`]: the file formats, written by hand
//!   (no dependency), each a function from data to bytes.
//!
//! Running the ONNX graph once on a state gives exactly (bit for bit) the
//! state our dense reference computes after one instruction;
//! `tools/loom_step.py` states the same step in NumPy from the safetensors file.

pub mod model;
pub mod npy;
pub mod onnx;
pub mod safetensors;

use crate::config::Config;
use crate::engine::Engine;
use crate::image::Program;
use crate::machine::tensor::Tensor;
use crate::machine::weights::Weights;
use crate::machine::{Backend, DenseEngine, SparseEngine, Transformer};
use crate::state::Status;
pub use model::Model;

/// A model file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Safetensors,
    Onnx,
}

impl Format {
    pub const ALL: [Format; 2] = [Format::Safetensors, Format::Onnx];

    pub fn parse(name: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.extension() == name)
            .ok_or_else(|| format!("unknown model format `{name}` (formats: safetensors, onnx)"))
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Safetensors => "safetensors",
            Format::Onnx => "onnx",
        }
    }
}

/// The transformer of `config` in `format`, as the bytes of a file.
pub fn model_file(config: &Config, format: Format) -> Vec<u8> {
    let m = Model::of(&Weights::build(config));
    match format {
        Format::Safetensors => safetensors::write(&m),
        Format::Onnx => onnx::write(&m),
    }
}

/// `loom-compact.onnx`.
pub fn model_file_name(config: &Config, format: Format) -> String {
    format!("loom-{}.{}", config.name, format.extension())
}

/// `loom-compact-step42.npy`: the state after `step` instructions.
pub fn state_file_name(config: &Config, step: u64) -> String {
    format!("loom-{}-step{step}.npy", config.name)
}

/// One line for the page: how to run the downloaded files.
pub const HOW_TO_RUN: &str = "One run of the ONNX model is one instruction: in Python, \
x = onnxruntime.InferenceSession(\"loom-compact.onnx\").run(None, {\"state\": numpy.load(\"state.npy\")})[0] \
gives the next state; repeat until the pc rows of column 0 read 0 (tools/loom_step.py does the same step \
in NumPy from the .safetensors file).";

/// The states of a run, in order.
pub struct Run {
    /// The initial state and the state after every instruction, or only the last state.
    pub states: Vec<Tensor>,
    /// Instructions executed.
    pub steps: u64,
    pub halted: bool,
}

impl Run {
    pub fn last(&self) -> &Tensor {
        self.states.last().expect("a run has at least its initial state")
    }
}

/// A run on a transformer engine (`"dense"`, the reference, or `"sparse"`,
/// equal to it bit for bit) for up to `steps` instructions or until the
/// program halts, keeping every state when `every` is set and otherwise the
/// last. A run-time fault is an error, located at its source line.
pub fn run_states(prog: &Program, engine: &str, steps: u64, every: bool) -> Result<Run, String> {
    match engine {
        "dense" => run(DenseEngine::new(prog).map_err(|e| e.to_string())?, prog, steps, every),
        "sparse" => run(SparseEngine::new(prog).map_err(|e| e.to_string())?, prog, steps, every),
        other => Err(format!("unknown engine `{other}` for states (engines: dense, sparse)")),
    }
}

fn run<B: Backend>(mut t: Transformer<B>, prog: &Program, steps: u64, every: bool) -> Result<Run, String> {
    let mut out = Run { states: vec![t.tensor().clone()], steps: 0, halted: false };
    while !out.halted && t.steps() < steps {
        match t.step() {
            Status::Fault { pc, message } => {
                let line = prog.line_at_pc(pc).map(|l| format!(" (line {l})")).unwrap_or_default();
                return Err(format!("fault after {} steps at column {pc}{line}: {message}", t.steps()));
            }
            status => {
                if !every {
                    out.states.clear();
                }
                out.states.push(t.tensor().clone());
                out.steps = t.steps();
                out.halted = !status.is_running();
            }
        }
    }
    Ok(out)
}
