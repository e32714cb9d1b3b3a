//! The controls: compile, run/pause, the four kinds of step, reset, speed,
//! engine and configuration.

use super::runner::SPEEDS;
use super::{Actions, Runner, SessionSignal};
use crate::session::EngineKind;
use crate::storage;
use leptos::prelude::*;
use loom_core::config::{Config, PRESETS};

#[component]
pub fn Toolbar(session: SessionSignal, actions: Actions, runner: Runner) -> impl IntoView {
    let choose_config = move |ev: leptos::ev::Event| {
        if let Ok(config) = Config::preset(&event_target_value(&ev)) {
            runner.pause();
            actions.sync.run(());
            storage::save_config(config.name);
            session.update(|s| s.set_config(config));
        }
    };
    let choose_engine = move |ev: leptos::ev::Event| {
        if let Some(kind) = EngineKind::by_name(&event_target_value(&ev)) {
            runner.pause();
            actions.sync.run(());
            session.update(|s| {
                s.set_engine(kind);
            });
        }
    };
    let config = move || session.with(|s| s.config());
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
                    prop:selected=move || session.with(|s| s.engine()) == k
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
            view! { <option value=v.to_string() prop:selected=move || runner.speed.get() == v>{label}</option> }
        })
        .collect_view();
    let no_layers = move || session.with(|s| !s.engine().is_transformer());
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
                aria-pressed=move || runner.running().to_string()
                on:click=move |_| actions.toggle_run.run(())
            >
                {move || if runner.running() { "❚❚ Pause" } else { "▶ Run" }}
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
            {button("step-back", "Back", "Step back (←)", actions.step_back)}
            {button("reset", "Reset", "Reset (Esc)", actions.reset)}
            <label class="picker">
                "speed "
                <select data-testid="speed" on:change=move |ev| {
                    runner.speed.set(event_target_value(&ev).parse().unwrap_or(0))
                }>{speeds}</select>
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
