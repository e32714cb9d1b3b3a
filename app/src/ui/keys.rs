//! Keyboard shortcuts (never while typing in the editor or a form field), the
//! `?` sheet that lists them, and the light/dark theme.

use super::manual::{self, ManualLink};
use super::{Actions, Client};
use crate::options::ThemeChoice;
use crate::session::Command;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Key, what it does: the sheet's rows and the handler's map in one place.
pub const SHORTCUTS: [(&str, &str); 11] = [
    ("Space", "run / pause"),
    ("→", "step one instruction"),
    ("Alt + →", "step one layer (L1…L8)"),
    ("Shift + →", "step one source line"),
    ("F10", "step over: to the next line, a call run whole"),
    ("Shift + F11", "step out: until this function returns"),
    ("Ctrl + F10", "run to the editor's cursor line"),
    ("←", "step back (a step over, out or run to cursor as one move)"),
    ("Esc", "reset"),
    ("Ctrl/⌘ + Enter", "compile (in the editor)"),
    ("?", "this sheet"),
];

/// Whether a key event belongs to a control: a field the user types in, or a
/// focused button, link or picker, which gets its own keys (Space presses a
/// focused button). The page's shortcuts apply only when focus is on no control.
fn for_a_control(e: &web_sys::KeyboardEvent) -> bool {
    const CONTROLS: &str = "[data-testid=editor], input, textarea, select, button, a[href], summary, \
                            [contenteditable], [role=button], [role=dialog], [tabindex]:not([tabindex='-1'])";
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest(CONTROLS).ok().flatten())
        .is_some()
}

/// Whether the running demo reads this key (its keys are in the build, so the
/// press is routed at once without asking the session).
fn demo_key(client: Client, key: &str) -> bool {
    let key = if key.chars().count() == 1 { key.to_lowercase() } else { key.to_owned() };
    client.view.with_untracked(|v| v.running)
        && client.build.with_untracked(|b| b.demo.as_ref().is_some_and(|d| d.keys.contains(&key)))
}

/// Listens for the shortcuts: on the whole window (the page, an iframe's
/// widget), or only inside `scope` (a custom element: each widget on a page
/// hears the keys pressed while focus is within it, and only those).
pub fn install(actions: Actions, help: RwSignal<bool>, client: Client, scope: Option<web_sys::Element>) {
    let on_key = move |e: web_sys::KeyboardEvent| {
        // Ctrl+F10 (run to cursor) is the one shortcut with Ctrl; the editor hears it too.
        if (e.ctrl_key() || e.meta_key()) && e.key() != "F10" {
            return;
        }
        // While a demo runs, its keys (arrows for Snake) are the game's, wherever focus is.
        if demo_key(client, &e.key()) && !typing(&e) {
            e.prevent_default();
            client.send(Command::Key { key: e.key() });
            return;
        }
        if e.key() == "Escape" && help.get_untracked() {
            help.set(false);
            return;
        }
        if for_a_control(&e) {
            return;
        }
        let action = match (e.key().as_str(), e.alt_key(), e.shift_key()) {
            (" ", ..) => actions.toggle_run,
            ("ArrowRight", true, _) => actions.step_layer,
            ("ArrowRight", _, true) => actions.step_line,
            ("ArrowRight", ..) => actions.step,
            ("ArrowLeft", ..) => actions.step_back,
            ("F10", false, false) if e.ctrl_key() || e.meta_key() => actions.run_to_cursor,
            ("F10", false, false) => actions.step_over,
            ("F11", false, true) => actions.step_out,
            ("Escape", ..) => actions.reset,
            ("?", ..) => Callback::new(move |()| help.update(|h| *h = !*h)),
            _ => return,
        };
        e.prevent_default();
        action.run(());
    };
    match scope {
        None => {
            let handle = window_event_listener(ev::keydown, on_key);
            on_cleanup(move || handle.remove());
        }
        Some(el) => {
            let f = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(on_key);
            let _ = el.add_event_listener_with_callback("keydown", f.as_ref().unchecked_ref());
            let f = send_wrapper::SendWrapper::new((el, f));
            on_cleanup(move || {
                let (el, f) = &*f;
                let _ = el.remove_event_listener_with_callback("keydown", f.as_ref().unchecked_ref());
            });
        }
    }
}

/// Whether a key event comes from somewhere the user types.
fn typing(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("[data-testid=editor], input, textarea, [contenteditable]").ok().flatten())
        .is_some()
}

#[component]
pub fn HelpSheet(open: RwSignal<bool>) -> impl IntoView {
    let rows = SHORTCUTS
        .iter()
        .map(|(k, what)| {
            view! {
                <tr>
                    <td>
                        <kbd>{*k}</kbd>
                    </td>
                    <td>{*what}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="sheet" role="dialog" aria-label="Keyboard shortcuts" hidden=move || !open.get()>
            <h2>"Keyboard shortcuts"</h2>
            <table>{rows}</table>
            <p class="hint">"Shortcuts work while no control has focus: a focused button takes Space and Enter itself, and the editor keeps its keys (press Esc, then Tab, to move out of it). Esc closes this sheet."</p>
            <nav class="manual-links" data-testid="help-manual" aria-label="The manual">
                "The manual: "
                <ManualLink page=manual::HOME title="The manual's first page">"contents"</ManualLink>
                " · "
                <ManualLink page=manual::PLAYGROUND title="The page, its views and its shortcuts">"the playground"</ManualLink>
                " · "
                <ManualLink page=manual::DEBUGGER title="Stepping, breakpoints and Explain">"the debugger"</ManualLink>
                " · "
                <ManualLink page=manual::MACHINE title="The tensor and what each of the eight layers does">"the eight layers"</ManualLink>
            </nav>
            <button on:click=move |_| open.set(false)>"Close"</button>
        </div>
    }
}

/// System, dark or light; an instance follows the system until toggled (or
/// told otherwise by `theme=`). Each instance's root carries its own
/// `data-theme`; the full page also sets it on `<html>` (the page's background).
#[derive(Clone, Copy)]
pub struct Theme(RwSignal<u8>);

impl Theme {
    const LABELS: [&'static str; 3] = ["◐ system", "☾ dark", "☀ light"];
    /// The choices by name, as saved across reloads (in the order of [`Theme::LABELS`]).
    const CHOICES: [&'static str; 3] = ["system", "dark", "light"];

    pub fn new(choice: Option<ThemeChoice>) -> Theme {
        Theme(RwSignal::new(match choice {
            None => 0,
            Some(ThemeChoice::Dark) => 1,
            Some(ThemeChoice::Light) => 2,
        }))
    }

    /// The choice saved by [`Theme::choice`]; anything else is the system's.
    pub fn restore(saved: Option<&str>) -> Theme {
        Theme(RwSignal::new(Self::CHOICES.iter().position(|c| Some(*c) == saved).unwrap_or(0) as u8))
    }

    /// What was chosen (not what it shows): `"system"`, `"dark"` or `"light"`.
    pub fn choice(&self) -> &'static str {
        Self::CHOICES[self.0.get_untracked() as usize]
    }

    /// Keeps `<html data-theme>` in step (the page's own background and scrollbars).
    pub fn on_document(&self) {
        let t = *self;
        Effect::new(move |_| {
            if let Some(root) = document().document_element() {
                let _ = root.set_attribute("data-theme", t.name());
            }
        });
    }

    /// `"dark"` or `"light"`: the effective theme.
    pub fn name(&self) -> &'static str {
        if self.dark().get() {
            "dark"
        } else {
            "light"
        }
    }

    pub fn cycle(&self) {
        self.0.update(|t| *t = (*t + 1) % 3);
    }

    pub fn label(&self) -> &'static str {
        Self::LABELS[self.0.get() as usize]
    }

    pub fn dark(&self) -> Signal<bool> {
        let t = self.0;
        Signal::derive(move || match t.get() {
            1 => true,
            2 => false,
            _ => window().match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches()),
        })
    }
}
