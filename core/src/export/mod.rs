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
use crate::machine::weights::Weights;
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

/// `state-step-42.npy`: the state after `step` instructions (what
/// `loom state --steps 42` writes), the name the page downloads it under.
pub fn state_file_name(step: u64) -> String {
    format!("state-step-{step}.npy")
}

/// One line for the page: how to run the downloaded files of `config` from
/// the state after `step` instructions.
pub fn how_to_run(config: &Config, step: u64) -> String {
    format!(
        "One run of the model is one instruction: python tools/loom_step.py {st} {state} next.npy [--steps K] \
         (NumPy, in the repository), or onnxruntime.InferenceSession(\"{onnx}\").run(None, \
         {{\"{input}\": numpy.load(\"{state}\")}})[0] is the next state; the program has halted when the pc rows \
         of column 0 read 0.",
        st = model_file_name(config, Format::Safetensors),
        onnx = model_file_name(config, Format::Onnx),
        state = state_file_name(step),
        input = onnx::INPUT,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_names() {
        let cfg = Config::preset("compact").unwrap();
        assert_eq!(Format::parse("onnx"), Ok(Format::Onnx));
        assert!(Format::parse("pt").unwrap_err().contains("formats: safetensors, onnx"));
        assert_eq!(model_file_name(&cfg, Format::Safetensors), "loom-compact.safetensors");
        assert_eq!(state_file_name(42), "state-step-42.npy");
        let onnx = model_file(&Config::preset("tiny").unwrap(), Format::Onnx);
        assert!(onnx.windows(b"next_state".len()).any(|w| w == b"next_state"));
        let line = how_to_run(&cfg, 7);
        assert!(line.contains("InferenceSession(\"loom-compact.onnx\")") && !line.contains('\n'), "{line}");
        assert!(line.contains("loom_step.py loom-compact.safetensors state-step-7.npy next.npy"), "{line}");
        assert!(line.contains("{\"state\": numpy.load(\"state-step-7.npy\")}"), "{line}");
    }
}
