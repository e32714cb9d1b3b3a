//! The Explain view: the last traced step in words (the instruction, then
//! each layer up to the one on display), rendered from the explanation's
//! segments as text nodes; a column, cell or head it names is a button that
//! highlights it in the heatmap and attention views.

use super::manual;
use super::Client;
use leptos::prelude::*;
use loom_core::frontend::explain::{Segment, Target};

/// Words as text nodes, numbers marked, links as buttons that set the highlight.
pub fn words(client: Client, segs: &[Segment]) -> impl IntoView {
    segs.iter()
        .map(|s| {
            let text = s.text.clone();
            match (&s.target, &s.value) {
                (Some(t), _) => {
                    let (over, click) = (t.clone(), t.clone());
                    let lit = {
                        let t = t.clone();
                        move || client.highlight.with(|h| h.as_ref() == Some(&t))
                    };
                    view! {
                        <button
                            class="ref"
                            class:num=s.value.is_some()
                            class:lit=lit
                            title=describe(t)
                            on:mouseenter=move |_| client.highlight.set(Some(over.clone()))
                            on:focus={
                                let t = t.clone();
                                move |_| client.highlight.set(Some(t.clone()))
                            }
                            on:click=move |_| client.highlight.set(Some(click.clone()))
                        >
                            {text}
                        </button>
                    }
                    .into_any()
                }
                (None, Some(_)) => view! { <span class="num">{text}</span> }.into_any(),
                (None, None) => text.into_any(),
            }
        })
        .collect_view()
}

/// What a link highlights, for its tooltip.
fn describe(t: &Target) -> String {
    match t {
        Target::Column { column } => format!("Highlight column {column}"),
        Target::Cells { column, start, len } => {
            format!("Highlight rows {start}–{} of column {column}", start + len - 1)
        }
        Target::Head { layer, head } => format!("Highlight head {} of L{}", head + 1, layer + 1),
    }
}

#[component]
pub fn Explain(client: Client) -> impl IntoView {
    let view = client.view;
    let body = move || {
        view.with(|v| {
            let e = v.explain.as_ref()?;
            let at = v.layer.as_ref().map(|l| l.index);
            let layers = e
                .layers
                .iter()
                .filter(|l| at.is_none_or(|a| l.index <= a))
                .map(|l| {
                    view! {
                        <li data-layer=l.index class:current=at == Some(l.index)>
                            <a class="manual layer-name" href=manual::href(&manual::layer(l.index)) target="_blank" rel="noopener" title="What this layer does, in the manual">
                                <b>{l.name.clone()}</b>
                            </a>
                            " "
                            {words(client, &l.words)}
                        </li>
                    }
                })
                .collect_view();
            Some(view! {
                <p class="instr-words">{words(client, &e.instruction)}</p>
                <ol class="layer-words">{layers}</ol>
            })
        })
    };
    let empty = move || view.with(|v| v.explain.is_none());
    view! {
        <h2>"Explain"</h2>
        <div data-testid="explain" class="explain">
            {body}
            <p class="hint" hidden=move || !empty()>
                "Step (→) or step a layer (Alt+→) on a transformer engine: what each layer does to this instruction is told here, with this step's numbers."
            </p>
        </div>
    }
}
