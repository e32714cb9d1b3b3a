//! The call stack: one entry per activation, innermost first, each with its function
//! (`fact#3` for the third activation of a recursive function), the line it is at and
//! its arguments and locals as `name = value`. Output routines are library frames,
//! collapsed. Choosing a frame marks its line in the editor; the pointer over a
//! variable outlines its columns in the heatmap.

use super::Client;
use leptos::prelude::*;
use loom_core::frontend::{Binding, FrameView};

/// The memory slots a variable occupies now (none for a constant the compiler substituted).
pub fn slots(b: &Binding) -> Vec<usize> {
    b.slot.map_or_else(Vec::new, |s| (s..s + b.words.max(1)).collect())
}

#[component]
pub fn CallStack(client: Client) -> impl IntoView {
    let view = client.view;
    // A move shows the innermost frame again.
    let steps = Memo::new(move |_| view.with(|v| v.steps));
    Effect::new(move |_| {
        let _ = steps.get();
        client.frame.set(0);
    });
    // Not redrawn while running (the stack changes every step); equal stacks are not redrawn.
    let frames = Memo::new(move |_| view.with(|v| (!v.running).then(|| v.frames.clone())));
    let list = move || {
        frames.get().unwrap_or_default().into_iter().enumerate().map(|(k, f)| frame(client, k, f)).collect_view()
    };
    let hint = move || match frames.get() {
        None => Some("running — the call stack shows when the machine stops"),
        Some(f) if f.is_empty() => Some("no call stack: nothing is running (or the program has no debug information)"),
        Some(_) => None,
    };
    view! {
        <h2>"Call stack"</h2>
        <p class="hint" hidden=move || hint().is_none()>{hint}</p>
        <ol class="call-stack" data-testid="call-stack" aria-label="Call stack, innermost first">
            {list}
        </ol>
    }
}

/// One activation: a button that chooses it, and its variables.
fn frame(client: Client, k: usize, f: FrameView) -> impl IntoView {
    let chosen = move || client.frame.get() == k;
    let line = f.line.map(|l| format!("line {l}")).unwrap_or_default();
    let head = view! {
        <button
            class="frame-head"
            title="Show this frame: its line is marked in the editor"
            aria-pressed=move || chosen().to_string()
            on:click=move |_| client.frame.set(k)
        >
            <b class="func">{f.label()}</b>
            " "
            <span class="line">{line}</span>
            {f.library.then_some(" · library")}
        </button>
    };
    let vars = f
        .vars
        .into_iter()
        .map(|b| {
            let over = slots(&b);
            let text = format!("{} = {}", b.name, b.value);
            view! {
                <li
                    data-testid="binding"
                    class="mono"
                    title=b.ty
                    on:mouseenter=move |_| client.hovered.set(over.clone())
                    on:mouseleave=move |_| client.hovered.set(Vec::new())
                >
                    {text}
                </li>
            }
        })
        .collect_view();
    let body = if f.library {
        // An output routine's insides are not the learner's: collapsed.
        view! {
            <details>
                <summary>{head}</summary>
                <ul class="bindings">{vars}</ul>
            </details>
        }
        .into_any()
    } else {
        view! {
            {head}
            <ul class="bindings">{vars}</ul>
        }
        .into_any()
    };
    view! {
        <li data-testid="frame" class="frame" class:library=f.library class:chosen=chosen>
            {body}
        </li>
    }
}
