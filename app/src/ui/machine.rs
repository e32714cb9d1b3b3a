//! The machine: status bar (run state, steps, speed, PC, layer, agreement),
//! the narrated change, the instruction, variables, decoded registers and the listing.

use super::{Client, Thread};
use crate::session::protocol::Status;
use crate::session::{shown, value_text};
use leptos::prelude::*;
use loom_core::frontend::report::grouped;
use loom_core::frontend::Config;
use wasm_bindgen::JsCast;

#[component]
pub fn StatusBar(client: Client) -> impl IntoView {
    let view = client.view;
    let status = move || {
        view.with(|v| {
            let mut text = v.text.clone();
            if v.edited && !matches!(v.status, Status::Edited | Status::Error) {
                text.push_str(" · source edited: Compile or Run to load it");
            }
            text
        })
    };
    let tone = move || {
        view.with(|v| match v.status {
            Status::Halted => "status ok",
            Status::Error | Status::Fault => "status bad",
            _ => "status",
        })
    };
    let pc = move || {
        view.with(|v| match (v.status, v.line) {
            (Status::Edited | Status::Error, _) if client.build.with(|b| !b.ok) => "—".to_owned(),
            (_, Some(line)) => format!("{} (line {line})", v.pc),
            (Status::Halted, None) => "0 (halted)".to_owned(),
            (_, None) => v.pc.to_string(),
        })
    };
    let agree = move || match view.with(|v| v.agrees) {
        Some(true) => ("agree ok", "✓ agrees", "The transformer's decoded state equals the interpreter's"),
        Some(false) => ("agree bad", "✗ differs", "The transformer's decoded state differs from the interpreter's"),
        None => ("agree", "—", "The interpreter is the reference: nothing to compare"),
    };
    let layer = move || view.with(|v| v.layer.as_ref().map_or_else(|| "all layers".to_owned(), |l| l.name.clone()));
    let rate = move || view.with(|v| if v.running { format!("{:.0} steps/s", v.rate) } else { String::new() });
    let engine = move || client.build.with(|b| format!("{} · {}", b.engine.map_or("—", |e| e.label()), b.config));
    let note = move || client.problem.get().or_else(|| view.with(|v| v.note.clone()));
    view! {
        <div class="statusbar" role="status">
            <span data-testid="status" class=tone>{status}</span>
            <span>"steps " <b data-testid="step-count">{move || view.with(|v| v.steps)}</b></span>
            <span class="rate">{rate}</span>
            <span>"PC " <b data-testid="pc">{pc}</b></span>
            <span>"layer " <b data-testid="layer">{layer}</b></span>
            <span data-testid="agree" class=move || agree().0 title=move || agree().2>{move || agree().1}</span>
            <span class="engine">{engine}</span>
            <ThreadNote client />
        </div>
        <Progress client />
        <p class="note" data-testid="note" hidden=move || note().is_none()>{note}</p>
        // One line whatever its length (a wrapping line pushed the panes down on every step); the whole in its title.
        <p class="narration" aria-live="polite" title=move || view.with(|v| v.narration.clone())>
            {move || view.with(|v| v.narration.clone())}
        </p>
    }
}

/// Where the session runs: a word in the status bar, and why when it is the page's own thread.
#[component]
pub fn ThreadNote(client: Client) -> impl IntoView {
    let thread = client.thread;
    let (class, text, title) = (
        move || if matches!(thread.get(), Thread::Page(_)) { "thread page" } else { "thread" },
        move || match thread.get() {
            Thread::Starting => "starting worker…".to_owned(),
            Thread::Worker => "worker".to_owned(),
            Thread::Page(_) => "in-page loop".to_owned(),
        },
        move || match thread.get() {
            Thread::Starting => "The machine's web worker is starting".to_owned(),
            Thread::Worker => "The machine runs in a web worker: the page only draws".to_owned(),
            Thread::Page(why) => format!("No web worker ({why}): the machine runs in the page, a slice per frame"),
        },
    );
    view! { <span data-testid="thread" class=class title=title>{text}</span> }
}

/// A duration in words: `45 s`, `2 min 31 s`, `1 h 4 min`.
fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// While running: steps, steps per second and, when the run's total is
/// known, a bar to it and the time left.
#[component]
pub fn Progress(client: Client) -> impl IntoView {
    let view = client.view;
    let running = move || view.with(|v| v.running);
    let text = move || {
        view.with(|v| {
            let rate = format!("{} steps/s", grouped(v.rate as u64));
            match v.total.filter(|&t| t >= v.steps) {
                Some(t) if v.rate > 0.0 => format!(
                    "{} / {} steps · {rate} · {} left",
                    grouped(v.steps),
                    grouped(t),
                    duration((t - v.steps) as f64 / v.rate)
                ),
                Some(t) => format!("{} / {} steps · {rate}", grouped(v.steps), grouped(t)),
                None => format!("{} steps · {rate}", grouped(v.steps)),
            }
        })
    };
    // Without a total the bar is indeterminate (no `value`).
    let value = move || view.with(|v| v.total.map(|_| v.steps as f64));
    let max = move || view.with(|v| v.total.map_or(1.0, |t| t.max(1) as f64));
    view! {
        <div class="progress" data-testid="progress" hidden=move || !running()>
            <progress max=max value=value aria-label="Run progress"></progress>
            <span data-testid="progress-text">{text}</span>
        </div>
    }
}

#[component]
pub fn MachineView(client: Client) -> impl IntoView {
    let view = client.view;
    let config = move || client.build.with(|b| Config::preset(&b.config).ok());
    let rows = move || {
        let config = config();
        view.with(|v| {
            v.vars
                .iter()
                .map(|(name, value)| {
                    let changed = v.changed.contains(name);
                    let text = match (shown(&v.formatted, name), config) {
                        (Some(members), _) => members.to_owned(),
                        (None, Some(c)) => value_text(&v.vars, name, value, &c),
                        (None, None) => value.to_string(),
                    };
                    // The faulting statement assigns this variable: its value is the old one.
                    let unwritten = v.fault.as_ref().filter(|_| v.unwritten.as_ref() == Some(name));
                    let why = unwritten.map(|f| format!("not written: {}", f.message));
                    // A global's columns are outlined in the heatmap while the pointer is over it.
                    let owner = format!("global {name}");
                    let over: Vec<usize> = v
                        .owners
                        .iter()
                        .filter(|o| o.name == owner)
                        .flat_map(|o| o.slot..o.slot + o.words)
                        .collect();
                    view! {
                        <tr
                            class:changed=changed
                            class:unwritten=unwritten.is_some()
                            on:mouseenter=move |_| client.hovered.set(over.clone())
                            on:mouseleave=move |_| client.hovered.set(Vec::new())
                        >
                            <td class="name">{name.clone()}</td>
                            <td class="value">
                                {text}
                                {why.map(|w| view! { " " <span class="unwritten-note" data-testid="unwritten">{w}</span> })}
                            </td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let registers = move || {
        view.with(|v| {
            v.registers
                .iter()
                .map(|r| {
                    view! {
                        <tr data-testid=format!("register-{}", r.name)>
                            <td class="name">{r.name.clone()}</td>
                            <td class="value">{r.value}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let instr = move || view.with(|v| v.instr_text.clone()).unwrap_or_else(|| "—".into());
    view! {
        <h2>"Instruction"</h2>
        <p class="instr mono" data-testid="instruction">{instr}</p>
        <h2>"Variables"</h2>
        <table data-testid="variables" class="variables">
            <thead>
                <tr>
                    <th>"variable"</th>
                    <th>"value"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        <h2>"Registers (column 0)"</h2>
        <table class="variables registers" data-testid="registers">
            <tbody>{registers}</tbody>
        </table>
    }
}

/// The disassembly with source lines interleaved; rebuilt per build, while
/// only the highlight follows the instruction shown (a long listing is not
/// re-rendered per frame).
#[component]
pub fn Listing(client: Client) -> impl IntoView {
    let current = Memo::new(move |_| if client.racing() { None } else { client.view.with(|v| v.instr) });
    // Only the rows whose highlight flips rerun when the PC moves, not one per row.
    let is_current = Selector::new(move || current.get());
    let list = NodeRef::<leptos::html::Ol>::new();
    // Keep the current instruction in view inside the listing (not the page).
    // Found by its index: the highlight's own effect may not have run yet.
    Effect::new(move |_| {
        let Some(k) = current.get() else { return };
        let Some(ol) = list.get() else { return };
        if let Some(li) = ol.query_selector(&format!("li[data-pc=\"{k}\"]")).ok().flatten() {
            if let Ok(li) = li.dyn_into::<web_sys::HtmlElement>() {
                let top = li.offset_top() - ol.offset_top() - ol.client_height() / 2;
                ol.set_scroll_top(top.max(0));
            }
        }
    });
    let builds = Memo::new(move |_| client.build.with(|b| b.builds));
    let rows = move || {
        let _ = builds.get();
        client
            .build
            .with_untracked(|b| b.listing.clone())
            .into_iter()
            .map(|r| match r.index {
                Some(k) => {
                    let sel = is_current.clone();
                    view! { <li class="ins" data-pc=k title=r.doc class:current=move || sel.selected(&Some(k))>{r.text}</li> }
                        .into_any()
                }
                None => view! { <li class="src">{r.text}</li> }.into_any(),
            })
            .collect_view()
    };
    view! {
        <details class="listing" open>
            <summary>"Disassembly"</summary>
            <ol class="mono" node_ref=list data-testid="listing">
                {rows}
            </ol>
        </details>
    }
}
