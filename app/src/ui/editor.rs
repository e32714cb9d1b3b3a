//! The program text: CodeMirror through `www/editor/loom-editor.js` (or its
//! textarea fallback, same API). Every edit goes to the session (an `edit`
//! command: live diagnostics, no rebuild) and the saved draft; diagnostics,
//! the executing line and breakpoints flow both ways.

use super::{Actions, Client};
use crate::session::Command;
use crate::storage;
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = LoomEditor)]
    pub(super) fn create(parent: &web_sys::Element, initial_text: &str, options: &str) -> u32;
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = getText)]
    pub(super) fn get_text(h: u32) -> String;
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setText)]
    pub(super) fn set_text(h: u32, text: &str);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = onChange)]
    pub(super) fn on_change(h: u32, callback: &Closure<dyn FnMut(String)>);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setDiagnostics)]
    pub(super) fn set_diagnostics(h: u32, diagnostics_json: &str);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setCurrentLine)]
    fn set_current_line(h: u32, line: u32);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setFrameLine)]
    fn set_frame_line(h: u32, line: u32);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = getCursorLine)]
    fn get_cursor_line(h: u32) -> u32;
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = onBreakpointsChange)]
    fn on_breakpoints_change(h: u32, callback: &Closure<dyn FnMut(Vec<u32>)>);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = gotoLine)]
    pub(super) fn goto_line(h: u32, line: u32, col: u32, end_col: u32);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setDark)]
    pub(super) fn set_dark(h: u32, dark: bool);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = setBreakpoints)]
    fn set_breakpoints(h: u32, lines: &[u32]);
    #[wasm_bindgen(js_namespace = LoomEditor, js_name = onKeyCommand)]
    fn on_key_command(h: u32, callback: &Closure<dyn FnMut(String)>);
}

/// The mounted editor's handle, for the diagnostics list (jump to line) and the theme.
#[derive(Clone, Copy)]
pub struct EditorHandle {
    id: RwSignal<Option<u32>>,
    /// The text the session last heard of (so an unchanged text is not sent again).
    sent: StoredValue<String>,
    /// Whether edits are saved as the playground's draft (the full page only).
    persist: bool,
}

impl EditorHandle {
    pub fn new(persist: bool) -> EditorHandle {
        EditorHandle { id: RwSignal::new(None), sent: StoredValue::new(String::new()), persist }
    }

    pub fn goto(&self, line: u32, col: u32, end_col: u32) {
        if let Some(h) = self.id.get_untracked() {
            goto_line(h, line, col, end_col);
        }
    }

    fn set_dark(&self, dark: bool) {
        if let Some(h) = self.id.get_untracked() {
            set_dark(h, dark);
        }
    }

    /// The line the caret is on (run to cursor); `None` before the editor is up.
    pub fn cursor_line(&self) -> Option<u32> {
        self.id.get_untracked().map(get_cursor_line).filter(|&l| l > 0)
    }

    /// The text now (its change callback is debounced, so a build reads it directly).
    pub fn text(&self) -> Option<String> {
        self.id.get_untracked().map(get_text)
    }

    /// Replaces the text (a demo or a shared link loaded a program).
    fn set_text(&self, text: &str) {
        self.sent.set_value(text.to_owned());
        if let Some(h) = self.id.get_untracked() {
            if get_text(h) != text {
                set_text(h, text);
            }
        }
    }

    /// The user changed the text: keep the draft and tell the session.
    pub fn edited(&self, client: Client, text: String) {
        if self.sent.with_value(|s| *s == text) {
            return;
        }
        if self.persist {
            storage::save_draft(&text);
        }
        self.sent.set_value(text.clone());
        client.send(Command::Edit { source: text });
    }
}

/// Whether either editor script loaded (`window.LoomEditor`).
pub(super) fn bridge_loaded() -> bool {
    js_sys::Reflect::has(&js_sys::global(), &"LoomEditor".into()).unwrap_or(false)
}

#[component]
pub fn Editor(client: Client, actions: Actions, handle: EditorHandle, dark: Signal<bool>) -> impl IntoView {
    let parent = NodeRef::<Div>::new();
    // A build of another text (a demo, a shared link) puts that text in the editor.
    let built = Memo::new(move |_| client.build.with(|b| (b.builds, b.source.clone())));
    Effect::new(move |_| {
        let (_, source) = built.get();
        if !source.is_empty() && handle.sent.with_value(|s| *s != source) {
            handle.set_text(&source);
        }
    });
    let readonly = super::Mount::get().readonly;
    // The session's first build carries the text the page opened (the draft,
    // a link's program, a demo). Until it is in, typing would be overwritten
    // by it (the worker answers later than the page mounts): the editor opens
    // with that text, not before.
    let opened = Memo::new(move |_| client.build.with(|b| b.builds > 0));
    if !bridge_loaded() {
        return plain_textarea(client, handle, readonly, opened).into_any();
    }
    Effect::new(move |_| {
        let Some(el) = parent.get() else { return };
        if handle.id.get_untracked().is_some() || !opened.get() {
            return;
        }
        let text = client.build.with_untracked(|b| b.source.clone());
        handle.sent.set_value(text.clone());
        let options = serde_json::json!({ "dark": dark.get_untracked(), "readOnly": readonly });
        let h = create(&el, &text, &options.to_string());
        // The text box itself (CodeMirror's content, or the fallback's textarea)
        // carries the name a screen reader announces, not only its wrapper.
        if let Some(field) = el.query_selector(".cm-content, textarea").ok().flatten() {
            let _ = field.set_attribute("aria-label", "Program source");
        }
        // The editor lives as long as the page: its callbacks do too.
        let changed = Closure::<dyn FnMut(String)>::new(move |text: String| handle.edited(client, text));
        on_change(h, &changed);
        changed.forget();
        let breaks = Closure::<dyn FnMut(Vec<u32>)>::new(move |lines: Vec<u32>| {
            client.send(Command::Breakpoints { lines });
        });
        on_breakpoints_change(h, &breaks);
        breaks.forget();
        let key = Closure::<dyn FnMut(String)>::new(move |name: String| {
            let action = match name.as_str() {
                "compile" => actions.compile,
                "step-over" => actions.step_over,
                "step-out" => actions.step_out,
                "run-to-cursor" => actions.run_to_cursor,
                _ => return,
            };
            action.run(());
        });
        on_key_command(h, &key);
        key.forget();
        handle.id.set(Some(h));
    });
    // Squiggles for what the source has now (they follow typing). Through a
    // memo: a running machine updates the view every frame, and an editor
    // transaction per frame for unchanged diagnostics costs more than the steps.
    let diagnostics =
        Memo::new(move |_| client.build.with(|b| serde_json::to_string(&b.diagnostics).unwrap_or_default()));
    Effect::new(move |_| {
        let Some(h) = handle.id.get() else { return };
        set_diagnostics(h, &diagnostics.get());
    });
    // Breakpoints the session holds (a link's) show in the gutter.
    let breakpoints = Memo::new(move |_| client.build.with(|b| b.breakpoints.clone()));
    Effect::new(move |_| {
        let Some(h) = handle.id.get() else { return };
        set_breakpoints(h, &breakpoints.get());
    });
    // The executing line while stepping (cleared when nothing has run).
    let line = Memo::new(move |_| {
        let racing = client.racing();
        client.view.with(|v| if !racing && (v.steps > 0 || v.layer.is_some()) { v.line } else { None })
    });
    Effect::new(move |_| {
        let Some(h) = handle.id.get() else { return };
        set_current_line(h, line.get().unwrap_or(0));
    });
    // The line of the frame chosen in the call stack, when it is a caller's.
    let frame_line = Memo::new(move |_| {
        let k = client.frame.get();
        client.view.with(|v| v.frames.get(k).filter(|_| k > 0).and_then(|f| f.line))
    });
    Effect::new(move |_| {
        let Some(h) = handle.id.get() else { return };
        set_frame_line(h, frame_line.get().unwrap_or(0));
    });
    Effect::new(move |_| {
        let d = dark.get();
        handle.set_dark(d);
    });
    view! {
        <div node_ref=parent data-testid="editor" class="editor" aria-label="Program source" data-readonly=readonly.then_some("")></div>
    }
    .into_any()
}

/// When no editor script loaded at all: a bare textarea with the same wiring.
fn plain_textarea(client: Client, handle: EditorHandle, readonly: bool, opened: Memo<bool>) -> impl IntoView {
    let text = Memo::new(move |_| client.build.with(|b| b.source.clone()));
    view! {
        <textarea
            data-testid="editor"
            class="editor plain"
            spellcheck="false"
            aria-label="Program source"
            readonly=move || readonly || !opened.get()
            prop:value=move || text.get()
            on:input=move |ev| handle.edited(client, event_target_value(&ev))
        ></textarea>
    }
}
