//! The state tensor on a canvas: cells from [`crate::heatmap`], row groups
//! labelled and banded from the layout's names, column zones, the PC, the
//! shown layer's attention links over the column axis, a hover tooltip,
//! zoom/pan, and a table of one region as the text alternative.

use super::Client;
use crate::heatmap::{changed, render, zone, zones, Palette, Window};
use crate::session::{Build, View as MachineView};
use leptos::html::Canvas;
use leptos::prelude::*;
use loom_core::frontend::explain::Target;
use loom_core::frontend::{owner_of, Column, Config, Layout, Tensor};
use wasm_bindgen::{Clamped, JsCast};
use web_sys::CanvasRenderingContext2d;

/// Left gutter for row-group labels, top strip for zones and attention links.
const LABEL_W: usize = 76;
const TOP: usize = 40;
const ZONE_H: f64 = 12.0;
/// Room under the cells for the last row group's name, and the least distance between two names.
const BOTTOM: usize = 10;
const LABEL_GAP: f64 = 11.0;
/// The most columns the region table lists.
const TABLE_MAX: usize = 48;

/// Columns on display: `None` = the program's interesting columns.
type View = RwSignal<Option<(usize, usize)>>;

fn cell_h(d: usize) -> usize {
    if d <= 160 {
        3
    } else {
        2
    }
}

/// The configuration and its layout of the last build (the layout is
/// derived from the configuration alone, so the page computes it itself).
fn shape(client: Client) -> Option<(Config, Layout)> {
    client.build.with(|b| Config::preset(&b.config).ok()).map(|c| (c, Layout::new(&c)))
}

/// The window for the current build and canvas width.
fn window_for(client: Client, view: View, width: usize) -> Option<Window> {
    let (cfg, lay) = shape(client)?;
    client.view.with(|v| v.tensor.as_ref().map(|_| ()))?;
    let avail = width.saturating_sub(LABEL_W).max(64);
    let code = client.build.with(|b| b.instructions);
    Some(match view.get() {
        Some((first, cols)) => Window::fit(lay.n, first, cols, avail, cell_h(lay.d)),
        None => Window::interesting(&cfg, code, avail, cell_h(lay.d)),
    })
}

/// What a column holds, in words, with its value for a memory column: "M[40] = sum (slot 8) = 3".
fn meaning(b: &Build, x: &Tensor, cfg: &Config, lay: &Layout, col: usize) -> String {
    let name = b.columns.get(col).cloned().unwrap_or_else(|| format!("column {col}"));
    match cfg.column(col) {
        Column::Memory(_) => format!("{name} = {}", cfg.wrap(x.bits(lay.mem, col) as i64)),
        _ => name,
    }
}

/// `dark`: this instance's theme (several widgets on a page may differ); the
/// canvas redraws in the theme's palette when it changes.
#[component]
pub fn Heatmap(client: Client, dark: Signal<bool>) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let view: View = RwSignal::new(None);
    let hover = RwSignal::new(None::<(usize, usize, i32, i32)>);
    // The canvas's box, watched rather than read per frame: reading it after
    // the views changed the page forces a layout at every refresh.
    let wrap = NodeRef::<leptos::html::Div>::new();
    let size = RwSignal::new((900.0, 0.0));
    super::watch_size(wrap, size);
    let width = move || size.get().0 as usize;
    // A new build shows its interesting columns again.
    let builds = Memo::new(move |_| client.build.with(|b| b.builds));
    Effect::new(move |_| {
        let _ = builds.get();
        view.set(None);
    });
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let (Some(w), Some((cfg, lay))) = (window_for(client, view, width()), shape(client)) else {
            el.set_width(0);
            el.set_height(0);
            return;
        };
        let lit = client.highlight.get();
        let hovered = client.hovered.get();
        let look =
            Look { dark: dark.get(), console: client.build.with(|b| b.console), lit: lit.as_ref(), hovered: &hovered };
        client.view.with(|v| draw(&el, v, &cfg, &lay, &w, &look));
    });
    let win = move || window_for(client, view, width());
    let n = move || shape(client).map_or(1, |(c, _)| c.n);
    let zoom = move |f: f64| {
        if let Some(w) = win() {
            let z = w.zoom(n(), f, w.width());
            view.set(Some((z.first, z.cols)));
        }
    };
    let pan = move |dir: isize| {
        if let Some(w) = win() {
            let p = w.pan(n(), dir * (w.cols as isize / 2).max(1), w.width());
            view.set(Some((p.first, p.cols)));
        }
    };
    let all = move |_| view.set(Some((0, n())));
    let mousemove = move |e: web_sys::MouseEvent| {
        let (x, y) = (e.offset_x(), e.offset_y());
        let cell = win().and_then(|w| {
            let col = w.col_at(f64::from(x) - LABEL_W as f64)?;
            let row = (y as usize).checked_sub(TOP)? / w.cell_h;
            (row < shape(client).map_or(0, |(_, l)| l.d)).then_some((row, col))
        });
        hover.set(cell.map(|(r, c)| (r, c, x, y)));
    };
    let tooltip = move || {
        let (row, col, x, y) = hover.get()?;
        let (cfg, lay) = shape(client)?;
        client.view.with(|v| {
            let t = v.tensor.as_ref()?;
            let what = client.build.with(|b| meaning(b, t, &cfg, &lay, col));
            let zone = client.build.with(|b| zone(&cfg, b.console, col));
            // Who owns a memory word now: `fact#3: n`, `global total`, `console`.
            let owner = match cfg.column(col) {
                Column::Memory(slot) => owner_of(&v.owners, slot).map(|o| format!(" · {}", o.name)),
                _ => None,
            };
            let text = format!(
                "{} · column {col} ({zone}): {what}{} · value {}",
                lay.label(row),
                owner.unwrap_or_default(),
                t.get(row, col)
            );
            Some(view! { <div class="tooltip" style=format!("left:{}px;top:{}px", x + 12, y + 12)>{text}</div> })
        })
    };
    let transformer = move || client.view.with(|v| v.tensor.is_some());
    // The columns outlined for the variable the pointer is over (for tests and scripts too).
    let outlined = move || {
        let cfg = shape(client)?.0;
        let cols: Vec<String> = client.hovered.get().iter().map(|&s| cfg.mem_col(s).to_string()).collect();
        (!cols.is_empty()).then(|| cols.join(" "))
    };
    // The legend's swatches come from the palette the cells are drawn in.
    let swatch = move |v: f32| rgb(Palette::of(dark.get()).colour(v));
    view! {
        <h2>"State tensor"</h2>
        <div class="heat-controls" hidden=move || !transformer()>
            <button on:click=move |_| view.set(None) title="Scratch, memory and the program's instructions">
                "fit program"
            </button>
            <button on:click=all title="Every column">"all"</button>
            <button on:click=move |_| zoom(2.0) aria-label="Zoom in">"+"</button>
            <button on:click=move |_| zoom(0.5) aria-label="Zoom out">"−"</button>
            <button on:click=move |_| pan(-1) aria-label="Pan left">"◀"</button>
            <button on:click=move |_| pan(1) aria-label="Pan right">"▶"</button>
            <span class="legend">
                <i style:background=move || swatch(-1.0)></i>"−1 "
                <i style:background=move || swatch(0.0)></i>"0 "
                <i style:background=move || swatch(1.0)></i>"+1 "
                <i class="mark" style:border-color=move || rgb(Palette::of(dark.get()).mark)></i>"changed"
            </span>
        </div>
        <p class="hint" hidden=transformer>
            {move || {
                if client.build.with(|b| b.engine.is_some_and(|e| e.is_transformer())) {
                    "Nothing loaded: compile (Ctrl/⌘+Enter) to see the tensor."
                } else {
                    "The interpreter has no tensor: pick a transformer engine to see it."
                }
            }}
        </p>
        <div class="heat-wrap" node_ref=wrap>
            <canvas
                data-testid="heatmap"
                data-outlined=outlined
                node_ref=canvas
                role="img"
                aria-label="State tensor heatmap: rows are named fields, columns are scratch, memory and instructions"
                on:mousemove=mousemove
                on:mouseleave=move |_| hover.set(None)
            ></canvas>
            {tooltip}
        </div>
        <RegionTable client view=Signal::derive(win) />
    }
}

/// A colour as CSS.
fn rgb([r, g, b]: [u8; 3]) -> String {
    format!("rgb({r} {g} {b})")
}

/// How the canvas is drawn beyond the tensor: the theme, the console's column
/// (a zone of its own), what the Explain view or a lesson points at, and the memory
/// slots of the variable the pointer is over.
struct Look<'a> {
    dark: bool,
    console: Option<usize>,
    lit: Option<&'a Target>,
    hovered: &'a [usize],
}

fn draw(el: &web_sys::HtmlCanvasElement, v: &MachineView, cfg: &Config, lay: &Layout, w: &Window, look: &Look) {
    let &Look { dark, console, lit, hovered } = look;
    let Some(x) = &v.tensor else { return };
    let diff = v.previous.as_ref().map(|p| changed(p, x));
    let (cw, ch) = (LABEL_W + w.width(), TOP + x.d * w.cell_h + BOTTOM);
    el.set_width(cw as u32);
    el.set_height(ch as u32);
    let Some(ctx) = el.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let (ink, band) = if dark { ("#ddd", "#2a2f36") } else { ("#222", "#eef0f3") };
    ctx.set_fill_style_str(if dark { "#16191d" } else { "#fff" });
    ctx.fill_rect(0.0, 0.0, cw as f64, ch as f64);
    let px = render(x, diff.as_deref(), w, &Palette::of(dark));
    if let Ok(img) =
        web_sys::ImageData::new_with_u8_clamped_array_and_sh(Clamped(&px), w.width() as u32, (x.d * w.cell_h) as u32)
    {
        let _ = ctx.put_image_data(&img, LABEL_W as f64, TOP as f64);
    }
    ctx.set_font("10px sans-serif");
    // Row groups: banded gutter, name, and a rule across the cells. A name
    // never overlaps the one above (a one-row group is 3 px high), and the
    // margin below keeps the last one whole.
    let mut last_label = f64::NEG_INFINITY;
    for (i, g) in lay.groups().iter().enumerate() {
        let name = g.name;
        let (y0, y1) = ((TOP + g.rows.start * w.cell_h) as f64, (TOP + g.rows.end * w.cell_h) as f64);
        ctx.set_fill_style_str(if i % 2 == 0 { band } else { "transparent" });
        ctx.fill_rect(0.0, y0, LABEL_W as f64 - 4.0, y1 - y0);
        ctx.set_fill_style_str(ink);
        last_label = ((y0 + y1) / 2.0 + 3.0).max(last_label + LABEL_GAP);
        let _ = ctx.fill_text(name, 4.0, last_label);
        ctx.set_stroke_style_str(ink);
        ctx.set_line_width(0.5);
        ctx.begin_path();
        ctx.move_to(LABEL_W as f64, y0);
        ctx.line_to(cw as f64, y0);
        ctx.stroke();
    }
    // Column zones along the top, with their boundaries.
    let cols = w.first..w.first + w.cols;
    for (zone, range) in zones(cfg, console) {
        let (start, end) = (range.start, range.end);
        let colour = match zone {
            "memory" => "#5aae61",
            "instructions" => "#8073ac",
            "console" => "#d6604d",
            _ => "#9aa5b1",
        };
        let (a, b) = (start.max(cols.start), end.min(cols.end));
        if a >= b {
            continue;
        }
        let x0 = (LABEL_W + (a - w.first) * w.cell_w) as f64;
        let x1 = (LABEL_W + (b - w.first) * w.cell_w) as f64;
        ctx.set_fill_style_str(colour);
        ctx.fill_rect(x0, 0.0, x1 - x0, ZONE_H);
        ctx.set_fill_style_str("#fff");
        // The one-column console is named only when zoomed in enough (the tooltip names it always).
        let fits = 6.0 * zone.len() as f64 + 4.0 <= x1 - x0;
        if zone != "console" || fits {
            let _ = ctx.fill_text(zone, x0 + 2.0, ZONE_H - 2.0);
        }
        ctx.set_stroke_style_str(ink);
        ctx.set_line_width(1.0);
        ctx.begin_path();
        ctx.move_to(x0, 0.0);
        ctx.line_to(x0, ch as f64);
        ctx.stroke();
    }
    // The PC's column.
    if let Some(xp) = w.x_of(v.pc) {
        let xp = xp + LABEL_W as f64;
        ctx.set_fill_style_str("#d6001c");
        ctx.begin_path();
        ctx.move_to(xp - 4.0, TOP as f64 - 8.0);
        ctx.line_to(xp + 4.0, TOP as f64 - 8.0);
        ctx.line_to(xp, TOP as f64 - 1.0);
        ctx.fill();
    }
    // Attention: a link from each source column to the column(s) it reads.
    let edge = |c: usize| {
        let x = w.x_of(c).unwrap_or(if c < w.first { 0.0 } else { w.width() as f64 });
        x + LABEL_W as f64
    };
    ctx.set_stroke_style_str(if dark { "#ffd54f" } else { "#b8860b" });
    ctx.set_line_width(1.5);
    for m in &v.attention {
        for &t in &m.targets {
            let (a, b) = (edge(m.source), edge(t));
            ctx.begin_path();
            ctx.move_to(a, TOP as f64);
            ctx.quadratic_curve_to((a + b) / 2.0, ZONE_H + 2.0, b, TOP as f64);
            ctx.stroke();
        }
    }
    if let Some(t) = lit {
        mark(&ctx, v, w, x.d, t, if dark { "#4fc3f7" } else { "#0057b8" });
    }
    ctx.set_stroke_style_str(if dark { "#f48fb1" } else { "#c2185b" });
    ctx.set_line_width(2.0);
    for &slot in hovered {
        outline(&ctx, w, cfg.mem_col(slot), 0..x.d);
    }
}

/// Outlines `rows` of column `col`, when it is in the window.
fn outline(ctx: &CanvasRenderingContext2d, w: &Window, col: usize, rows: std::ops::Range<usize>) {
    if let Some(x) = w.x_of(col) {
        let x0 = LABEL_W as f64 + x - w.cell_w as f64 / 2.0 - 1.5;
        let y0 = (TOP + rows.start * w.cell_h) as f64 - 1.5;
        ctx.stroke_rect(x0, y0, w.cell_w as f64 + 3.0, (rows.len() * w.cell_h) as f64 + 3.0);
    }
}

/// Outlines what the Explain view or a lesson points at: a column, a
/// field's cells, or the columns a head's matches join.
fn mark(ctx: &CanvasRenderingContext2d, v: &MachineView, w: &Window, d: usize, t: &Target, colour: &str) {
    let outline = |col: usize, rows: std::ops::Range<usize>| outline(ctx, w, col, rows);
    ctx.set_stroke_style_str(colour);
    ctx.set_line_width(2.0);
    match *t {
        Target::Column { column } => outline(column, 0..d),
        Target::Cells { column, start, len } => outline(column, start..start + len),
        Target::Head { layer, head } => {
            let matches = v.attention.iter().filter(|m| m.layer_index == layer && m.head_index == head);
            for m in matches {
                for &c in m.targets.iter().chain([&m.source]) {
                    outline(c, 0..d);
                }
            }
        }
    }
}

/// The text alternative: one region's decoded value per shown column.
#[component]
fn RegionTable(client: Client, view: Signal<Option<Window>>) -> impl IntoView {
    let region = RwSignal::new("memory".to_owned());
    let names = move || shape(client).map_or_else(Vec::new, |(_, l)| l.regions().iter().map(|r| r.name).collect());
    let options = move || {
        names()
            .into_iter()
            .map(|n| view! { <option value=n prop:selected=move || region.get() == n>{n}</option> })
            .collect_view()
    };
    let rows = move || {
        let w = view.get()?;
        let (cfg, lay) = shape(client)?;
        let r = *lay.regions().iter().find(|r| r.name == region.get())?;
        client.view.with(|v| {
            let x = v.tensor.as_ref()?;
            let rows = (w.first..w.first + w.cols)
                .filter(|&c| r.rows().any(|row| x.get(row, c) != 0.0))
                .take(TABLE_MAX)
                .map(|c| {
                    let bits = x.bits(r, c) as i64;
                    let value = if r.len == cfg.word_bits as usize { i64::from(cfg.wrap(bits)) } else { bits };
                    let what = client.build.with(|b| meaning(b, x, &cfg, &lay, c));
                    view! {
                        <tr>
                            <td>{c}</td>
                            <td>{what}</td>
                            <td class="value">{value}</td>
                        </tr>
                    }
                })
                .collect_view();
            Some(rows)
        })
    };
    view! {
        <details class="region-table">
            <summary>"Table view of a region"</summary>
            <label>
                "region "
                <select aria-label="Region shown in the table" on:change=move |ev| region.set(event_target_value(&ev))>
                    {options}
                </select>
            </label>
            <table class="variables">
                <thead>
                    <tr>
                        <th>"column"</th>
                        <th>"meaning"</th>
                        <th>"value"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
    }
}
