//! The embedding transports: a widget's events and commands as JavaScript
//! values. For an iframe, `postMessage` to and from the parent window (only
//! the parent's messages are read); for a custom element, the JS API
//! (`api.rs`) calls [`command`] and hears [`on_events`]. Both carry the session
//! protocol's own `Command`s and `Event`s in the envelope of [`crate::wire`],
//! converted with `serde-wasm-bindgen`.

use super::Client;
use crate::session::{Command, Event};
use crate::wire::{refused, Envelope, Outgoing, Ready, Reply, Summary, Throttle};
use leptos::prelude::*;
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// Objects, not `Map`s, for JSON-like values (the variables), and numbers for integers.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL)
}

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// Carries out one command; `answer` hears the state after it, or why not (a `load`
/// whose program does not build: its first error).
pub fn command(client: Client, cmd: Command, answer: impl FnOnce(Result<Summary, String>) + 'static) {
    let asked = cmd.clone();
    let done = move |r: Result<(), String>| {
        let r = r.and_then(|()| match client.build.with_untracked(|b| refused(&asked, b)) {
            Some(why) => Err(why),
            None => Ok(client.view.with_untracked(Summary::of)),
        });
        answer(r)
    };
    client.request(vec![cmd], Some(Box::new(done)));
}

/// Reads a command sent as a JavaScript object (`{cmd: "step", by: "line"}`).
pub fn read_command(value: JsValue) -> Result<Command, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| format!("not a command: {e}"))
}

/// Calls `f` with every event leaving the widget, in the envelope (running steps throttled).
pub fn on_events(client: Client, f: impl Fn(JsValue) + 'static) {
    let throttle = RefCell::new(Throttle::default());
    client.subscribe(move |e| {
        if throttle.borrow_mut().pass(e, now()) {
            f(outgoing(e));
        }
    });
}

/// An event in the envelope; a `file` event's bytes go along as a `Uint8Array` (`bytes`).
fn outgoing(e: &Event) -> JsValue {
    let js = to_js(&Outgoing::new(e));
    if let Event::File(file) = e {
        let _ = js_sys::Reflect::set(&js, &"bytes".into(), &js_sys::Uint8Array::from(&file.bytes[..]));
    }
    js
}

/// The `ready` event: the widget listens now.
pub fn ready(client: Client, panels: Vec<&'static str>) -> JsValue {
    to_js(&Ready::new(panels, client.view.with_untracked(Summary::of)))
}

/// The window an iframe's widget talks to: its parent (None outside a frame).
fn parent() -> Option<web_sys::Window> {
    let me = window();
    let parent = me.parent().ok().flatten()?;
    (!js_sys::Object::is(&parent, &me)).then_some(parent)
}

/// In an iframe, once the first build is done: tells the parent window the widget listens.
pub fn announce(client: Client, panels: Vec<&'static str>) {
    if let Some(parent) = parent() {
        let _ = parent.post_message(&ready(client, panels), "*");
    }
}

/// In an iframe: posts the widget's events to the parent window and answers
/// the commands it sends. Messages from any other window are ignored.
pub fn install(client: Client) {
    let Some(parent) = parent() else { return };
    let post = {
        let parent = parent.clone();
        move |msg: JsValue| {
            let _ = parent.post_message(&msg, "*");
        }
    };
    on_events(client, post.clone());
    let handle = window_event_listener(leptos::ev::message, move |e: web_sys::MessageEvent| {
        let from_parent = e.source().is_some_and(|s| js_sys::Object::is(&s, &parent));
        if !from_parent {
            return;
        }
        let data = e.data();
        let Ok(envelope) = serde_wasm_bindgen::from_value::<Envelope>(data.clone()) else { return };
        if !envelope.is_command() {
            return;
        }
        let post = post.clone();
        let reply = move |result| {
            if let Some(id) = envelope.id {
                post(to_js(&Reply::new(id, result)));
            }
        };
        match read_command(data) {
            Ok(cmd) => command(client, cmd, reply),
            // Answered in turn, after the commands sent before it.
            Err(e) => client.after(Box::new(move |_| reply(Err(e)))),
        }
    });
    on_cleanup(move || handle.remove());
}
