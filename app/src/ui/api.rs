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
    /// Sends a command object (`{cmd: "run"}`); answers `{status, steps, pc, vars}` or throws why not.
    pub fn command(&self, cmd: JsValue) -> Result<JsValue, JsValue> {
        let w = self.widget.as_ref().ok_or_else(|| JsValue::from_str("the widget was removed"))?;
        let result = read_command(cmd).and_then(|c| command(w.client, c));
        result.map(|s| to_js(&s)).map_err(|e| JsValue::from(js_sys::Error::new(&e)))
    }

    /// The `ready` event's object (the views shown and the state).
    pub fn ready(&self) -> JsValue {
        self.widget.as_ref().map_or(JsValue::NULL, |w| ready(w.client, w.panels.clone()))
    }

    /// Takes the widget off the page.
    pub fn unmount(&mut self) {
        self.widget = None;
    }
}
