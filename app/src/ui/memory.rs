//! The memory view: the globals and each activation's variables as objects of cells
//! (the frames-and-objects picture of visual debuggers), a pointer drawn as an arrow to
//! the cell it points at, the cells the last move changed marked. What is drawn — the
//! cells, a pointer's target, which cells changed — is the debugger's
//! (`Debugger::memory`); this view places the arrows where the browser laid the cells out.

use super::Client;
use leptos::prelude::*;
use loom_core::frontend::{MemObject, MemoryView};
use wasm_bindgen::JsCast;

/// A pointer's arrow: the cells it joins (`p`, `a[2]`) and its path in the view's box.
#[derive(Clone, Debug, PartialEq)]
struct Arrow {
    from: String,
    to: String,
    path: String,
    head: String,
}

#[component]
pub fn Memory(client: Client) -> impl IntoView {
    let view = client.view;
    // Not redrawn while running (memory changes every step).
    let memory = Memo::new(move |_| view.with(|v| (!v.running).then(|| v.memory.clone())));
    let root = NodeRef::<leptos::html::Div>::new();
    let arrows = RwSignal::new(Vec::<Arrow>::new());
    let size = RwSignal::new((0.0, 0.0));
    super::watch_size(root, size);
    let measure = move || {
        let (Some(el), Some(m)) = (root.get_untracked(), memory.get_untracked()) else { return };
        arrows.set(place_arrows(el.unchecked_ref(), &m));
    };
    // Once the cells are laid out: after the view draws them, and when its box changes.
    Effect::new(move |_| {
        memory.track();
        size.track();
        request_animation_frame(measure);
    });
    let regions = move || {
        memory.get().map(|m| {
            m.regions
                .into_iter()
                .map(|r| {
                    let objects = r.objects.into_iter().map(|o| object(client, o)).collect_view();
                    view! {
                        <section class="mem-region" data-testid="mem-region">
                            <h3>{r.name}</h3>
                            {objects}
                        </section>
                    }
                })
                .collect_view()
        })
    };
    let hint = move || match memory.get() {
        None => Some("running — memory shows when the machine stops"),
        Some(m) if m.regions.iter().all(|r| r.objects.is_empty()) => {
            Some("no variables to show: nothing is loaded, or the program has no debug information")
        }
        _ => None,
    };
    let svg = move || {
        arrows
            .get()
            .into_iter()
            .map(|a| {
                view! {
                    <g data-testid="pointer-arrow" data-from=a.from data-to=a.to>
                        <path class="arrow-line" d=a.path />
                        <path class="arrow-head" d=a.head />
                    </g>
                }
            })
            .collect_view()
    };
    view! {
        <h2>"Memory"</h2>
        <p class="hint" hidden=move || hint().is_none()>{hint}</p>
        <div class="memory" data-testid="memory-view" node_ref=root aria-label="Memory: frames and globals">
            {regions}
            <svg
                class="memory-arrows"
                aria-hidden="true"
                width=move || size.get().0.to_string()
                height=move || size.get().1.to_string()
            >
                {svg}
            </svg>
        </div>
    }
}

/// One variable: its name and type, then its cells in rows.
fn object(client: Client, o: MemObject) -> impl IntoView {
    let slots: Vec<usize> = o.cells.iter().filter_map(|c| c.slot).collect();
    let columns = format!("grid-template-columns: repeat({}, auto)", o.columns.max(1));
    let name = o.name.clone();
    let cells = o
        .cells
        .into_iter()
        .map(|c| {
            let over = c.slot.into_iter().collect::<Vec<_>>();
            let title = if c.label.is_empty() { name.clone() } else { format!("{name}{}", c.label) };
            view! {
                <div
                    class="mem-cell mono"
                    class:changed=c.changed
                    class:pointer=c.target.is_some()
                    data-testid="memory-cell"
                    data-name=title.clone()
                    data-slot=c.slot.map(|s| s.to_string())
                    data-target=c.target.map(|s| s.to_string())
                    data-changed=c.changed.then_some("true")
                    title=move || if c.changed { format!("{title} (changed by the last move)") } else { title.clone() }
                    on:mouseenter=move |_| client.hovered.set(over.clone())
                    on:mouseleave=move |_| client.hovered.set(Vec::new())
                >
                    <span class="mem-label">{c.label}</span>
                    <span class="mem-value">{c.value}</span>
                </div>
            }
        })
        .collect_view();
    let more = (o.more > 0).then(|| format!("… {} more", o.more));
    let ty = o.ty.clone();
    view! {
        <div class="mem-object">
            <span
                class="mem-name mono"
                title=ty
                on:mouseenter=move |_| client.hovered.set(slots.clone())
                on:mouseleave=move |_| client.hovered.set(Vec::new())
            >
                {o.name}
                <span class="mem-type">{o.ty}</span>
            </span>
            <div class="mem-cells" style=columns>
                {cells}
            </div>
            {more}
        </div>
    }
}

/// The arrows of every pointer whose target cell is on display, in `el`'s box.
fn place_arrows(el: &web_sys::Element, m: &MemoryView) -> Vec<Arrow> {
    let origin = el.get_bounding_client_rect();
    let cell = |slot: usize| el.query_selector(&format!(".mem-cell[data-slot=\"{slot}\"]")).ok().flatten();
    let cells = m.regions.iter().flat_map(|r| &r.objects).flat_map(|o| &o.cells);
    cells
        .filter_map(|c| {
            let (from, to) = (cell(c.slot?)?, cell(c.target?)?);
            let (a, b) = (from.get_bounding_client_rect(), to.get_bounding_client_rect());
            // From the pointer's right edge to the target's nearer side (top or bottom).
            let (x1, y1) = (a.right() - origin.left() - 4.0, a.top() + a.height() / 2.0 - origin.top());
            let below = b.top() >= a.bottom();
            let above = b.bottom() <= a.top();
            let x2 = b.left() + b.width() / 2.0 - origin.left();
            let (y2, bend) = match (below, above) {
                (true, _) => (b.top() - origin.top(), -30.0),
                (_, true) => (b.bottom() - origin.top(), 30.0),
                _ => (b.top() - origin.top(), -30.0),
            };
            let (cx1, cy1, cx2, cy2) = (x1 + 40.0, y1, x2, y2 + bend);
            let path = format!("M {x1:.1} {y1:.1} C {cx1:.1} {cy1:.1}, {cx2:.1} {cy2:.1}, {x2:.1} {y2:.1}");
            Some(Arrow {
                from: from.get_attribute("data-name").unwrap_or_default(),
                to: to.get_attribute("data-name").unwrap_or_default(),
                path,
                head: head(cx2, cy2, x2, y2),
            })
        })
        .collect()
}

/// An arrowhead at `(x, y)` coming from `(fx, fy)`.
fn head(fx: f64, fy: f64, x: f64, y: f64) -> String {
    let (dx, dy) = (x - fx, y - fy);
    let len = dx.hypot(dy).max(1e-6);
    let (ux, uy) = (dx / len, dy / len);
    let (bx, by) = (x - 8.0 * ux, y - 8.0 * uy);
    let (px, py) = (-uy * 4.0, ux * 4.0);
    format!("M {x:.1} {y:.1} L {:.1} {:.1} L {:.1} {:.1} Z", bx + px, by + py, bx - px, by - py)
}
