//! The key-space plot of the read on display (`trace::plot` is the
//! geometry): the parabola, the hull through the latest writes, stale writes
//! greyed, the winner's iso-score line and the runner-up's, and the margin
//! between them. The step's reads are buttons choosing which one to explain.

use super::TraceClient;
use crate::trace::plot::{geometry, Geometry, Pt, Role, HEIGHT, WIDTH};
use crate::trace::TraceCommand;
use leptos::prelude::*;
use loom_core::frontend::trace::explain::Candidates;

fn points(pts: &[Pt]) -> String {
    pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" ")
}

fn line(l: [Pt; 2], class: &'static str) -> impl IntoView {
    view! { <line class=class x1=format!("{:.1}", l[0].0) y1=format!("{:.1}", l[0].1) x2=format!("{:.1}", l[1].0) y2=format!("{:.1}", l[1].1) /> }
}

fn svg(c: &Candidates) -> impl IntoView {
    let g: Geometry = geometry(c);
    let dots = g
        .dots
        .iter()
        .map(|d| {
            let k = d.key;
            let title = format!("seq {} · {} {} = {} · score {}", k.seq, c.space.name(), k.addr, k.value as i32, k.score);
            let r = if matches!(d.role, Role::Winner | Role::RunnerUp) { "5" } else { "3.5" };
            view! {
                <circle class=format!("dot {}", d.role.name()) data-role=d.role.name() cx=format!("{:.1}", d.x) cy=format!("{:.1}", d.y) r=r>
                    <title>{title}</title>
                </circle>
            }
        })
        .collect_view();
    let (qx, qy) = g.query;
    view! {
        <svg class="keyspace" viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" aria-label="The keys (2a, −a²) of the read's head and the query's iso-score line">
            <polyline class="parabola" points=points(&g.parabola) />
            <polyline class="hull" points=points(&g.hull) />
            {g.iso_runner_up.map(|l| line(l, "iso runner-up"))}
            {g.iso.map(|l| line(l, "iso winner"))}
            <line class="query" x1=format!("{qx:.1}") y1="0" x2=format!("{qx:.1}") y2=format!("{HEIGHT}") />
            <text class="query-label" x=format!("{:.1}", qx + 4.0) y=format!("{:.1}", (qy - 6.0).max(12.0))>{format!("q = {}", c.query)}</text>
            {dots}
        </svg>
    }
}

fn caption(c: &Candidates) -> String {
    let who = |k: Option<loom_core::frontend::trace::explain::Candidate>| {
        k.map_or_else(
            || "none".to_owned(),
            |k| format!("seq {} ({} {} = {})", k.seq, c.space.name(), k.addr, k.value as i32),
        )
    };
    let margin = c.margin.map_or_else(|| "—".to_owned(), |m| m.to_string());
    format!(
        "{} read of {}: {} · winner {} · runner-up {} · margin {margin} · {} keys, {} hull vertices",
        c.space.name(),
        c.query,
        if c.hit { "hit" } else { "miss (never written: reads 0)" },
        who(c.winner),
        who(c.runner_up),
        c.keys,
        c.vertices
    )
}

#[component]
pub fn Plot(client: TraceClient) -> impl IntoView {
    let view = client.view;
    let reads = move || {
        view.with(|v| {
            v.reads
                .iter()
                .enumerate()
                .map(|(index, l)| {
                    let label = format!("{} {}", l.space.name(), l.addr);
                    view! {
                        <button
                            class="read"
                            class:picked=index == v.pick
                            aria-pressed=(index == v.pick).to_string()
                            on:click=move |_| client.send(TraceCommand::Lookup { index })
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <h2>"Key space of a read"</h2>
        <div class="reads" data-testid="trace-reads">
            <span class="hint">{move || if view.with(|v| v.reads.is_empty()) { "this step made no reads" } else { "reads: " }}</span>
            {reads}
        </div>
        <figure data-testid="trace-plot" class="trace-plot">
            {move || view.with(|v| v.plot.as_ref().map(svg))}
            <figcaption class="hint mono">{move || view.with(|v| v.plot.as_ref().map(caption))}</figcaption>
        </figure>
        <p class="hint">
            "Each write is the key (2a, −a², seq); the read of q scores 2aq − a² times T plus seq, so keys of equal score lie on a line of slope −q, tangent to the parabola at q. "
            <span class="legend-dot winner"></span>"winner "
            <span class="legend-dot runner-up"></span>"runner-up "
            <span class="legend-dot vertex"></span>"hull vertex (latest write) "
            <span class="legend-dot stale"></span>"stale (same point, drawn below its vertex)"
        </p>
    }
}
