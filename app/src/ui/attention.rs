//! The attention matches of the layer on display, in words.

use super::SessionSignal;
use leptos::prelude::*;

#[component]
pub fn Attention(session: SessionSignal) -> impl IntoView {
    let rows = move || {
        session
            .with(|s| s.attention())
            .into_iter()
            .map(|m| {
                let targets = m.targets.iter().map(usize::to_string).collect::<Vec<_>>().join(" + ");
                view! {
                    <li class:tie=m.tie>
                        <span class="mono">
                            {format!(
                                "{} · {}: {} → {targets} (best {:.2}, next {:.2}{})",
                                m.layer,
                                m.head,
                                m.source,
                                m.best1,
                                m.best2,
                                if m.tie { ", tie split" } else { "" },
                            )}
                        </span>
                        <br />
                        <span class="meaning">{m.meaning}</span>
                    </li>
                }
            })
            .collect_view()
    };
    let empty = move || session.with(|s| s.attention().is_empty());
    view! {
        <h2>"Attention"</h2>
        <ul data-testid="attention" class="attention">
            {rows}
        </ul>
        <p class="hint" hidden=move || !empty()>
            {move || {
                if session.with(|s| s.layer().is_some()) {
                    "No head of this layer moved a value between columns (L4, L6, L7 and L8 have no heads)."
                } else {
                    "Step (→) or step a layer (Alt+→) on a transformer engine to see which columns each head reads."
                }
            }}
        </p>
    }
}
