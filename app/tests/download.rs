//! "Download model" and "Download state" through the session protocol: the
//! `file` events carry the very bytes `loom export` and `loom state` write for
//! the same configuration, program and step (made here by the same core
//! functions the command line calls), after stepping, stepping back, seeking
//! and in the middle of a layer walk.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use loom_app::session::{Command, Driver, Event, File, FileKind, Session, StepBy, EXAMPLE};
use loom_core::frontend::Config;
use loom_core::frontend::{build, model_file, npy, run_states, EngineKind, Format, Lang};

fn driver(config: &str) -> Driver {
    let mut d = Driver::new(Session::new(EXAMPLE.to_owned(), Config::preset(config).unwrap()));
    d.handle(Command::Compile, 0.0).expect("the example builds");
    d
}

fn send(d: &mut Driver, cmd: Command) {
    d.handle(cmd, 0.0).expect("the command is accepted");
}

/// The one event a download answers with: the file.
fn download(d: &mut Driver, file: FileKind) -> File {
    let mut events = d.handle(Command::Download { file }, 0.0).expect("the download is accepted");
    assert_eq!(events.len(), 1, "a download answers with its file alone: {events:?}");
    match events.pop() {
        Some(Event::File(f)) => *f,
        other => panic!("expected a file event, got {other:?}"),
    }
}

/// What `loom state EXAMPLE.c --config CONFIG --steps K --format npy` writes.
fn cli_state(config: &str, steps: u64) -> Vec<u8> {
    let prog = build(Lang::C, EXAMPLE, Config::preset(config).unwrap()).program.expect("the example builds");
    let run = run_states(&prog, EngineKind::Dense, steps, false).expect("the example runs");
    assert_eq!(run.steps, steps, "the example runs that far");
    npy::state(run.last())
}

/// At a step boundary: the steps on display, and the file of that state.
fn assert_state(d: &mut Driver, config: &str, steps: u64) {
    assert_eq!(d.view().steps, steps);
    assert_file(d, config, steps);
}

/// The state file is `loom state`'s after `steps` steps.
fn assert_file(d: &mut Driver, config: &str, steps: u64) {
    let f = download(d, FileKind::State);
    assert_eq!(f.name, format!("state-step-{steps}.npy"));
    assert_eq!(f.size, f.bytes.len());
    assert!(f.bytes == cli_state(config, steps), "the state after {steps} steps differs from loom state's");
}

#[test]
fn the_model_files_are_loom_exports_of_the_configuration() {
    let mut d = driver("small");
    for (kind, format, name) in [
        (FileKind::Safetensors, Format::Safetensors, "loom-small.safetensors"),
        (FileKind::Onnx, Format::Onnx, "loom-small.onnx"),
    ] {
        let f = download(&mut d, kind);
        assert_eq!(f.name, name);
        assert!(f.bytes == model_file(&Config::preset("small").unwrap(), format), "{name} differs from loom export's");
    }
    // Another configuration, another model.
    send(&mut d, Command::Config { name: "tiny".into() });
    let f = download(&mut d, FileKind::Onnx);
    assert_eq!(f.name, "loom-tiny.onnx");
    assert!(f.bytes == model_file(&Config::preset("tiny").unwrap(), Format::Onnx));
}

#[test]
fn the_state_is_loom_states_after_the_steps_on_display() {
    let mut d = driver("small");
    assert_state(&mut d, "small", 0);
    for _ in 0..5 {
        send(&mut d, Command::Step { by: StepBy::Instruction });
    }
    assert_state(&mut d, "small", 5);
    send(&mut d, Command::Back);
    assert_state(&mut d, "small", 4);
    send(&mut d, Command::Seek { step: 9 });
    assert_state(&mut d, "small", 9);
    send(&mut d, Command::Seek { step: 2 });
    assert_state(&mut d, "small", 2);
    // A download changes nothing on display.
    let before = d.view();
    download(&mut d, FileKind::State);
    assert_eq!(d.view(), before);
}

#[test]
fn during_a_layer_walk_the_state_is_the_step_boundary_after_it() {
    let mut d = driver("small");
    send(&mut d, Command::Step { by: StepBy::Instruction });
    for _ in 0..3 {
        send(&mut d, Command::Step { by: StepBy::Layer });
    }
    let v = d.view();
    assert_eq!(v.layer.as_ref().map(|l| l.index), Some(2), "walking: L3 on display");
    assert_eq!(v.steps, 1, "the instruction on display counts from L8 on");
    assert_file(&mut d, "small", 2);
}

#[test]
fn the_dense_engine_gives_the_same_state_and_the_interpreter_none() {
    let mut d = driver("small");
    send(&mut d, Command::Engine { name: EngineKind::Dense });
    send(&mut d, Command::Seek { step: 6 });
    assert_state(&mut d, "small", 6);
    send(&mut d, Command::Engine { name: EngineKind::Interp });
    let e = d.handle(Command::Download { file: FileKind::State }, 0.0).unwrap_err();
    assert!(e.contains("has no state tensor") && e.contains("transformer engine"), "{e}");
    // The model does not depend on the engine.
    assert_eq!(download(&mut d, FileKind::Safetensors).name, "loom-small.safetensors");
}

#[test]
fn a_program_that_does_not_build_has_no_state() {
    let mut d = driver("small");
    send(&mut d, Command::Load { source: "int main() { return x; }".into(), lang: None, config: None, engine: None });
    let e = d.handle(Command::Download { file: FileKind::State }, 0.0).unwrap_err();
    assert!(e.contains("does not build"), "{e}");
}
