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
use crate::frontend::{EngineKind, Machine};
use crate::image::Program;
use crate::machine::tensor::Tensor;
use crate::machine::weights::Weights;
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

/// One line for the page: how to run the downloaded files of `config`.
pub fn how_to_run(config: &Config) -> String {
    let onnx = model_file_name(config, Format::Onnx);
    format!(
        "One run of the model is one instruction: in Python, x = onnxruntime.InferenceSession(\"{onnx}\")\
         .run(None, {{\"state\": numpy.load(\"{state}\")}})[0] is the next state (repeat until the pc rows of \
         column 0 read 0); tools/loom_step.py in the repository computes the same step in NumPy from {st}.",
        state = state_file_name(config, 0),
        st = model_file_name(config, Format::Safetensors),
    )
}

/// The states of a run, in order.
#[derive(Debug)]
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

/// A run on a transformer engine (dense, the reference, or sparse, equal to
/// it bit for bit) for up to `steps` instructions or until the program halts,
/// keeping every state when `every` is set and otherwise the last. A run-time
/// fault is an error, located at its source line.
pub fn run_states(prog: &Program, engine: EngineKind, steps: u64, every: bool) -> Result<Run, String> {
    if !engine.is_transformer() {
        return Err(format!(
            "the {} engine has no state tensor: use a transformer engine (dense, sparse)",
            engine.name()
        ));
    }
    let mut m = Machine::new(engine, prog).map_err(|e| e.to_string())?;
    let tensor = |m: &Machine| m.tensor().expect("invariant: a transformer has a tensor").clone();
    let mut out = Run { states: vec![tensor(&m)], steps: 0, halted: false };
    while !out.halted && m.steps() < steps {
        match m.step() {
            Status::Fault { pc, message } => {
                let line = prog.line_at_pc(pc).map(|l| format!(" (line {l})")).unwrap_or_default();
                return Err(format!("fault after {} steps at column {pc}{line}: {message}", m.steps()));
            }
            status => {
                if !every {
                    out.states.clear();
                }
                out.states.push(tensor(&m));
                out.steps = m.steps();
                out.halted = !status.is_running();
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{asm, Config};

    fn tiny(src: &str) -> Program {
        asm::assemble(src, Config::preset("tiny").unwrap()).unwrap()
    }

    const COUNTDOWN: &str = ".data n = 3\nloop: DEC n\nJNZ n, loop\nHALT\n";

    #[test]
    fn runs_keep_every_state_or_the_last() {
        let prog = tiny(COUNTDOWN);
        let every = run_states(&prog, EngineKind::Dense, 100, true).unwrap();
        assert_eq!((every.states.len(), every.steps, every.halted), (8, 7, true));
        let sparse = run_states(&prog, EngineKind::Sparse, 100, true).unwrap();
        assert_eq!(sparse.states, every.states, "sparse and dense states are the same bits");
        let last = run_states(&prog, EngineKind::Dense, 4, false).unwrap();
        assert_eq!((last.states.len(), last.steps, last.halted), (1, 4, false));
        assert_eq!(last.last(), &every.states[4]);
        let start = run_states(&prog, EngineKind::Dense, 0, false).unwrap();
        assert_eq!(start.last(), &every.states[0]);
        assert!(run_states(&prog, EngineKind::Interp, 1, false).unwrap_err().contains("use a transformer engine"));
    }

    #[test]
    fn a_fault_is_an_error_with_its_line() {
        let prog = tiny(".data p = 100\n.data t\nLOAD t, p\nHALT\n");
        let e = run_states(&prog, EngineKind::Dense, 10, true).err().unwrap();
        assert!(e.starts_with("fault after 0 steps") && e.contains("(line 3)"), "{e}");
    }

    #[test]
    fn formats_and_names() {
        let cfg = Config::preset("compact").unwrap();
        assert_eq!(Format::parse("onnx"), Ok(Format::Onnx));
        assert!(Format::parse("pt").unwrap_err().contains("formats: safetensors, onnx"));
        assert_eq!(model_file_name(&cfg, Format::Safetensors), "loom-compact.safetensors");
        assert_eq!(state_file_name(&cfg, 42), "loom-compact-step42.npy");
        let onnx = model_file(&Config::preset("tiny").unwrap(), Format::Onnx);
        assert!(onnx.windows(b"next_state".len()).any(|w| w == b"next_state"));
        let line = how_to_run(&cfg);
        assert!(line.contains("InferenceSession(\"loom-compact.onnx\")") && !line.contains('\n'), "{line}");
    }
}
