//! The messages between the page and the web worker its session runs in:
//! the session protocol's own [`Command`]s one way and [`Event`]s the other,
//! in a small envelope ([`ToWorker`], [`FromWorker`]) that says which request
//! an answer is for. They cross `postMessage` as JavaScript values made by
//! `serde-wasm-bindgen` ([`encode`], [`decode`]); the tensors a view carries
//! and a file's bytes, which serde leaves out, travel beside them as typed
//! arrays whose buffers are transferred, not copied ([`Parts`]).

use crate::session::{Command, Event};
use loom_core::frontend::Tensor;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};

/// What the page asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum ToWorker {
    /// Makes the session (the first message): empty, in this configuration preset.
    Start { config: String },
    /// Commands to carry out in order, stopping at the first one refused;
    /// answered by [`FromWorker::Answer`] with the same `id`.
    Commands { id: u32, commands: Vec<Command> },
}

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker's wasm runs and listens.
    Ready,
    /// The worker could not start (posted by its loader, before any wasm ran).
    Failed { why: String },
    /// What a request's commands did, and why one was refused if one was.
    Answer { id: u32, events: Vec<Event>, error: Option<String> },
    /// What the run loop reports: views while running, where a run ended.
    Events { events: Vec<Event> },
}

impl FromWorker {
    fn events_mut(&mut self) -> &mut [Event] {
        match self {
            FromWorker::Answer { events, .. } | FromWorker::Events { events } => events,
            FromWorker::Ready | FromWorker::Failed { .. } => &mut [],
        }
    }
}

/// Which buffer of an event a part is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    /// The view's tensor.
    Tensor,
    /// The view's tensor before it (for highlighting changes).
    Previous,
    /// A file's bytes.
    Bytes,
}

/// Where a buffer goes back: the event (its index in the message), the slot, a tensor's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub event: usize,
    pub slot: Slot,
    pub d: usize,
    pub n: usize,
}

/// The data of a part.
#[derive(Clone, Debug, PartialEq)]
pub enum Buffer {
    F32(Vec<f32>),
    U8(Vec<u8>),
}

/// The buffers taken out of a message's events, to travel beside it.
#[derive(Debug, Default, PartialEq)]
pub struct Parts(pub Vec<(Part, Buffer)>);

impl Parts {
    /// Takes the tensors and bytes out of `events` (serde leaves them out).
    pub fn take(events: &mut [Event]) -> Parts {
        let mut parts = Vec::new();
        for (i, e) in events.iter_mut().enumerate() {
            match e {
                Event::Step(v) | Event::Paused(v) | Event::Halted(v) | Event::Fault(v) | Event::Frame(v) => {
                    for (slot, t) in [(Slot::Tensor, v.tensor.take()), (Slot::Previous, v.previous.take())] {
                        if let Some(t) = t {
                            parts.push((Part { event: i, slot, d: t.d, n: t.n }, Buffer::F32(t.data)));
                        }
                    }
                }
                Event::File(f) => {
                    let bytes = std::mem::take(&mut f.bytes);
                    parts.push((Part { event: i, slot: Slot::Bytes, d: 0, n: bytes.len() }, Buffer::U8(bytes)));
                }
                Event::Compiled(_) => {}
            }
        }
        Parts(parts)
    }

    /// Puts the buffers back into the events they came from. A part that
    /// does not fit (wrong event, slot or size) is dropped: the message came
    /// from our own worker, but nothing from outside is trusted.
    pub fn put(self, events: &mut [Event]) {
        for (p, buffer) in self.0 {
            let Some(e) = events.get_mut(p.event) else { continue };
            match (e, p.slot, buffer) {
                (Event::File(f), Slot::Bytes, Buffer::U8(bytes)) => f.bytes = bytes,
                (Event::Compiled(_) | Event::File(_), _, _) => {}
                (
                    Event::Step(v) | Event::Paused(v) | Event::Halted(v) | Event::Fault(v) | Event::Frame(v),
                    slot @ (Slot::Tensor | Slot::Previous),
                    Buffer::F32(data),
                ) if p.d.checked_mul(p.n) == Some(data.len()) => {
                    let t = Some(Tensor { d: p.d, n: p.n, data });
                    if slot == Slot::Tensor {
                        v.tensor = t;
                    } else {
                        v.previous = t;
                    }
                }
                _ => {}
            }
        }
    }
}

/// A message as a JavaScript value, and the buffers to transfer with it:
/// `{message, parts: [Part…], buffers: [Float32Array | Uint8Array…]}`.
pub fn encode<T: Serialize>(message: &T, parts: Parts) -> Result<(JsValue, js_sys::Array), String> {
    let value: JsValue = js_sys::Object::new().into();
    let message = to_js(message)?;
    js_sys::Reflect::set(&value, &"message".into(), &message).map_err(|e| format!("{e:?}"))?;
    let (shapes, buffers): (Vec<Part>, Vec<Buffer>) = parts.0.into_iter().unzip();
    let arrays = js_sys::Array::new();
    let transfer = js_sys::Array::new();
    for b in &buffers {
        let array: JsValue = match b {
            Buffer::F32(v) => js_sys::Float32Array::from(&v[..]).into(),
            Buffer::U8(v) => js_sys::Uint8Array::from(&v[..]).into(),
        };
        transfer.push(&js_sys::Reflect::get(&array, &"buffer".into()).map_err(|e| format!("{e:?}"))?);
        arrays.push(&array);
    }
    let shapes = to_js(&shapes)?;
    js_sys::Reflect::set(&value, &"parts".into(), &shapes).map_err(|e| format!("{e:?}"))?;
    js_sys::Reflect::set(&value, &"buffers".into(), &arrays).map_err(|e| format!("{e:?}"))?;
    Ok((value, transfer))
}

/// Plain objects and arrays, never `Map`s: a value the page receives may come
/// from another realm (Firefox runs a WebDriver script's imports in one of
/// its own), where `instanceof Map` is false.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, String> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| e.to_string())
}

/// Reads a message and the buffers beside it (what [`encode`] made). Types
/// are told by shape, not `instanceof`, for the same reason as [`to_js`].
pub fn decode<T: DeserializeOwned>(value: JsValue) -> Result<(T, Parts), String> {
    let field = |name: &str| js_sys::Reflect::get(&value, &name.into()).unwrap_or(JsValue::UNDEFINED);
    let message: T = serde_wasm_bindgen::from_value(field("message")).map_err(|e| e.to_string())?;
    let shapes: Vec<Part> = match field("parts") {
        v if v.is_undefined() => Vec::new(),
        v => serde_wasm_bindgen::from_value(v).map_err(|e| e.to_string())?,
    };
    let arrays = field("buffers");
    let arrays: js_sys::Array =
        if js_sys::Array::is_array(&arrays) { arrays.unchecked_into() } else { js_sys::Array::new() };
    let mut parts = Vec::new();
    for (p, array) in shapes.into_iter().zip(arrays.iter()) {
        // Only typed arrays have a `buffer` and `BYTES_PER_ELEMENT` (4 for our Float32Arrays, 1 for Uint8Arrays).
        let width = js_sys::Reflect::get(&array, &"BYTES_PER_ELEMENT".into()).ok().and_then(|w| w.as_f64());
        let typed = js_sys::Reflect::has(&array, &"buffer".into()).unwrap_or(false);
        let buffer = match (typed, width) {
            (true, Some(4.0)) => Buffer::F32(array.unchecked_into::<js_sys::Float32Array>().to_vec()),
            (true, Some(1.0)) => Buffer::U8(array.unchecked_into::<js_sys::Uint8Array>().to_vec()),
            _ => continue,
        };
        parts.push((p, buffer));
    }
    Ok((message, Parts(parts)))
}

/// A message from the worker, its buffers back in its events.
pub fn decode_from_worker(value: JsValue) -> Result<FromWorker, String> {
    let (mut message, parts) = decode::<FromWorker>(value)?;
    parts.put(message.events_mut());
    Ok(message)
}

/// A message for the page, with its events' buffers to transfer.
pub fn encode_from_worker(mut message: FromWorker) -> Result<(JsValue, js_sys::Array), String> {
    let parts = Parts::take(message.events_mut());
    encode(&message, parts)
}
