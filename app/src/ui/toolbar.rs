//! The controls: compile, run/pause, the four kinds of step, the debugger's moves
//! (over, out, to the cursor), reset, speed,
//! engine and configuration.

use super::{Actions, Client};
use crate::session::{Command, EngineKind, SPEEDS};
use crate::storage;
use leptos::prelude::*;
use loom_core::frontend::{Config, PRESETS};

#[component]
pub fn Toolbar(client: Client, actions: Actions) -> impl IntoView {
    let choose_config = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        actions.sync.run(());
        let save = name.clone();
        let done = move |r: Result<(), String>| {
            if r.is_ok() {
                storage::save_config(&save);
            }
        };
        client.request(vec![Command::Config { name }], Some(Box::new(done)));
    };
    let choose_engine = move |ev: leptos::ev::Event| {
        if let Ok(name) = EngineKind::by_name(&event_target_value(&ev)) {
            actions.sync.run(());
            client.send(Command::Engine { name });
        }
    };
    let speed = RwSignal::new(client.speed());
    let choose_speed = move |ev: leptos::ev::Event| {
        let steps_per_second = event_target_value(&ev).parse().unwrap_or(0);
        speed.set(steps_per_second);
        client.send(Command::Speed { steps_per_second });
    };
    let config = move || client.build.with(|b| Config::preset(&b.config).ok()).unwrap_or_else(|| PRESETS[0]);
    let engine = move || client.build.with(|b| b.engine);
    let running = move || client.view.with(|v| v.running);
    let configs = PRESETS
        .iter()
        .map(|c| {
            let name = c.name;
            view! { <option value=name prop:selected=move || config().name == name>{describe(c)}</option> }
        })
        .collect_view();
    let engines = EngineKind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <option
                    value=k.name()
                    disabled=move || !k.offered(config().n)
                    prop:selected=move || engine() == Some(k)
                >
                    {k.label()}
                </option>
            }
        })
        .collect_view();
    let speeds = SPEEDS
        .iter()
        .map(|&v| {
            let label = if v == 0 { "max".to_owned() } else { format!("{v}/s") };
            view! { <option value=v.to_string() prop:selected=move || speed.get() == v>{label}</option> }
        })
        .collect_view();
    let no_layers = move || !engine().is_some_and(EngineKind::is_transformer);
    let button = |id: &'static str, label: &'static str, title: &'static str, action: Callback<()>| {
        view! {
            <button data-testid=id title=title aria-label=title on:click=move |_| action.run(())>
                {label}
            </button>
        }
    };
    view! {
        <nav class="toolbar" aria-label="Controls">
            <button data-testid="compile" title="Compile (Ctrl/⌘+Enter)" on:click=move |_| actions.compile.run(())>
                "Compile"
            </button>
            <button
                data-testid="run"
                class="primary"
                title="Run / pause (Space)"
                aria-pressed=move || running().to_string()
                on:click=move |_| actions.toggle_run.run(())
            >
                {move || if running() { "❚❚ Pause" } else { "▶ Run" }}
            </button>
            {button("step", "Step", "Step one instruction (→)", actions.step)}
            <button
                data-testid="step-layer"
                title="Step one layer (Alt+→)"
                aria-label="Step one layer"
                disabled=no_layers
                on:click=move |_| actions.step_layer.run(())
            >
                "Layer"
            </button>
            {button("step-line", "Line", "Step one source line (Shift+→)", actions.step_line)}
            {button("step-over", "Over", "Step over: to the next line of this function, calls run whole (F10)", actions.step_over)}
            {button("step-out", "Out", "Step out: until this function returns to its caller (Shift+F11)", actions.step_out)}
            {button("run-to-cursor", "To cursor", "Run to the editor's cursor line (Ctrl+F10)", actions.run_to_cursor)}
            {button("step-back", "Back", "Step back (←)", actions.step_back)}
            {button("reset", "Reset", "Reset (Esc)", actions.reset)}
            <label class="picker">
                "speed "
                <select data-testid="speed" on:change=choose_speed>{speeds}</select>
            </label>
            <label class="picker">
                "engine "
                <select data-testid="engine" on:change=choose_engine>{engines}</select>
            </label>
            <label class="picker">
                "config "
                <select data-testid="config" on:change=choose_config>{configs}</select>
            </label>
        </nav>
    }
}

/// `default — 155 × 1024 · N 8 · m 64`: the sizes that matter when picking.
fn describe(c: &Config) -> String {
    format!("{} — {} × {} · N {} · m {}", c.name, c.d(), c.n, c.word_bits, c.mem_slots)
}
