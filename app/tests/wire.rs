//! The embedding envelope's shapes (the README's postMessage protocol).

use loom_app::session::protocol::Status;
use loom_app::session::{Command, Event, View};
use loom_app::wire::{refused, Envelope, Outgoing, Ready, Reply, Summary, Throttle, STEP_EVENT_MS};
use serde_json::json;

#[test]
fn only_version_one_commands_are_commands() {
    let env = |v: serde_json::Value| serde_json::from_value::<Envelope>(v).unwrap();
    assert!(env(json!({"loom": 1, "cmd": "run", "id": 4})).is_command());
    assert!(!env(json!({"loom": 2, "cmd": "run"})).is_command());
    assert!(!env(json!({"cmd": "run"})).is_command());
    assert!(!env(json!({"loom": 1, "event": "halted"})).is_command(), "our own events are not commands");
    assert!(!env(json!({"type": "webpackOk"})).is_command());
    // The command inside is the session protocol's.
    let cmd: Command =
        serde_json::from_value(json!({"loom": 1, "id": "a", "cmd": "load", "source": "int x;", "lang": "c"})).unwrap();
    assert!(matches!(cmd, Command::Load { ref source, .. } if source == "int x;"));
}

fn view(status: Status, steps: u64, running: bool) -> View {
    View { status, steps, pc: 12, running, ..View::default() }
}

#[test]
fn replies_carry_the_id_and_the_state() {
    let ok = serde_json::to_value(Reply::new(json!(7), Ok(Summary::of(&view(Status::Halted, 30, false))))).unwrap();
    assert_eq!(ok, json!({"loom": 1, "reply": 7, "ok": true, "status": "halted", "steps": 30, "pc": 12, "vars": {}}));
    let bad = serde_json::to_value(Reply::new(json!("x"), Err("no demo `tetris`".into()))).unwrap();
    assert_eq!(bad, json!({"loom": 1, "reply": "x", "ok": false, "error": "no demo `tetris`"}));
}

#[test]
fn events_go_out_in_the_envelope() {
    let e = Event::Halted(Box::new(view(Status::Halted, 30, false)));
    let out = serde_json::to_value(Outgoing::new(&e)).unwrap();
    assert_eq!(
        (out["loom"].clone(), out["event"].clone(), out["steps"].clone()),
        (json!(1), json!("halted"), json!(30))
    );
    assert_eq!(out["status"], "halted");
    let ready = serde_json::to_value(Ready::new(vec!["editor"], Summary::of(&View::default()))).unwrap();
    assert_eq!((ready["event"].clone(), ready["panels"].clone()), (json!("ready"), json!(["editor"])));
}

#[test]
fn running_steps_are_throttled_and_the_rest_pass() {
    let mut t = Throttle::default();
    let running = Event::Step(Box::new(view(Status::Running, 1, true)));
    let stepped = Event::Step(Box::new(view(Status::Paused, 1, false)));
    let halted = Event::Halted(Box::new(view(Status::Halted, 9, false)));
    assert!(t.pass(&running, 0.0));
    assert!(!t.pass(&running, 16.0));
    assert!(t.pass(&stepped, 20.0), "a step the user asked for always passes");
    assert!(t.pass(&halted, 30.0));
    assert!(!t.pass(&running, STEP_EVENT_MS - 1.0));
    assert!(t.pass(&running, STEP_EVENT_MS));
}

/// A `load` of a program that does not build is answered `ok: false` with its first
/// error (the `compiled` event says it too); one that builds, and any other command, is not.
#[test]
fn a_load_that_does_not_build_is_refused_with_its_first_error() {
    let load = |source: &str| Command::Load { source: source.into(), lang: None, config: None, engine: None };
    let build = |source: &str| {
        let mut s =
            loom_app::session::Session::new(source.into(), loom_core::frontend::Config::preset("small").unwrap());
        s.compile();
        s.build_info()
    };
    let broken = build("int main() { return 0 }");
    let why = refused(&load("int main() { return 0 }"), &broken).expect("refused");
    assert!(why.starts_with("line 1, column "), "{why}");
    assert!(why.contains("expected"), "{why}");
    assert_eq!(refused(&load("int main() { return 0; }"), &build("int main() { return 0; }")), None);
    assert_eq!(refused(&Command::Run, &broken), None);
}
