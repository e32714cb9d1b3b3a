//! The WAT editor: the same CodeMirror bridge as the C editor (its textarea
//! fallback without it), wired to the trace session: an edit loads the text
//! (a WAT load is cheap), a starter puts its text in, a load error is a
//! squiggle here and a line in the diagnostics list below.

use super::TraceClient;
use crate::trace::TraceCommand;
use crate::ui::diagnostics::entry;
use crate::ui::editor::{bridge_loaded, create, get_text, goto_line, on_change, set_dark, set_diagnostics, set_text};
use crate::ui::manual;
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// The mounted editor (`None` until created, and with the textarea).
#[derive(Clone, Copy)]
pub struct WatEditor {
    id: RwSignal<Option<u32>>,
}

impl Default for WatEditor {
    fn default() -> WatEditor {
        WatEditor { id: RwSignal::new(None) }
    }
}

impl WatEditor {
    pub fn goto(&self, line: u32, col: u32, end_col: u32) {
        if let Some(h) = self.id.get_untracked() {
            goto_line(h, line, col, end_col);
        }
    }
}

/// Loads `text` unless it is the program already loaded.
fn edited(client: TraceClient, text: String) {
    if client.build.with_untracked(|b| b.source != text) {
        client.send(TraceCommand::Load { source: text });
    }
}

#[component]
pub fn Editor(client: TraceClient, editor: WatEditor, dark: Signal<bool>) -> impl IntoView {
    let parent = NodeRef::<Div>::new();
    // A starter's text replaces the editor's.
    let source = Memo::new(move |_| client.build.with(|b| (b.builds, b.source.clone())));
    Effect::new(move |_| {
        let (_, text) = source.get();
        if let Some(h) = editor.id.get_untracked() {
            if get_text(h) != text {
                set_text(h, &text);
            }
        }
    });
    if !bridge_loaded() {
        let text = Memo::new(move |_| client.build.with(|b| b.source.clone()));
        return view! {
            <textarea
                data-testid="trace-editor"
                class="editor plain"
                spellcheck="false"
                aria-label="WebAssembly text"
                prop:value=move || text.get()
                on:input=move |ev| edited(client, event_target_value(&ev))
            ></textarea>
        }
        .into_any();
    }
    Effect::new(move |_| {
        let Some(el) = parent.get() else { return };
        if editor.id.get_untracked().is_some() {
            return;
        }
        let text = client.build.with_untracked(|b| b.source.clone());
        let options = serde_json::json!({ "dark": dark.get_untracked() });
        let h = create(&el, &text, &options.to_string());
        // The editor lives as long as the page: so does its callback.
        let changed = Closure::<dyn FnMut(String)>::new(move |text: String| edited(client, text));
        on_change(h, &changed);
        changed.forget();
        editor.id.set(Some(h));
    });
    let diagnostics =
        Memo::new(move |_| client.build.with(|b| serde_json::to_string(&b.diagnostics).unwrap_or_default()));
    Effect::new(move |_| {
        let Some(h) = editor.id.get() else { return };
        set_diagnostics(h, &diagnostics.get());
    });
    Effect::new(move |_| {
        let d = dark.get();
        if let Some(h) = editor.id.get_untracked() {
            set_dark(h, d);
        }
    });
    view! { <div node_ref=parent data-testid="trace-editor" class="editor" aria-label="WebAssembly text"></div> }
        .into_any()
}

/// The load error, located; clicking it jumps there in the editor.
#[component]
pub fn Diagnostics(client: TraceClient, editor: WatEditor) -> impl IntoView {
    let items = move || {
        client.build.with(|b| {
            b.diagnostics
                .iter()
                .map(|d| entry(d, "WebAssembly text", manual::TRACE, move |line, col, end| editor.goto(line, col, end)))
                .collect_view()
        })
    };
    let empty = move || client.build.with(|b| b.diagnostics.is_empty());
    view! {
        <ul data-testid="trace-diagnostics" class="diagnostics" aria-live="polite" class:empty=empty>
            {items}
        </ul>
    }
}
