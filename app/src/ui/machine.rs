//! The machine: status bar (run state, steps, speed, PC, layer, agreement),
//! the narrated change, variables, decoded registers and the listing.

use super::{Runner, SessionSignal};
use crate::session::Phase;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn StatusBar(session: SessionSignal, runner: Runner) -> impl IntoView {
    let status = move || {
        if runner.running() {
            "running".to_owned()
        } else {
            session.with(|s| s.status_text())
        }
    };
    let tone = move || {
        session.with(|s| match s.phase() {
            Phase::Edited | Phase::Ready => "status",
            Phase::Halted => "status ok",
            Phase::Error | Phase::Fault { .. } => "status bad",
        })
    };
    let pc = move || {
        session.with(|s| match (s.pc(), s.pc_line()) {
            (Some(pc), Some(line)) => format!("{pc} (line {line})"),
            (Some(0), None) => "0 (halted)".to_owned(),
            (Some(pc), None) => pc.to_string(),
            (None, _) => "—".to_owned(),
        })
    };
    let agree = move || match session.with(|s| s.agrees()) {
        Some(true) => ("agree ok", "✓ agrees", "The transformer's decoded state equals the interpreter's"),
        Some(false) => ("agree bad", "✗ differs", "The transformer's decoded state differs from the interpreter's"),
        None => ("agree", "—", "The interpreter is the reference: nothing to compare"),
    };
    let layer =
        move || session.with(|s| s.layer().map_or_else(|| "all layers".to_owned(), |(_, name)| name.to_owned()));
    let rate = move || if runner.running() { format!("{:.0} steps/s", runner.rate.get()) } else { String::new() };
    let engine = move || session.with(|s| format!("{} · {}", s.engine().label(), s.config().name));
    view! {
        <div class="statusbar" role="status">
            <span data-testid="status" class=tone>{status}</span>
            <span>"steps " <b data-testid="step-count">{move || session.with(|s| s.steps())}</b></span>
            <span class="rate">{rate}</span>
            <span>"PC " <b data-testid="pc">{pc}</b></span>
            <span>"layer " <b data-testid="layer">{layer}</b></span>
            <span data-testid="agree" class=move || agree().0 title=move || agree().2>{move || agree().1}</span>
            <span class="engine">{engine}</span>
        </div>
        <p class="narration" aria-live="polite">{move || session.with(|s| s.narration())}</p>
    }
}

#[component]
pub fn MachineView(session: SessionSignal) -> impl IntoView {
    let rows = move || {
        session
            .with(|s| s.variables())
            .into_iter()
            .map(|r| {
                view! {
                    <tr class:changed=r.changed>
                        <td class="name">{r.name}</td>
                        <td class="value">{r.value}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    let registers = move || {
        session
            .with(|s| s.registers())
            .into_iter()
            .map(|(name, v)| {
                view! {
                    <tr>
                        <td class="name">{name}</td>
                        <td class="value">{v}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    let instr = move || session.with(|s| s.current_instr()).unwrap_or_else(|| "—".into());
    view! {
        <h2>"Instruction"</h2>
        <p class="instr mono">{instr}</p>
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
        <table class="variables registers">
            <tbody>{registers}</tbody>
        </table>
    }
}

/// The disassembly with source lines interleaved; rebuilt per build, while
/// only the highlight follows the PC (a long listing is not re-rendered per frame).
#[component]
pub fn Listing(session: SessionSignal) -> impl IntoView {
    let current = Memo::new(move |_| session.with(|s| s.pc_index()));
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
    let build = super::builds(session);
    let rows = move || {
        let _ = build.get();
        session
            .with_untracked(|s| s.listing().to_vec())
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
            <ol class="mono" node_ref=list>
                {rows}
            </ol>
        </details>
    }
}
