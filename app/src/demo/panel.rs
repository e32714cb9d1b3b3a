//! The demo's panel: picture, counters, on-screen buttons, example picker,
//! the Sudoku puzzle box and how to play. It only shows a [`DemoView`] and
//! reports choices through callbacks; the page owns the runner and the engine.
//!
//! Parts that take input (the picker, the buttons, the puzzle box) are built
//! once or from memos, so redrawing the picture every frame never steals focus
//! or swallows a click.

use super::puzzle::parse_puzzle;
use super::view::{BarsView, Control, DemoView, GridView, Info, SudokuState, SudokuView};
use leptos::prelude::*;

#[component]
pub fn DemoPanel(
    #[prop(into)] view: Signal<Option<DemoView>>,
    #[prop(into)] runner_examples: Signal<Vec<String>>,
    on_example: Callback<usize>,
    on_key: Callback<String>,
    /// A puzzle typed into the Sudoku box, already checked by [`parse_puzzle`];
    /// the page passes it to `DemoRunner::set_puzzle` and restarts. Without
    /// it there is no puzzle box.
    #[prop(optional)]
    on_puzzle: Option<Callback<String>>,
) -> impl IntoView {
    let info = Memo::new(move |_| view.with(|v| v.as_ref().map(|v| v.info().clone())));
    let is_sudoku = Memo::new(move |_| view.with(|v| matches!(v, Some(DemoView::Sudoku(..)))));
    let controls = Memo::new(move |_| info.with(|i| i.as_ref().map(|i| i.controls.clone()).unwrap_or_default()));
    let options = move || {
        runner_examples
            .get()
            .into_iter()
            .enumerate()
            .map(|(k, name)| view! { <option value=k>{name}</option> })
            .collect_view()
    };
    let choose = move |ev: leptos::ev::Event| {
        if let Ok(k) = event_target_value(&ev).parse() {
            on_example.run(k);
        }
    };
    view! {
        <section class="demo" data-testid="demo-panel" aria-label="Demo">
            <header class="demo-head">
                <h2>{move || info.with(|i| i.as_ref().map(|i| i.title.clone()))}</h2>
                <label class="picker">
                    "example "
                    <select data-testid="demo-example" on:change=choose>{options}</select>
                </label>
            </header>
            {move || view.with(|v| v.as_ref().map(picture))}
            {move || info.with(|i| i.as_ref().map(counters))}
            {move || buttons(controls.get(), on_key)}
            {move || on_puzzle.filter(|_| is_sudoku.get()).map(puzzle_box)}
            <p class="demo-how" data-testid="demo-how">{move || info.with(|i| i.as_ref().map(|i| i.how_to_play.clone()))}</p>
        </section>
    }
}

fn picture(v: &DemoView) -> AnyView {
    match v {
        DemoView::Bars(_, b) => bars(b).into_any(),
        DemoView::Grid(_, g) => grid(g).into_any(),
        DemoView::Sudoku(_, s) => sudoku(s).into_any(),
    }
}

fn bars(b: &BarsView) -> impl IntoView {
    let max = b.max.max(1);
    let label = format!("{} values: {}", b.values.len(), join(&b.values));
    let items = b
        .values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let height = format!("{}%", (v.clamp(0, max) * 100) / max);
            let compared = b.compared.contains(&i);
            let moved = b.moved.contains(&i);
            view! {
                <div class="demo-bar" data-testid="demo-bar" class:compared=compared class:moved=moved
                    style:height=height style:background=(!compared && !moved).then(|| b.colour.clone())
                    title=v.to_string()></div>
            }
        })
        .collect_view();
    let algorithm = b.algorithm.clone().map(|a| view! { <p class="demo-status" data-testid="demo-status">{a}</p> });
    let touched = (!b.compared.is_empty() || !b.moved.is_empty()).then(|| {
        let list = |xs: &[usize]| xs.iter().map(|i| format!("#{i}")).collect::<Vec<_>>().join(", ");
        view! {
            <p class="demo-touched" data-testid="demo-touched">
                "attention: compared " {list(&b.compared)} " · moved " {list(&b.moved)}
            </p>
        }
    });
    view! {
        {algorithm}
        <div class="demo-bars" data-testid="demo-bars" role="img" aria-label=label>{items}</div>
        {touched}
    }
}

fn grid(g: &GridView) -> impl IntoView {
    let cells = g
        .cells
        .iter()
        .map(|c| {
            view! {
                <div class="demo-cell" data-testid="demo-cell" data-value=c.value style:background=c.colour.clone()
                    title=c.meaning.clone()></div>
            }
        })
        .collect_view();
    let legend = g
        .legend
        .iter()
        .map(|(colour, meaning)| {
            view! { <li><span class="swatch" style:background=colour.clone()></span>{meaning.clone()}</li> }
        })
        .collect_view();
    let label = format!("{}×{} board", g.width, g.height);
    let status = g.game_over.clone().unwrap_or_else(|| "playing".to_owned());
    view! {
        <p class="demo-status" class:over=g.game_over.is_some() data-testid="demo-status" role="status">{status}</p>
        <div class="demo-grid" data-testid="demo-grid" role="img" aria-label=label
            style:grid-template-columns=format!("repeat({}, 1fr)", g.width)>{cells}</div>
        <ul class="demo-legend">{legend}</ul>
    }
}

fn sudoku(s: &SudokuView) -> impl IntoView {
    let rows = s
        .cells
        .chunks(9)
        .map(|row| {
            let cells = row
                .iter()
                .map(|c| {
                    let text = (c.digit > 0).then(|| c.digit.to_string());
                    view! {
                        <div role="cell" class="demo-digit" data-testid="demo-digit" class:given=c.given>{text}</div>
                    }
                })
                .collect_view();
            view! { <div role="row" class="demo-row">{cells}</div> }
        })
        .collect_view();
    let status = match s.state {
        SudokuState::Running => "solving",
        SudokuState::Solved => "solved",
        SudokuState::Unsolvable => "no solution (or an invalid puzzle)",
    };
    view! {
        <p class="demo-status" class:over=s.state == SudokuState::Unsolvable data-testid="demo-status" role="status">
            {status}
        </p>
        <div class="demo-sudoku" data-testid="demo-sudoku" role="table" aria-label="Sudoku grid">{rows}</div>
    }
}

fn counters(i: &Info) -> impl IntoView {
    let items = i
        .counters
        .iter()
        .map(|c| {
            view! {
                <div title=c.meaning.clone()>
                    <dt>{c.label.clone()}</dt>
                    <dd data-testid=format!("demo-counter-{}", c.label.replace(' ', "-"))>{c.value}</dd>
                </div>
            }
        })
        .collect_view();
    let problem = i.problem.clone().map(|p| view! { <p class="demo-problem" role="alert">{p}</p> });
    view! {
        <dl class="demo-counters" data-testid="demo-counters">{items}</dl>
        {problem}
    }
}

fn buttons(controls: Vec<Control>, on_key: Callback<String>) -> Option<impl IntoView> {
    (!controls.is_empty()).then(|| {
        let items = controls
            .into_iter()
            .map(|c| {
                let key = c.key.clone();
                view! {
                    <button class=format!("demo-key {}", c.key) aria-label=c.aria data-testid="demo-key"
                        on:click=move |_| on_key.run(key.clone())>{c.label}</button>
                }
            })
            .collect_view();
        view! { <div class="demo-keys" role="group" aria-label="Direction">{items}</div> }
    })
}

fn puzzle_box(on_puzzle: Callback<String>) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match parse_puzzle(&text.get_untracked()) {
            Ok(_) => {
                error.set(None);
                on_puzzle.run(text.get_untracked());
            }
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <form class="demo-puzzle" on:submit=submit>
            <label for="demo-puzzle-text">"Your own puzzle: 81 digits, row by row, 0 or . for empty"</label>
            <textarea id="demo-puzzle-text" data-testid="demo-puzzle" rows="3" spellcheck="false"
                aria-invalid=move || error.with(Option::is_some).to_string()
                prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <button type="submit" data-testid="demo-puzzle-use">"Use this puzzle"</button>
            <p class="demo-problem" data-testid="demo-puzzle-error" role="alert">{move || error.get()}</p>
        </form>
    }
}

fn join(values: &[i32]) -> String {
    values.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
}
