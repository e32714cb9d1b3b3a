//! The build's diagnostics as a list; clicking one jumps to it in the editor.

use super::editor::EditorHandle;
use super::SessionSignal;
use leptos::prelude::*;

#[component]
pub fn Diagnostics(session: SessionSignal, handle: EditorHandle) -> impl IntoView {
    let items = move || {
        session.with(|s| {
            let file = s.lang().name();
            s.diagnostics()
                .iter()
                .map(|d| {
                    let (line, col, end) = (d.span.line, d.span.col, d.span.end_col);
                    let sev = format!("{:?}", d.severity).to_lowercase();
                    let mut text = format!("{line}:{col} {sev}: {}", d.message);
                    if let Some(h) = &d.hint {
                        text.push_str(&format!(" (hint: {h})"));
                    }
                    view! {
                        <li class=sev.clone()>
                            <button
                                class="link"
                                title=format!("Go to line {line} of the {file} source")
                                on:click=move |_| handle.goto(line, col, end)
                            >
                                {text}
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let empty = move || session.with(|s| s.diagnostics().is_empty());
    view! {
        <ul data-testid="diagnostics" class="diagnostics" aria-live="polite" class:empty=empty>
            {items}
        </ul>
    }
}
