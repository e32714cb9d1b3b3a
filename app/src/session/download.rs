//! The files a session hands out ("Download model", "Download state"): the
//! bytes `loom export` and `loom state` write, made by the same core
//! functions through the façade.
//!
//! The state is the machine's tensor after the steps on display, always at a
//! step boundary — also while walking an instruction layer by layer. The model
//! takes a whole machine state in and gives the next one out; a tensor between
//! two layers is neither. During a layer walk the file is the state after the
//! instruction being walked — the step boundary the walk ends at — so
//! `state-step-K.npy` names K, the steps the machine has made (the status bar
//! counts the walked instruction from L8 on).

use super::protocol::{File, FileKind};
use super::Session;
use loom_core::frontend::Engine;
use loom_core::frontend::{model_file, model_file_name, npy, state_file_name, Format};

impl Session {
    /// The file `kind` for what is loaded now, or why there is none.
    pub fn file(&self, kind: FileKind) -> Result<File, String> {
        let model = |format| File::new(model_file_name(&self.config, format), model_file(&self.config, format));
        match kind {
            FileKind::Safetensors => Ok(model(Format::Safetensors)),
            FileKind::Onnx => Ok(model(Format::Onnx)),
            FileKind::State => {
                let m = self.machine().ok_or("no state: the program does not build")?;
                let x = m.tensor().ok_or_else(|| {
                    format!(
                        "the {} has no state tensor: choose a transformer engine (sparse or dense)",
                        self.engine.label()
                    )
                })?;
                Ok(File::new(state_file_name(m.steps()), npy::state(x)))
            }
        }
    }
}
