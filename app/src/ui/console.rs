//! The Console: what the program printed (the characters the host collected from
//! the console slot, carried by the session's `View`). The character the step on
//! display printed is highlighted. Beside it the Input box: the text the program reads
//! (`getchar`, `scanf`), handed to the machine a byte at a time; what it has read is counted.

use super::Client;
use crate::session::protocol::Command;
use leptos::prelude::*;

#[component]
pub fn Console(client: Client) -> impl IntoView {
    let shown = Memo::new(move |_| client.view.with(|v| (v.output.clone(), v.printed)));
    let text = move || {
        let (out, printed) = shown.get();
        let last = out.chars().next_back().filter(|_| printed);
        let head = last.map_or(out.as_str(), |c| &out[..out.len() - c.len_utf8()]).to_owned();
        view! {
            {head}
            {last.map(|c| view! { <mark class="printed" data-testid="console-printed">{c.to_string()}</mark> })}
        }
    };
    view! {
        <h2>"Console"</h2>
        <pre class="console mono" data-testid="console" aria-live="polite" aria-label="What the program printed">
            {text}
        </pre>
        <InputBox client />
    }
}

/// The program's input: edited here, sent to the session on every change.
#[component]
fn InputBox(client: Client) -> impl IntoView {
    let read = Memo::new(move |_| client.view.with(|v| v.input_read));
    let status = move || {
        let total = client.input.with(String::len);
        format!("read {} of {total} bytes", read.get().min(total))
    };
    view! {
        <label class="input-box">
            <span>"Input"</span>
            <textarea
                class="mono"
                data-testid="input"
                rows="3"
                spellcheck="false"
                placeholder="what getchar() and scanf() read"
                prop:value=move || client.input.get()
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    client.input.set(text.clone());
                    client.send(Command::Stdin { text });
                }
            ></textarea>
            <small data-testid="input-read">{status}</small>
        </label>
    }
}
