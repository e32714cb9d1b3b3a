//! The source's diagnostics as a list; clicking one jumps to it in the editor.

use super::editor::EditorHandle;
use super::manual::{self, ManualLink};
use super::Client;
use leptos::prelude::*;
use loom_core::frontend::Diagnostic;

#[component]
pub fn Diagnostics(client: Client, handle: EditorHandle) -> impl IntoView {
    let items = move || {
        client.build.with(|b| {
            let file = b.lang.map_or("", |l| l.label());
            b.diagnostics
                .iter()
                .map(|d| entry(d, file, manual::ERRORS, move |line, col, end| handle.goto(line, col, end)))
                .collect_view()
        })
    };
    let empty = move || client.build.with(|b| b.diagnostics.is_empty());
    view! {
        <ul data-testid="diagnostics" class="diagnostics" aria-live="polite" class:empty=empty>
            {items}
        </ul>
    }
}

/// One located diagnostic as a list entry whose button calls `goto` with its
/// span, and a "learn more" link to the manual's page `learn` on what such
/// errors mean: the one way every editor's list (C, assembly, WebAssembly text) says it.
pub fn entry(d: &Diagnostic, file: &str, learn: &str, goto: impl Fn(u32, u32, u32) + 'static) -> impl IntoView {
    let (line, col, end) = (d.span.line, d.span.col, d.span.end_col);
    let sev = format!("{:?}", d.severity).to_lowercase();
    let mut text = format!("{line}:{col} {sev}: {}", d.message);
    if let Some(h) = &d.hint {
        text.push_str(&format!(" (hint: {h})"));
    }
    view! {
        <li class=sev.clone()>
            <button class="link" title=format!("Go to line {line} of the {file} source") on:click=move |_| goto(line, col, end)>
                {text}
            </button>
            " "
            <ManualLink page=learn title="What this kind of error means, in the manual">"learn more"</ManualLink>
        </li>
    }
}
