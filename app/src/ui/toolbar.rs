//! The actions (compile, run, step, reset) and the configuration picker.

use super::SessionSignal;
use crate::session::Session;
use crate::storage;
use leptos::prelude::*;
use loom_core::config::{Config, PRESETS};

#[component]
pub fn Toolbar(session: SessionSignal) -> impl IntoView {
    let choose = move |ev: leptos::ev::Event| {
        if let Ok(config) = Config::preset(&event_target_value(&ev)) {
            storage::save_config(config.name);
            session.update(|s| s.set_config(config));
        }
    };
    let current = move || session.with(|s| s.config().name);
    let options = PRESETS
        .iter()
        .map(|c| {
            let name = c.name;
            view! { <option value=name prop:selected=move || current() == name>{describe(c)}</option> }
        })
        .collect_view();
    view! {
        <nav class="toolbar">
            <button data-testid="compile" on:click=move |_| session.update(|s| {
                s.compile();
            })>"Compile"</button>
            <button data-testid="run" class="primary" title="Ctrl+Enter / ⌘+Enter" on:click=move |_| {
                session.update(|s| { s.run_to_end(1_000_000); })
            }>"Run"</button>
            <button data-testid="step" title="Execute one instruction" on:click=move |_| {
                session.update(Session::step)
            }>"Step"</button>
            <button data-testid="reset" on:click=move |_| session.update(Session::reset)>"Reset"</button>
            <label class="picker">
                "config "
                <select data-testid="config" on:change=choose>{options}</select>
            </label>
        </nav>
    }
}

/// `default — n 1024 · N 8 · m 64`: the sizes that matter when picking.
fn describe(c: &Config) -> String {
    format!("{} — n {} · N {} · m {}", c.name, c.n, c.word_bits, c.mem_slots)
}
