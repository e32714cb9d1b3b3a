//! The session protocol: what a front end asks of a session ([`Command`]) and
//! what it hears back ([`Event`]). It is defined once, here, with serde: the
//! page's own views consume it in-thread today, and every other transport
//! (a web worker, the iframe's `postMessage` API, the custom element's JS API)
//! carries these same types, never a vocabulary of its own.
//!
//! An event carries everything its views draw: [`Build`] after a build (the
//! listing, diagnostics, the layout's configuration), [`View`] after a step or
//! while running (status, steps, PC, variables, registers, attention, the
//! tensor). Tensors are left out of the serde form (`#[serde(skip)]`): a
//! transport that crosses threads moves them as transferable buffers.

use crate::demo::DemoView;
use loom_core::frontend::report::{Fault, Vars};
use loom_core::frontend::{Diagnostic, EngineKind, Explanation, FrameView, Lang, MemoryView, Owner, Register, Tensor};
use serde::{Deserialize, Serialize};

/// What a front end asks the session to do. Unknown commands and bad
/// values are errors; fields a command does not know are ignored (a
/// transport's envelope shares the object).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum Command {
    /// Replaces the program (and, when given, its language, configuration
    /// and engine) and builds it.
    Load {
        source: String,
        #[serde(default)]
        lang: Option<Lang>,
        #[serde(default)]
        config: Option<String>,
        #[serde(default)]
        engine: Option<EngineKind>,
    },
    /// The editor's text changed: nothing is rebuilt until `compile`, `run`,
    /// a step or `reset`, and the last good views stay until then.
    Edit {
        source: String,
    },
    Compile,
    /// Switches configuration (a preset name) and rebuilds.
    Config {
        name: String,
    },
    /// Switches engine and rebuilds.
    Engine {
        name: EngineKind,
    },
    /// Runs (at the chosen speed) until a breakpoint, HALT, a fault or `pause`.
    Run,
    Pause,
    /// Steps per second while running; 0 = as fast as possible.
    Speed {
        steps_per_second: u32,
    },
    Step {
        #[serde(default)]
        by: StepBy,
    },
    /// Runs until the PC enters a source line (run to cursor).
    RunTo {
        line: u32,
    },
    /// Undoes the last step over, out or run to a line as one move; otherwise one
    /// instruction back (restore a checkpoint and replay).
    Back,
    /// Shows the current build after `step` instructions from its start (or
    /// where it stopped before them): a shared link's or an embed's `step=N`.
    Seek {
        step: u64,
    },
    /// Back to the initial state of the current build.
    Reset,
    /// Asks for the current [`View`] (answered with a `step` event).
    State,
    /// Source lines to stop at.
    Breakpoints {
        lines: Vec<u32>,
    },
    /// The text the program reads (`getchar`, `scanf`): the page's Input box. What the
    /// program already read stays read; it keeps the text over builds and resets.
    Stdin {
        text: String,
    },
    /// Writes a host input: a global variable by name.
    Input {
        name: String,
        value: i64,
    },
    /// Loads a demo by id (its source, configuration and inputs), or leaves demos (`null`).
    Demo {
        id: Option<String>,
    },
    /// Chooses the demo's example (puzzle, seed, input) and restarts.
    Example {
        index: usize,
    },
    /// A key press for the running demo (`KeyboardEvent.key`).
    Key {
        key: String,
    },
    /// A Sudoku typed by the user (81 digits): becomes the demo's example.
    Puzzle {
        text: String,
    },
    /// Asks for a file (answered with a `file` event): the model of the
    /// current configuration, or the state after the steps on display.
    Download {
        file: FileKind,
    },
}

/// Which file `download` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    /// The transformer of the configuration as safetensors (`loom export --format safetensors`).
    Safetensors,
    /// The same as one ONNX forward pass (`loom export --format onnx`).
    Onnx,
    /// The state tensor after the steps on display, as `.npy` (`loom state --steps K`).
    State,
}

impl FileKind {
    pub const ALL: [FileKind; 3] = [FileKind::Safetensors, FileKind::Onnx, FileKind::State];

    /// The protocol's name (`"safetensors"`, `"onnx"`, `"state"`), also the menu items' test ids' suffix.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Safetensors => "safetensors",
            FileKind::Onnx => "onnx",
            FileKind::State => "state",
        }
    }
}

/// A file the session made: its name and contents. The bytes are left out
/// of the serde form like tensors (a transport moves them as a buffer).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct File {
    pub name: String,
    /// The length of `bytes` (what the serde form says of them).
    pub size: usize,
    #[serde(skip)]
    pub bytes: Vec<u8>,
}

impl File {
    pub fn new(name: String, bytes: Vec<u8>) -> File {
        File { name, size: bytes.len(), bytes }
    }
}

/// How far `step` goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepBy {
    /// One layer of the transformer (L1…L8); the next instruction after L8.
    Layer,
    #[default]
    Instruction,
    /// Until the PC reaches another source line.
    Line,
    /// To the next line of this function, any call on the way run whole.
    Over,
    /// Until this function returns to its caller.
    Out,
}

/// What the session tells its front ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A build finished (successfully or with diagnostics).
    Compiled(Box<Build>),
    /// The machine moved: a step, or a throttled update while running.
    Step(Box<View>),
    /// A run stopped without finishing (pause, breakpoint, budget of a line step).
    Paused(Box<View>),
    Halted(Box<View>),
    Fault(Box<View>),
    /// A demo reached `frame()` (throttled like `step` while running).
    Frame(Box<View>),
    /// The file a `download` asked for.
    File(Box<File>),
}

impl Event {
    /// The view an event carries, if any.
    pub fn view(&self) -> Option<&View> {
        match self {
            Event::Compiled(_) | Event::File(_) => None,
            Event::Step(v) | Event::Paused(v) | Event::Halted(v) | Event::Fault(v) | Event::Frame(v) => Some(v),
        }
    }

    /// The protocol's name of the event (`"step"`, `"halted"`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Event::Compiled(_) => "compiled",
            Event::Step(_) => "step",
            Event::Paused(_) => "paused",
            Event::Halted(_) => "halted",
            Event::Fault(_) => "fault",
            Event::Frame(_) => "frame",
            Event::File(_) => "file",
        }
    }
}

/// How the session stands, for the status line and scripts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Nothing loaded yet, or the source changed since the last build.
    #[default]
    Edited,
    /// The source does not build.
    Error,
    /// Built and at step 0.
    Loaded,
    Running,
    Paused,
    Halted,
    Fault,
}

/// One line of the disassembly: a C line (no `index`) or an instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListingRow {
    /// The instruction's index, or `None` for an interleaved source line.
    pub index: Option<usize>,
    pub line: Option<u32>,
    pub text: String,
    /// The operation's semantics and description (hover help); empty for source lines.
    pub doc: String,
}

/// A demo's controls, known page-side so a key press is routed at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DemoInfo {
    pub id: String,
    /// Examples (puzzles, seeds, inputs) by display name.
    pub examples: Vec<String>,
    pub example: usize,
    /// The `KeyboardEvent.key`s the demo reads at `frame()`.
    pub keys: Vec<String>,
}

/// What a build produced: everything the views show that changes only with a build.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Build {
    /// Counts builds: views of the build key on it.
    pub builds: u64,
    pub ok: bool,
    pub lang: Option<Lang>,
    /// The configuration preset's name.
    pub config: String,
    pub engine: Option<EngineKind>,
    /// The source text this build is of.
    pub source: String,
    pub diagnostics: Vec<Diagnostic>,
    /// The diagnostics rendered rustc-style (with the line and a caret).
    pub rendered: String,
    pub listing: Vec<ListingRow>,
    /// Instructions in the program (the listing's `index` runs below it).
    pub instructions: usize,
    /// What each column holds, in words ("M[40] = sum (slot 8)" without its value).
    pub columns: Vec<String>,
    /// The memory slot the program prints through, when it prints (the heatmap's
    /// `console` zone).
    pub console: Option<usize>,
    pub breakpoints: Vec<u32>,
    pub demo: Option<DemoInfo>,
}

/// One attention match of the shown layer(s).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttnRow {
    pub layer: String,
    pub head: String,
    /// The layer's index (0 = L1) and the head's within it: what an explanation's head link names.
    pub layer_index: usize,
    pub head_index: usize,
    pub source: usize,
    pub targets: Vec<usize>,
    pub best1: f32,
    pub best2: f32,
    pub tie: bool,
    /// "L2 read+decode head read b: column 0 reads M[40] = sum (slot 8) = 3".
    pub meaning: String,
}

/// The layer on display while walking an instruction layer by layer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerAt {
    /// 0 for L1 … 7 for L8.
    pub index: usize,
    pub name: String,
}

/// The machine as the views show it now. While walking layers, every field
/// is of the same moment: the tensor after the shown layer, the PC and
/// memory decoded from it, and the instruction being executed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub status: Status,
    /// The status line ("paused", "fault at line 9 — division by zero").
    pub text: String,
    pub steps: u64,
    /// The PC (a column); during a layer walk, the PC in the shown layer's tensor.
    pub pc: usize,
    /// The source line of the instruction shown.
    pub line: Option<u32>,
    /// The instruction shown (its index): the one at the PC, or during a
    /// layer walk the one being executed.
    pub instr: Option<usize>,
    /// That instruction as text.
    pub instr_text: Option<String>,
    pub vars: Vars,
    /// The variables of `vars` that hold a structure or a pointer, as text as the
    /// call stack shows them (`{x = 3, y = 4}`, `→ a[2]`), for the variables table.
    #[serde(default)]
    pub formatted: Vec<(String, String)>,
    /// Variables the last action changed (keys of `vars`).
    pub changed: Vec<String>,
    pub fault: Option<Fault>,
    /// The variable (a key of `vars`) the faulting statement assigns: it keeps its old
    /// value, since C performs no assignment whose right side faults.
    pub unwritten: Option<String>,
    /// The source was edited since the machine on display was built.
    pub edited: bool,
    pub running: bool,
    /// Steps per second measured while running.
    pub rate: f64,
    /// The run's total step count, when known (a finished run of the same
    /// program and inputs, or the interpreter looking ahead): the progress bar's end.
    pub total: Option<u64>,
    pub layer: Option<LayerAt>,
    /// Whether the transformer's decoded state equals the shadow interpreter's (None: no transformer).
    pub agrees: Option<bool>,
    /// The last action in one sentence: "PC 40 → 41, sum: 3 → 7".
    pub narration: String,
    /// Why the last action stopped where it did, when that needs saying.
    pub note: Option<String>,
    pub registers: Vec<Register>,
    pub attention: Vec<AttnRow>,
    /// The last traced step in words: the instruction, then each layer (the
    /// Explain view; during a layer walk the narration is the shown layer's words).
    pub explain: Option<Explanation>,
    pub demo: Option<DemoView>,
    /// What the program printed so far (the console's text, as the host collected it).
    pub output: String,
    /// Whether the step on display printed the last character of `output`.
    pub printed: bool,
    /// How many bytes of the input (`stdin`) the program has read.
    #[serde(default)]
    pub input_read: usize,
    /// The call stack, innermost first: each activation's function, line and variables.
    pub frames: Vec<FrameView>,
    /// Who owns each memory word now (`fact#3: n`, `global total`, `console`): what the
    /// heatmap says of a memory column.
    pub owners: Vec<Owner>,
    /// The globals and each activation's variables as cells, pointers with their targets,
    /// the cells the last move changed (empty while running: it changes every step).
    #[serde(default)]
    pub memory: MemoryView,
    /// The tensor on display (transformers only).
    #[serde(skip)]
    pub tensor: Option<Tensor>,
    /// The tensor before what is on display (the previous layer or step), for highlighting changes.
    #[serde(skip)]
    pub previous: Option<Tensor>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_the_documented_shapes() {
        let load: Command =
            serde_json::from_str(r#"{"cmd": "load", "source": "int x;", "lang": "c", "config": "small"}"#).unwrap();
        assert_eq!(
            load,
            Command::Load { source: "int x;".into(), lang: Some(Lang::C), config: Some("small".into()), engine: None }
        );
        let step: Command = serde_json::from_str(r#"{"cmd": "step", "by": "layer"}"#).unwrap();
        assert_eq!(step, Command::Step { by: StepBy::Layer });
        let plain: Command = serde_json::from_str(r#"{"cmd": "step"}"#).unwrap();
        assert_eq!(plain, Command::Step { by: StepBy::Instruction });
        assert!(serde_json::from_str::<Command>(r#"{"cmd": "format_disk"}"#).is_err());
        // Envelope fields (a transport's `id`, a version) are not the command's business.
        let run: Command = serde_json::from_str(r#"{"loom": 1, "id": 3, "cmd": "run"}"#).unwrap();
        assert_eq!(run, Command::Run);
        assert!(serde_json::from_str::<Command>(r#"{"cmd": "step", "by": "sideways"}"#).is_err());
        let get: Command = serde_json::from_str(r#"{"cmd": "download", "file": "onnx"}"#).unwrap();
        assert_eq!(get, Command::Download { file: FileKind::Onnx });
        assert!(serde_json::from_str::<Command>(r#"{"cmd": "download", "file": "pickle"}"#).is_err());
    }

    #[test]
    fn events_are_tagged_objects() {
        let v = View { status: Status::Halted, steps: 7, ..View::default() };
        let json = serde_json::to_value(Event::Halted(Box::new(v))).unwrap();
        assert_eq!(json["event"], "halted");
        assert_eq!(json["steps"], 7);
        assert_eq!(json["status"], "halted");
        let file =
            serde_json::to_value(Event::File(Box::new(File::new("state-step-3.npy".into(), vec![1, 2])))).unwrap();
        assert_eq!(file, serde_json::json!({"event": "file", "name": "state-step-3.npy", "size": 2}));
    }
}
