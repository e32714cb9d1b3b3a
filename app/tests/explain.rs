//! The Explain view through the session protocol: a layer walk carries the
//! step in words in `View.explain`, the narration is the shown layer's
//! sentence, the words travel in the serde form of events, and the
//! interpreter (no layers) explains nothing.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use loom_app::session::protocol::View;
use loom_app::session::{Command, Driver, Event, Session, StepBy};
use loom_core::frontend::explain::plain;
use loom_core::frontend::Config;
use loom_core::frontend::EngineKind;

const COUNTDOWN: &str = include_str!("../../tests/asm/countdown.s");

fn driver(engine: EngineKind) -> Driver {
    let mut d = Driver::new(Session::new(String::new(), Config::preset("small").unwrap()));
    d.handle(Command::Load { source: COUNTDOWN.into(), lang: None, config: None, engine: Some(engine) }, 0.0).unwrap();
    d
}

fn step(d: &mut Driver, by: StepBy) -> View {
    let events = d.handle(Command::Step { by }, 0.0).unwrap();
    events.iter().rev().find_map(Event::view).cloned().expect("a step answers with a view")
}

#[test]
fn a_layer_walk_is_told_layer_by_layer() {
    let mut d = driver(EngineKind::Sparse);
    for i in 0..8 {
        let v = step(&mut d, StepBy::Layer);
        let layer = v.layer.as_ref().expect("a layer is shown");
        assert_eq!(layer.index, i);
        let e = v.explain.as_ref().expect("the step is explained");
        assert_eq!(e.layers.len(), 8);
        let words = plain(&e.layers[i].words);
        assert!(!words.is_empty());
        assert_eq!(v.narration, format!("{}: {words}", layer.name), "the narration is the shown layer's words");
    }
    // The whole instruction: the narration is the short summary again, the words stay.
    let v = step(&mut d, StepBy::Instruction);
    assert!(v.layer.is_none() && v.explain.is_some());
    assert!(v.narration.starts_with("PC "), "{}", v.narration);
}

#[test]
fn the_words_travel_in_events() {
    let mut d = driver(EngineKind::Sparse);
    let v = step(&mut d, StepBy::Layer);
    let json = serde_json::to_value(Event::Step(Box::new(v.clone()))).unwrap();
    let words = &json["explain"]["layers"][0]["words"];
    assert!(words.as_array().is_some_and(|w| w.iter().any(|s| s["target"]["kind"] == "head")), "{words}");
    let back: Event = serde_json::from_value(json).unwrap();
    assert_eq!(back.view().and_then(|v| v.explain.clone()), v.explain);
}

#[test]
fn the_interpreter_explains_nothing() {
    let mut d = driver(EngineKind::Interp);
    let v = step(&mut d, StepBy::Instruction);
    assert_eq!(v.steps, 1);
    assert!(v.explain.is_none());
}
