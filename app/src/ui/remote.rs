//! The page's handle on the session's web worker: it starts the worker,
//! posts [`ToWorker`] messages and hands each [`FromWorker`] message (or the
//! worker's failure) to the client. The worker is a classic worker made from
//! a `blob:` URL whose two lines load `loom-worker.js` and its wasm from the
//! playground's folder (the page's, or the module's when a widget is embedded
//! in another site's page: a worker's own script must be of the page's origin,
//! but what it imports need not). Its first message is `ready`; until then the
//! client holds its requests.

use crate::relay::{self, FromWorker, ToWorker};
use wasm_bindgen::prelude::*;
use web_sys::{Blob, BlobPropertyBag, Event, MessageEvent, Url, Worker};

/// The worker's JavaScript glue and wasm, beside the page (Trunk's names for
/// the `loom-worker` binary of `www/index.html`).
const GLUE: &str = "loom-worker.js";
const WASM: &str = "loom-worker_bg.wasm";

pub struct Remote {
    worker: Worker,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(Event)>,
}

/// The loader's source: the glue, then its wasm; a failure to load the wasm is
/// posted as `failed` (no wasm runs yet to post it through `relay`).
fn loader(base: &str) -> Result<String, String> {
    let at = |name: &str| {
        Url::new_with_base(name, base).map(|u| u.href()).map_err(|_| format!("no address for {name} beside {base}"))
    };
    let (glue, wasm) = (at(GLUE)?, at(WASM)?);
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
    Ok(format!(
        "importScripts({});\nwasm_bindgen({{ module_or_path: {} }}).catch((e) => postMessage({{ message: {{ from: \"failed\", why: String(e) }} }}));\n",
        quote(&glue),
        quote(&wasm)
    ))
}

impl Remote {
    /// Starts the worker from the playground's folder `base`; `on_message`
    /// hears each message, `on_error` why the worker failed. Errs when no
    /// worker can be made here (a host page's policy, a browser setting).
    pub fn spawn(
        base: &str,
        on_message: impl Fn(FromWorker) + 'static,
        on_error: impl Fn(String) + 'static,
    ) -> Result<Remote, String> {
        let source = loader(base)?;
        let options = BlobPropertyBag::new();
        options.set_type("text/javascript");
        let parts = js_sys::Array::of1(&source.into());
        let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(describe)?;
        let url = Url::create_object_url_with_blob(&blob).map_err(describe)?;
        let worker = Worker::new(&url);
        let _ = Url::revoke_object_url(&url);
        let worker = worker.map_err(describe)?;
        let on_error = std::rc::Rc::new(on_error);
        let failed = on_error.clone();
        let on_message =
            Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| match relay::decode_from_worker(e.data()) {
                Ok(FromWorker::Failed { why }) => failed(why),
                Ok(m) => on_message(m),
                Err(why) => failed(format!("a message from the worker could not be read: {why}")),
            });
        // An `ErrorEvent` with a message when the worker's script threw; a plain `Event` when it did not load.
        let on_error = Closure::<dyn Fn(Event)>::new(move |e: Event| {
            e.prevent_default();
            let why = js_sys::Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string());
            on_error(why.filter(|w| !w.is_empty()).unwrap_or_else(|| "the worker could not start".to_owned()));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Remote { worker, _on_message: on_message, _on_error: on_error })
    }

    /// Posts a message (a page's message has no buffers to transfer).
    pub fn post(&self, message: &ToWorker) -> Result<(), String> {
        let (value, transfer) = relay::encode(message, relay::Parts::default())?;
        self.worker.post_message_with_transfer(&value, &transfer).map_err(describe)
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// A JavaScript exception in words.
fn describe(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
}
