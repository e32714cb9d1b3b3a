//! The JavaScript API behind `www/loom-playground.js` (the custom element and
//! `mount()`): mounts a widget in an element of the host page and gives the
//! module a handle to send it commands and hear its events.

use super::messages::{command, on_events, read_command, ready, to_js};
use super::widget::{mount_widget, Widget};
use crate::options::Options;
use wasm_bindgen::prelude::*;

/// One widget on a host page.
#[wasm_bindgen]
pub struct WidgetHandle {
    widget: Option<Widget>,
}

/// Mounts a widget in `parent` (inside the element's shadow root).
/// `options`: `[name, value]` pairs, as the element's attributes give them;
/// `source`: a program (a child `<script type="text/x-c">`), used when no
/// `state` or `demo` says otherwise; `playground`: the full page's address;
/// `on_event`: called with every event object.
#[wasm_bindgen(js_name = mountWidget)]
pub fn mount_widget_js(
    parent: web_sys::HtmlElement,
    options: Vec<js_sys::Array>,
    source: Option<String>,
    playground: String,
    on_event: js_sys::Function,
) -> WidgetHandle {
    console_error_panic_hook::set_once();
    let pairs: Vec<(String, String)> = options
        .iter()
        .map(|p| (p.get(0).as_string().unwrap_or_default(), p.get(1).as_string().unwrap_or_default()))
        .collect();
    let mut options = Options::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    options.embed = true;
    let fragment = source
        .filter(|s| !s.trim().is_empty())
        .map(|source| Ok(crate::link::Shared { source, lang: Some("c".into()), ..Default::default() }));
    let widget = mount_widget(parent, options, fragment, playground, true);
    on_events(widget.client, move |e| {
        let _ = on_event.call1(&JsValue::NULL, &e);
    });
    WidgetHandle { widget: Some(widget) }
}

#[wasm_bindgen]
impl WidgetHandle {
    /// Sends a command object (`{cmd: "run"}`): a promise of `{status, steps,
    /// pc, vars}` once the session carried it out, rejected with why not.
    pub fn command(&self, cmd: JsValue) -> js_sys::Promise {
        let error = |e: &str| JsValue::from(js_sys::Error::new(e));
        let Some(w) = self.widget.as_ref() else { return js_sys::Promise::reject(&error("the widget was removed")) };
        let cmd = match read_command(cmd) {
            Ok(c) => c,
            Err(e) => return js_sys::Promise::reject(&error(&e)),
        };
        let client = w.client;
        js_sys::Promise::new(&mut |resolve, reject| {
            command(client, cmd.clone(), move |result| {
                let _ = match result {
                    Ok(s) => resolve.call1(&JsValue::NULL, &to_js(&s)),
                    Err(e) => reject.call1(&JsValue::NULL, &error(&e)),
                };
            })
        })
    }

    /// A promise of the `ready` event's object (the views shown and the
    /// state), once the widget's first build is done.
    pub fn ready(&self) -> js_sys::Promise {
        let Some(w) = self.widget.as_ref() else { return js_sys::Promise::resolve(&JsValue::NULL) };
        let (client, panels, opened) = (w.client, w.panels.clone(), w.opened.clone());
        wasm_bindgen_futures::future_to_promise(async move {
            wasm_bindgen_futures::JsFuture::from(opened).await?;
            Ok(ready(client, panels))
        })
    }

    /// Takes the widget off the page.
    pub fn unmount(&mut self) {
        self.widget = None;
    }
}
