//! The messages between the page and the session's worker, through
//! JavaScript values as `postMessage` carries them (headless Chromium and
//! Firefox only: natively there are no JavaScript values).
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use loom_app::relay::{decode, decode_from_worker, encode, encode_from_worker, FromWorker, Parts, ToWorker};
use loom_app::session::{Command, Event, File, StepBy, View};
use loom_core::frontend::Tensor;
use wasm_bindgen_test::wasm_bindgen_test as test;

#[test]
fn events_cross_with_their_tensors_and_bytes_as_transferred_buffers() {
    let tensor = Tensor { d: 3, n: 2, data: vec![1.0, -2.5, 0.0, 4.0, 0.5, 7.0] };
    let view =
        View { steps: 12, pc: 40, running: true, total: Some(99), tensor: Some(tensor.clone()), ..View::default() };
    let file = File::new("state-step-12.npy".into(), vec![1, 2, 3]);
    let events = vec![Event::Step(Box::new(view)), Event::File(Box::new(file))];
    let sent = FromWorker::Answer { id: 7, events: events.clone(), error: Some("no".into()) };
    let (value, transfer) = encode_from_worker(sent.clone()).unwrap();
    assert_eq!(transfer.length(), 2, "the tensor's and the file's buffers are transferred");
    assert_eq!(decode_from_worker(value).unwrap(), sent);
}

#[test]
fn commands_cross_and_foreign_messages_are_refused() {
    let sent = ToWorker::Commands { id: 3, commands: vec![Command::Step { by: StepBy::Line }, Command::Run] };
    let (value, _) = encode(&sent, Parts::default()).unwrap();
    assert_eq!(decode::<ToWorker>(value).unwrap().0, sent);
    let junk = js_sys::JSON::parse(r#"{"message": {"to": "format_disk"}}"#).unwrap();
    assert!(decode::<ToWorker>(junk).is_err());
    // What the worker's loader posts when the wasm does not load (no wasm runs to encode it).
    let failed = js_sys::JSON::parse(r#"{"message": {"from": "failed", "why": "404"}}"#).unwrap();
    assert_eq!(decode_from_worker(failed).unwrap(), FromWorker::Failed { why: "404".into() });
}
