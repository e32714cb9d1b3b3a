//! The program text: CodeMirror through `www/editor/loom-editor.js` (or its
//! textarea fallback, same API). Every edit goes to the session and the saved
//! draft; diagnostics, the executing line and breakpoints flow both ways.

use super::{Actions, SessionSignal};
use crate::storage;
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = LoomEditor)]
    fn create(parent: &web_sys::Element, initial_text: &str, options: &str) -> u32;
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = getText)]
    fn get_text(h: u32) -> String;
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setText)]
    fn set_text(h: u32, text: &str);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = onChange)]
    fn on_change(h: u32, callback: &Closure<dyn FnMut(String)>);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setDiagnostics)]
    fn set_diagnostics(h: u32, diagnostics_json: &str);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setCurrentLine)]
    fn set_current_line(h: u32, line: u32);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = onBreakpointsChange)]
    fn on_breakpoints_change(h: u32, callback: &Closure<dyn FnMut(Vec<u32>)>);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = gotoLine)]
    fn goto_line(h: u32, line: u32, col: u32, end_col: u32);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setDark)]
    fn set_dark(h: u32, dark: bool);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = onKeyCommand)]
    fn on_key_command(h: u32, callback: &Closure<dyn FnMut(String)>);
}

/// The mounted editor's handle, for the diagnostics list (jump to line) and the theme.
#[derive(Clone, Copy)]
pub struct EditorHandle(RwSignal<Option<u32>>);

impl EditorHandle {
    pub fn new() -> EditorHandle {
        EditorHandle(RwSignal::new(None))
    }

    pub fn goto(&self, line: u32, col: u32, end_col: u32) {
        if let Some(h) = self.0.get_untracked() {
            goto_line(h, line, col, end_col);
        }
    }

    pub fn set_dark(&self, dark: bool) {
        if let Some(h) = self.0.get_untracked() {
            set_dark(h, dark);
        }
    }

    /// The text now (its change callback is debounced, so a build reads it directly).
    pub fn text(&self) -> Option<String> {
        self.0.get_untracked().map(get_text)
    }

    /// Replaces the text (a demo or shared link loaded); the session already has it.
    pub fn set_text(&self, text: &str) {
        if let Some(h) = self.0.get_untracked() {
            set_text(h, text);
        }
    }
}

/// Whether either editor script loaded (`window.LoomEditor`).
fn bridge_loaded() -> bool {
    js_sys::Reflect::has(&js_sys::global(), &"LoomEditor".into()).unwrap_or(false)
}

#[component]
pub fn Editor(session: SessionSignal, actions: Actions, handle: EditorHandle, dark: Signal<bool>) -> impl IntoView {
    let parent = NodeRef::<Div>::new();
    if !bridge_loaded() {
        return plain_textarea(session).into_any();
    }
    Effect::new(move |_| {
        let Some(el) = parent.get() else { return };
        if handle.0.get_untracked().is_some() {
            return;
        }
        let text = session.with_untracked(|s| s.source().to_owned());
        let h = create(&el, &text, &format!(r#"{{"dark": {}, "readOnly": false}}"#, dark.get_untracked()));
        // The editor lives as long as the page: its callbacks do too.
        let changed = Closure::<dyn FnMut(String)>::new(move |text: String| {
            storage::save_draft(&text);
            session.update(|s| s.set_source(text));
        });
        on_change(h, &changed);
        changed.forget();
        let breaks = Closure::<dyn FnMut(Vec<u32>)>::new(move |lines: Vec<u32>| {
            session.update(|s| s.set_breakpoints(lines));
        });
        on_breakpoints_change(h, &breaks);
        breaks.forget();
        let key = Closure::<dyn FnMut(String)>::new(move |name: String| {
            if name == "compile" {
                actions.compile.run(());
            }
        });
        on_key_command(h, &key);
        key.forget();
        handle.0.set(Some(h));
    });
    // Squiggles for what the last build found. Both go through memos: a
    // running machine updates the session every frame, and an editor
    // transaction per frame for an unchanged line costs more than the steps.
    let builds = super::builds(session);
    Effect::new(move |_| {
        let Some(h) = handle.0.get() else { return };
        let _ = builds.get();
        let json = session.with_untracked(|s| serde_json::to_string(s.diagnostics()).unwrap_or_default());
        set_diagnostics(h, &json);
    });
    // The executing line while stepping (cleared when nothing is loaded).
    let line = Memo::new(move |_| session.with(|s| if s.steps() > 0 { s.pc_line() } else { None }));
    Effect::new(move |_| {
        let Some(h) = handle.0.get() else { return };
        set_current_line(h, line.get().unwrap_or(0));
    });
    Effect::new(move |_| {
        let d = dark.get();
        handle.set_dark(d);
    });
    view! { <div node_ref=parent data-testid="editor" class="editor" aria-label="Program source"></div> }.into_any()
}

/// When no editor script loaded at all: a bare textarea with the same wiring.
fn plain_textarea(session: SessionSignal) -> impl IntoView {
    let text = Memo::new(move |_| session.with(|s| s.source().to_owned()));
    let input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        storage::save_draft(&value);
        session.update(|s| s.set_source(value));
    };
    view! {
        <textarea
            data-testid="editor"
            class="editor plain"
            spellcheck="false"
            aria-label="Program source"
            prop:value=move || text.get()
            on:input=input
        ></textarea>
    }
}
