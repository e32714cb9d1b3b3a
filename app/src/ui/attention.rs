//! The attention matches of the layer on display, in words.

use super::Client;
use leptos::prelude::*;
use loom_core::frontend::explain::Target;

#[component]
pub fn Attention(client: Client) -> impl IntoView {
    let view = client.view;
    let rows = move || {
        view.with(|v| {
            v.attention
                .iter()
                .map(|m| {
                    // The sentence names the layer, head, columns and any tie; the
                    // scores follow, muted. A tie (top-2 attention) is by design, not an error.
                    let scores = format!("best {:.2}, next {:.2}", m.best1, m.best2);
                    let head = Target::Head { layer: m.layer_index, head: m.head_index };
                    let lit = move || client.highlight.with(|h| h.as_ref() == Some(&head));
                    view! {
                        <li class:lit=lit>
                            <span class="meaning">{m.meaning.clone()}</span>
                            " "
                            <span class="mono scores">{scores}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let empty = move || view.with(|v| v.attention.is_empty());
    view! {
        <h2>"Attention"</h2>
        <ul data-testid="attention" class="attention">
            {rows}
        </ul>
        <p class="hint" hidden=move || !empty()>
            {move || {
                if view.with(|v| v.layer.is_some()) {
                    "No head of this layer moved a value between columns (L4, L6, L7 and L8 have no heads)."
                } else {
                    "Step (→) or step a layer (Alt+→) on a transformer engine to see which columns each head reads."
                }
            }}
        </p>
    }
}
