//! The trace page's panels: the controls and scrubber, the trace table, the
//! reconstructed state, the raw write records and the heads' counters.

use super::TraceClient;
use crate::trace::TraceCommand;
use leptos::prelude::*;

#[component]
pub fn Controls(client: TraceClient) -> impl IntoView {
    let view = client.view;
    let running = move || view.with(|v| v.running);
    let none = move || view.with(|v| v.status == "none");
    let send = move |cmd: TraceCommand| move |_| client.send(cmd.clone());
    let tone = move || {
        view.with(|v| match v.status {
            "halted" => "status ok",
            "trap" | "none" | "budget" => "status bad",
            _ => "status",
        })
    };
    let status = move || {
        view.with(|v| match (&v.trap, v.status) {
            (Some(t), _) => format!("trap: {t}"),
            (None, "none") => "no program".to_owned(),
            (None, s) => s.to_owned(),
        })
    };
    let result = move || {
        view.with(|v| {
            v.result.as_ref().map(|r| r.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")).unwrap_or_default()
        })
    };
    let agree = move || match view.with(|v| v.agree) {
        Some(true) => ("agree ok", "✓ heads agree", "Both heads ran every read and returned the same key"),
        Some(false) => ("agree bad", "✗ heads differ", "The brute-force and hull heads returned different keys"),
        None => ("agree", "one head", "Only one head runs: choose `both` to compare them on every read"),
    };
    let problem = move || client.problem.get();
    view! {
        <nav class="toolbar" aria-label="Trace machine controls">
            <button
                data-testid="trace-run"
                class="primary"
                disabled=none
                aria-pressed=move || running().to_string()
                on:click=move |_| client.send(if running() { TraceCommand::Pause } else { TraceCommand::Run })
            >
                {move || if running() { "❚❚ Pause" } else { "▶ Run" }}
            </button>
            <button data-testid="trace-step" title="Execute one instruction" disabled=none on:click=send(TraceCommand::Step)>
                "Step"
            </button>
            <button data-testid="trace-back" title="One instruction back" disabled=none on:click=send(TraceCommand::Back)>
                "Back"
            </button>
            <button data-testid="trace-reset" title="Back to before the first instruction" disabled=none on:click=send(TraceCommand::Reset)>
                "Reset"
            </button>
        </nav>
        <div class="statusbar trace-status" role="status">
            <span data-testid="trace-status" class=tone>{status}</span>
            <span>"step " <b data-testid="trace-step-count">{move || view.with(|v| v.step)}</b></span>
            <span>"result " <b data-testid="trace-result">{result}</b></span>
            <span data-testid="trace-agree" class=move || agree().0 title=move || agree().2>{move || agree().1}</span>
        </div>
        <p class="note" data-testid="trace-note" hidden=move || problem().is_none()>{problem}</p>
        <label class="scrub">
            "step "
            <input
                type="range"
                data-testid="trace-scrub"
                min="0"
                max=move || view.with(|v| v.known.max(1).to_string())
                prop:value=move || view.with(|v| v.step.to_string())
                disabled=none
                on:input=move |ev| {
                    if let Ok(step) = event_target_value(&ev).parse() {
                        client.send(TraceCommand::Seek { step });
                    }
                }
            />
            <span class="hint">{move || view.with(|v| format!("{} of {} run", v.step, v.known))}</span>
        </label>
    }
}

/// The steps around the one on display; a click scrubs to a step.
#[component]
pub fn Table(client: TraceClient) -> impl IntoView {
    let rows = move || {
        client.view.with(|v| {
            v.rows
                .iter()
                .map(|r| {
                    let step = r.step;
                    view! {
                        <tr class:current=r.current on:click=move |_| client.send(TraceCommand::Seek { step })>
                            <td>{r.step}</td>
                            <td>{r.pc}</td>
                            <td class="op">{r.op}</td>
                            <td>{r.arg}</td>
                            <td>{r.sp}</td>
                            <td>{r.top}</td>
                            <td>{r.reads}</td>
                            <td>{r.writes}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <h2>"Trace"</h2>
        <table data-testid="trace-table" class="trace-table mono">
            <thead>
                <tr>
                    <th title="Instructions executed">"step"</th>
                    <th title="The flat instruction's index">"pc"</th>
                    <th>"op"</th>
                    <th title="The immediate">"arg"</th>
                    <th title="Stack height after it">"sp"</th>
                    <th title="Top of the stack after it">"top"</th>
                    <th title="Head reads (lookups) it made">"reads"</th>
                    <th title="Write records it appended">"writes"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

fn values(xs: &[i32]) -> String {
    if xs.is_empty() {
        "—".to_owned()
    } else {
        xs.iter().map(i32::to_string).collect::<Vec<_>>().join(" ")
    }
}

/// The state as the latest writes say it is now.
#[component]
pub fn State(client: TraceClient) -> impl IntoView {
    let view = client.view;
    let memory = move || {
        view.with(|v| {
            v.memory
                .iter()
                .map(|l| {
                    let bytes = l.bytes.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ");
                    view! {
                        <tr>
                            <th>{format!("{:#06x}", l.addr)}</th>
                            <td>{bytes}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <h2>"Reconstructed state"</h2>
        <table data-testid="trace-state" class="variables">
            <tbody>
                <tr><th>"stack"</th><td class="value" data-testid="trace-stack">{move || view.with(|v| values(&v.stack))}</td></tr>
                <tr><th>"locals"</th><td class="value">{move || view.with(|v| values(&v.locals))}</td></tr>
                <tr><th>"globals"</th><td class="value">{move || view.with(|v| values(&v.globals))}</td></tr>
            </tbody>
        </table>
        <h3 class="hint">"memory (the latest write of each byte)"</h3>
        <table data-testid="trace-memory" class="memory mono">
            <tbody>{memory}</tbody>
        </table>
        <p class="hint" hidden=move || view.with(|v| !v.memory.is_empty())>"no memory written"</p>
    }
}

/// The latest write records, stale ones (a later write of the same address
/// exists) greyed, this step's marked.
#[component]
pub fn Writes(client: TraceClient) -> impl IntoView {
    let rows = move || {
        client.view.with(|v| {
            v.writes
                .iter()
                .rev()
                .map(|w| {
                    view! {
                        <tr class:stale=w.stale class:fresh=w.this_step title=if w.stale { "stale: a later write of this address exists" } else { "" }>
                            <td>{w.seq}</td>
                            <td>{w.space.name()}</td>
                            <td>{w.addr}</td>
                            <td>{w.value as i32}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <h2>"Write records"</h2>
        <table data-testid="trace-writes" class="writes mono">
            <thead>
                <tr><th>"seq"</th><th>"space"</th><th>"addr"</th><th>"value"</th></tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// Brute force against the hull: dot products per read, the heads' sizes.
#[component]
pub fn Counters(client: TraceClient) -> impl IntoView {
    let body = move || {
        client.view.with(|v| {
            let Some(c) = &v.counters else { return ().into_any() };
            let (brute, hull) = c.dots_per_lookup();
            let per = |x: Option<f64>| x.map_or_else(|| "—".to_owned(), |x| format!("{x:.1}"));
            let heads = c
                .heads
                .iter()
                .map(|h| {
                    view! {
                        <tr>
                            <th>{h.space.name()}</th>
                            <td>{h.stats.lookups}</td>
                            <td>{h.stats.brute_dots}</td>
                            <td>{h.stats.hull_dots}</td>
                            <td>{h.stats.brute_size}</td>
                            <td>{h.stats.hull_size}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <p class="mono">
                    "steps " <b>{c.steps}</b> " · reads " <b>{c.lookups}</b> " · writes " <b>{c.writes}</b>
                    " · reads/step " <b>{format!("{:.2}", c.lookups_per_step())}</b>
                </p>
                <p class="mono">
                    "dots/read: brute " <b data-testid="trace-brute-dots">{per(brute)}</b>
                    " · hull " <b data-testid="trace-hull-dots">{per(hull)}</b>
                </p>
                <table class="heads mono">
                    <thead>
                        <tr>
                            <th>"head"</th>
                            <th>"reads"</th>
                            <th title="Dot products the brute-force head computed">"brute dots"</th>
                            <th title="Dot products the hull head computed">"hull dots"</th>
                            <th title="Keys the brute-force head holds (one per write)">"keys"</th>
                            <th title="Hull vertices (one per distinct address)">"vertices"</th>
                        </tr>
                    </thead>
                    <tbody>{heads}</tbody>
                </table>
            }
            .into_any()
        })
    };
    view! {
        <h2>"Heads"</h2>
        <div data-testid="trace-counters" class="counters">{body}</div>
    }
}
