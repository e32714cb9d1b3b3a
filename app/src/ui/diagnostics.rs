//! Build errors, rendered like the CLI's (file:line:column, the line, a caret).

use super::SessionSignal;
use leptos::prelude::*;

#[component]
pub fn Diagnostics(session: SessionSignal) -> impl IntoView {
    let text = Memo::new(move |_| session.with(|s| s.rendered_diagnostics()));
    view! {
        <pre data-testid="diagnostics" class="diagnostics" aria-live="polite" class:empty=move || {
            text.with(String::is_empty)
        }>{move || text.get()}</pre>
    }
}
