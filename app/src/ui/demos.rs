//! The demo picker and panel: choosing a demo sends a `demo` command (the
//! session loads its source and configuration, builds and writes the
//! example's inputs); the panel draws the `DemoView` the session's views
//! carry, and its buttons send `example`, `key` and `puzzle` commands.

use super::Client;
use crate::demo::{DemoPanel, DemoView, DEMOS};
use crate::session::Command;
use crate::storage;
use leptos::prelude::*;

/// The picker (the full page only) and the demo's panel.
#[component]
pub fn Demos(client: Client) -> impl IntoView {
    let super::Mount { persist, embed, .. } = super::Mount::get();
    let options = DEMOS
        .iter()
        .map(|d| {
            let title = d.meta().map_or_else(|_| d.id.to_owned(), |m| m.title);
            let id = d.id;
            let selected = move || client.build.with(|b| b.demo.as_ref().is_some_and(|x| x.id == id));
            view! { <option value=id prop:selected=selected>{title}</option> }
        })
        .collect_view();
    let load = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        let id = (!id.is_empty()).then_some(id);
        let chosen = id.clone();
        let done = move |r: Result<(), String>| {
            if r.is_ok() && persist {
                storage::save_demo(chosen.as_deref());
                if chosen.is_some() {
                    client.build.with_untracked(|b| {
                        storage::save_draft(&b.source);
                        storage::save_config(&b.config);
                    });
                }
            }
        };
        client.request(vec![Command::Demo { id }], Some(Box::new(done)));
    };
    let picture = Signal::derive(move || -> Option<DemoView> { client.view.with(|v| v.demo.clone()) });
    let examples =
        Signal::derive(move || client.build.with(|b| b.demo.as_ref().map(|d| d.examples.clone())).unwrap_or_default());
    let on_example = Callback::new(move |index: usize| {
        client.send(Command::Example { index });
    });
    let on_key = Callback::new(move |key: String| {
        client.send(Command::Key { key });
    });
    let on_puzzle = Callback::new(move |text: String| {
        client.send(Command::Puzzle { text });
    });
    view! {
        <label class="picker" hidden=embed>
            "demo "
            <select data-testid="demo" on:change=load>
                <option value="">"— your program —"</option>
                {options}
            </select>
        </label>
        <div class="demo-slot" hidden=move || client.build.with(|b| b.demo.is_none())>
            <DemoPanel view=picture runner_examples=examples on_example on_key on_puzzle />
        </div>
    }
}
