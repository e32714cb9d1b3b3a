//! The trace page: the second machine (WebAssembly executed by attention
//! over its trace) in the playground. The WAT editor with the starter
//! programs, Run / Step / Back / Reset and the scrubber, the trace table, the
//! key-space plot of a read, and the state the trace reconstructs beside
//! its raw write records, with the heads' counters. It talks to the machine
//! only through its [`TraceClient`] (the trace session's protocol).

mod client;
mod editor;
mod panels;
mod plot;

use crate::trace::TraceCommand;
pub use client::TraceClient;
use leptos::prelude::*;
use loom_core::frontend::trace::programs::PROGRAMS;
use loom_core::frontend::trace::HeadMode;

#[component]
pub fn TracePage(client: TraceClient, dark: Signal<bool>) -> impl IntoView {
    let wat = editor::WatEditor::default();
    let example = move || client.build.with(|b| b.example.clone());
    let examples = PROGRAMS
        .iter()
        .map(|p| view! { <option value=p.name prop:selected=move || example().as_deref() == Some(p.name)>{p.name}</option> })
        .collect_view();
    let heads = HeadMode::ALL
        .into_iter()
        .map(|m| {
            let name = m.name();
            view! { <option value=name prop:selected=move || client.build.with(|b| b.heads == name)>{name}</option> }
        })
        .collect_view();
    view! {
        <main class="panes trace-panes">
            <section class="pane source" aria-label="WebAssembly program">
                <div class="toolbar">
                    <label class="picker">
                        "example "
                        <select
                            data-testid="trace-example"
                            on:change=move |ev| client.send(TraceCommand::Example { name: event_target_value(&ev) })
                        >
                            <option value="" disabled=true prop:selected=move || example().is_none()>"(typed)"</option>
                            {examples}
                        </select>
                    </label>
                    <label class="picker" title="Which attention heads answer the reads: brute force (every key), the hull (O(log t)), or both, compared on every read">
                        "heads "
                        <select
                            data-testid="trace-heads"
                            on:change=move |ev| client.send(TraceCommand::Heads { mode: event_target_value(&ev) })
                        >
                            {heads}
                        </select>
                    </label>
                </div>
                <editor::Editor client editor=wat dark />
                <editor::Diagnostics client editor=wat />
                <panels::Counters client />
            </section>
            <section class="pane trace-run" aria-label="Trace">
                <panels::Controls client />
                <panels::Table client />
                <plot::Plot client />
            </section>
            <section class="pane machine" aria-label="Reconstructed state">
                <panels::State client />
                <panels::Writes client />
            </section>
        </main>
    }
}
