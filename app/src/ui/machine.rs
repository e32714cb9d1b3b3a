//! The machine: status, PC, step count and the named variables.

use super::SessionSignal;
use crate::session::Phase;
use leptos::prelude::*;

#[component]
pub fn MachineView(session: SessionSignal) -> impl IntoView {
    let status = move || session.with(|s| s.status_text());
    let phase = move || {
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
    let steps = move || session.with(|s| s.steps());
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
    view! {
        <dl class="registers">
            <dt>"status"</dt>
            <dd data-testid="status" class=phase>{status}</dd>
            <dt>"pc"</dt>
            <dd data-testid="pc">{pc}</dd>
            <dt>"steps"</dt>
            <dd data-testid="step-count">{steps}</dd>
        </dl>
        <table data-testid="variables" class="variables">
            <thead>
                <tr>
                    <th>"variable"</th>
                    <th>"value"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
