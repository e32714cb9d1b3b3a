//! The program text. Every edit goes to the session and to the saved draft;
//! Ctrl/Cmd+Enter builds and runs.

use super::SessionSignal;
use crate::storage;
use leptos::prelude::*;

#[component]
pub fn Editor(session: SessionSignal) -> impl IntoView {
    // A memo, so steps and runs (which change the session, not the text) do not rewrite the textarea.
    let text = Memo::new(move |_| session.with(|s| s.source().to_owned()));
    let input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        storage::save_draft(&value);
        session.update(|s| s.set_source(value));
    };
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            session.update(|s| {
                s.compile();
            });
        }
    };
    view! {
        <textarea
            data-testid="editor"
            class="editor"
            spellcheck="false"
            autocomplete="off"
            aria-label="Assembly source"
            prop:value=move || text.get()
            on:input=input
            on:keydown=keydown
        ></textarea>
    }
}
