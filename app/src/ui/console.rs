//! The Console: what the program printed (the characters the host collected from
//! the console slot, carried by the session's `View`). The character the step on
//! display printed is highlighted.

use super::Client;
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
    }
}
