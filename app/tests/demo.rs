//! The demos as the page drives them: `DemoRunner` on the interpreter and on
//! the sparse transformer (natively with `cargo test`, and in headless Chromium
//! with `cargo test -p loom-app --target wasm32-unknown-unknown`), and
//! `DemoPanel`'s DOM for each view (Chromium only, in `panel` below).

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use loom_app::demo::{parse_puzzle, trace_matches, AttnMatch, DemoRunner, DemoView, SudokuState};
use loom_core::frontend::compile;
use loom_core::frontend::demos::{demo, Demo};
use loom_core::frontend::host::{read_scalar, read_var, run_to_frame, write_var};
use loom_core::frontend::Opcode;
use loom_core::frontend::Status;
use loom_core::frontend::{Config, Engine, Interp, Program};
use loom_core::frontend::{EngineKind, HeadRole, Machine};

/// A runner for demo `id`, its program, and the example called `example` prepared on a fresh `engine`.
fn start(id: &str, example: &str, engine: &str) -> (DemoRunner, Box<dyn Engine>) {
    let d = demo(id).unwrap();
    let mut runner = DemoRunner::new(d);
    let prog = build(id);
    let mut e: Box<dyn Engine> = match engine {
        "interp" => Box::new(Interp::new(&prog).unwrap()),
        _ => Box::new(Machine::new(EngineKind::Sparse, &prog).unwrap()),
    };
    let k = runner.examples().iter().position(|n| n == example).unwrap_or_else(|| panic!("no example {example}"));
    runner.prepare(e.as_mut(), k).unwrap();
    (runner, e)
}

fn build(id: &str) -> Program {
    let d = demo(id).unwrap();
    compile(d.source, Config::preset(&d.meta().unwrap().config).unwrap()).program.unwrap()
}

/// Runs to the end as the page does: at every frame the runner writes its queued inputs.
fn run_through_frames(runner: &mut DemoRunner, e: &mut dyn Engine) -> usize {
    let mut frames = 0;
    loop {
        match run_to_frame(e, 10_000) {
            Status::Running => {
                frames += 1;
                runner.at_frame(e);
            }
            Status::Halted => return frames,
            other => panic!("stopped with {other:?} after {frames} frames"),
        }
    }
}

fn counter(v: &DemoView, label: &str) -> i64 {
    v.info().counters.iter().find(|c| c.label == label).unwrap_or_else(|| panic!("no counter {label}")).value
}

#[test]
fn examples_cross_algorithms_and_add_random_setups() {
    let sort = DemoRunner::new(demo("sort").unwrap()).examples();
    assert_eq!(sort.len(), 3 * 5, "{sort:?}");
    assert!(sort.contains(&"Selection sort · Random shuffle".to_owned()));
    let snake = DemoRunner::new(demo("snake").unwrap()).examples();
    assert_eq!(snake, ["Seed 1", "Seed 42", "Random seed"]);
    let sudoku = DemoRunner::new(demo("sudoku").unwrap()).examples();
    assert_eq!(sudoku.len(), 4);
    assert!(sudoku[0].starts_with("Easy"));
}

#[test]
fn pacing_follows_the_metadata_fps() {
    assert_eq!(DemoRunner::new(demo("sort").unwrap()).frame_interval_ms(), Some(250.0));
    assert_eq!(DemoRunner::new(demo("snake").unwrap()).frame_interval_ms(), Some(1000.0 / 12.0));
    assert_eq!(DemoRunner::new(demo("sudoku").unwrap()).frame_interval_ms(), None);
}

#[test]
fn sort_runs_through_frames_on_both_engines() {
    let mut views = Vec::new();
    for engine in ["interp", "sparse"] {
        let (mut runner, mut e) = start("sort", "Insertion sort · Reversed", engine);
        let frames = run_through_frames(&mut runner, e.as_mut());
        assert_eq!(frames, 11, "insertion sort pauses after placing each of elements 1..12");
        let view = runner.view(e.as_ref(), &[]);
        let DemoView::Bars(_, bars) = &view else { panic!("{view:?}") };
        assert_eq!(bars.values, (1..=12).map(|k| 8 * k).collect::<Vec<i32>>());
        assert_eq!(bars.algorithm.as_deref(), Some("Insertion sort"));
        assert_eq!(counter(&view, "compares"), 66, "reversed input: every pair compared");
        assert_eq!(counter(&view, "steps"), e.steps() as i64);
        views.push(view);
    }
    assert_eq!(views[0], views[1], "the transformer draws what the interpreter draws");
}

#[test]
fn random_shuffles_differ_and_stay_in_range() {
    let d = demo("sort").unwrap();
    let prog = build("sort");
    let mut runner = DemoRunner::new(d);
    let k = runner.examples().iter().position(|n| n == "Bubble sort · Random shuffle").unwrap();
    let mut drawn = Vec::new();
    for seed in [1, 2] {
        let mut e = Interp::new(&prog).unwrap();
        runner.reseed(seed);
        runner.prepare(&mut e, k).unwrap();
        let values = read_var(&e, "values").unwrap();
        assert!(values.iter().all(|v| (1..=99).contains(v)), "{values:?}");
        drawn.push(values);
    }
    assert_ne!(drawn[0], drawn[1]);
}

/// The head's cell (y·8 + x).
fn head(runner: &DemoRunner, e: &dyn Engine) -> usize {
    let view = runner.view(e, &[]);
    let DemoView::Grid(_, g) = &view else { panic!("{view:?}") };
    assert_eq!((g.width, g.height, g.cells.len()), (8, 8, 64));
    g.cells.iter().position(|c| c.value == 2).expect("a head")
}

#[test]
fn snake_keys_turn_the_snake_on_both_engines() {
    for engine in ["interp", "sparse"] {
        let (mut runner, mut e) = start("snake", "Seed 1", engine);
        let tick = |runner: &mut DemoRunner, e: &mut Box<dyn Engine>| {
            runner.at_frame(e.as_mut());
            assert_eq!(run_to_frame(e.as_mut(), 5_000), Status::Running);
            head(runner, e.as_ref())
        };
        assert_eq!(run_to_frame(e.as_mut(), 5_000), Status::Running);
        assert_eq!(head(&runner, e.as_ref()), 4 * 8 + 2, "starts at (2, 4)");
        assert_eq!(tick(&mut runner, &mut e), 4 * 8 + 3, "no key: on to the right");
        assert!(runner.on_key("ArrowUp"));
        assert_eq!(tick(&mut runner, &mut e), 3 * 8 + 3, "up");
        // Two presses before a tick make two turns, one per tick; "A" is "a".
        assert!(runner.on_key("A") && runner.on_key("s"));
        assert_eq!(tick(&mut runner, &mut e), 3 * 8 + 2, "left");
        assert_eq!(tick(&mut runner, &mut e), 4 * 8 + 2, "down");
        assert!(!runner.on_key("x") && !runner.on_key("Enter"));
        assert_eq!(tick(&mut runner, &mut e), 5 * 8 + 2, "still down");
        let view = runner.view(e.as_ref(), &[]);
        let DemoView::Grid(info, g) = &view else { panic!() };
        assert_eq!(g.game_over, None);
        assert_eq!(
            info.controls.iter().map(|c| c.aria.as_str()).collect::<Vec<_>>(),
            ["Move up", "Move left", "Move down", "Move right"]
        );
        assert_eq!(counter(&view, "score"), i64::from(read_scalar(e.as_ref(), "score").unwrap()));
    }
}

#[test]
fn snake_reports_game_over_at_the_wall() {
    let (mut runner, mut e) = start("snake", "Seed 42", "interp");
    assert!(runner.on_key("ArrowUp"));
    assert_eq!(run_through_frames(&mut runner, e.as_mut()), 5, "4 rows up from y = 4, then the wall");
    let DemoView::Grid(_, g) = runner.view(e.as_ref(), &[]) else { panic!() };
    assert_eq!(g.game_over.as_deref(), Some("Game over"));
}

#[test]
fn sort_highlight_comes_from_the_attention_heads() {
    let mut runner = DemoRunner::new(demo("sort").unwrap());
    let mut e = Machine::new(EngineKind::Sparse, &build("sort")).unwrap();
    let k = runner.examples().iter().position(|n| n == "Bubble sort · Shuffled").unwrap();
    runner.prepare(&mut e, k).unwrap();
    let count = |e: &Machine, name: &str| read_scalar(e, name).unwrap() as usize;
    while count(&e, "compares") == 0 {
        e.step();
    }
    // Trace the steps from one comparison to the next on the transformer: the
    // heads' matches alone must name the pair compared (and the pair swapped).
    for k in 1..6 {
        let moves = count(&e, "moves");
        let mut matches: Vec<AttnMatch> = Vec::new();
        while count(&e, "compares") == k {
            let (status, trace) = e.step_traced();
            assert_eq!(status, Status::Running);
            matches.extend(trace_matches(&trace.expect("a transformer traces")));
        }
        let view = runner.view(&e, &matches);
        let DemoView::Bars(_, bars) = &view else { panic!("{view:?}") };
        assert_eq!(bars.compared, [k, k + 1], "comparison {} of the first pass", k + 1);
        let swapped = count(&e, "moves") > moves;
        assert_eq!(bars.moved, if swapped { vec![k - 1, k] } else { vec![] }, "comparison {k}'s swap");
    }
}

#[test]
fn one_traced_load_names_one_element() {
    let mut runner = DemoRunner::new(demo("sort").unwrap());
    let prog = build("sort");
    let mut e = Machine::new(EngineKind::Sparse, &prog).unwrap();
    runner.prepare(&mut e, 0).unwrap();
    // Step until a LOAD is next, then trace it alone.
    let is_load = |e: &Machine| {
        let k = e.pc() - prog.config.instr_col(0);
        prog.code[k].opcode() == Some(Opcode::Load)
    };
    while !is_load(&e) {
        e.step();
    }
    let (_, trace) = e.step_traced();
    let matches = trace_matches(&trace.expect("a transformer traces"));
    assert!(matches.iter().any(|m| m.0 == HeadRole::Load), "{matches:?}");
    let DemoView::Bars(_, bars) = runner.view(&e, &matches) else { panic!() };
    assert_eq!((bars.compared.len(), bars.moved.len()), (1, 0), "{bars:?}");
    assert_eq!(bars.compared[0], 0, "the first LOAD of the first pass reads values[0]");
}

#[test]
fn sudoku_view_decodes_givens_and_two_word_counters() {
    let (runner, mut e) = start("sudoku", "Classic (the Wikipedia example)", "interp");
    let puzzle = read_var(e.as_ref(), "grid").unwrap();
    let givens = |v: &DemoView| {
        let DemoView::Sudoku(_, s) = v else { panic!("{v:?}") };
        s.cells.iter().map(|c| if c.given { i32::from(c.digit) } else { 0 }).collect::<Vec<_>>()
    };
    assert_eq!(givens(&runner.view(e.as_ref(), &[])), puzzle, "before the run: the prepared digits");
    // The first placement comes after the walk that checks (and negates) the givens.
    while read_scalar(e.as_ref(), "placements").unwrap() == 0 {
        e.step();
    }
    let raw = read_var(e.as_ref(), "grid").unwrap();
    assert!(raw.iter().zip(&puzzle).all(|(r, p)| *p == 0 || *r == -p), "the program negated the givens");
    assert_eq!(givens(&runner.view(e.as_ref(), &[])), puzzle, "negative words are drawn as given digits");
    // 16-bit counters: the low word is read unsigned (200 is stored as −56).
    write_var(e.as_mut(), "placements", &[200]).unwrap();
    write_var(e.as_mut(), "placements_hi", &[2]).unwrap();
    write_var(e.as_mut(), "backtracks", &[7]).unwrap();
    write_var(e.as_mut(), "backtracks_hi", &[0]).unwrap();
    let view = runner.view(e.as_ref(), &[]);
    assert_eq!((counter(&view, "placements"), counter(&view, "backtracks")), (2 * 256 + 200, 7));
    assert!(view.info().counters.iter().all(|c| !c.label.ends_with("hi")), "high words fold into their counter");
}

#[test]
fn sudoku_solves_on_the_interpreter_and_the_transformer_agrees_on_a_prefix() {
    let (runner, mut e) = start("sudoku", "Easy (Project Euler 96, grid 1)", "interp");
    let (_, mut t) = start("sudoku", "Easy (Project Euler 96, grid 1)", "sparse");
    e.run(4_000, None);
    t.run(4_000, None);
    assert_eq!(runner.view(e.as_ref(), &[]), runner.view(t.as_ref(), &[]), "same picture after 4000 steps");
    assert_eq!(e.run(1_000_000, None), Status::Halted);
    let view = runner.view(e.as_ref(), &[]);
    let DemoView::Sudoku(_, s) = &view else { panic!() };
    assert_eq!(s.state, SudokuState::Solved);
    for unit in 0..9 {
        let row: Vec<u8> = (0..9).map(|k| s.cells[unit * 9 + k].digit).collect();
        let col: Vec<u8> = (0..9).map(|k| s.cells[k * 9 + unit].digit).collect();
        let bx: Vec<u8> = (0..9).map(|k| s.cells[(unit / 3 * 3 + k / 3) * 9 + unit % 3 * 3 + k % 3].digit).collect();
        for mut group in [row, col, bx] {
            group.sort_unstable();
            assert_eq!(group, (1..=9).collect::<Vec<u8>>());
        }
    }
    let placed = s.cells.iter().filter(|c| !c.given).count() as i64;
    assert!(counter(&view, "placements") >= placed);
}

#[test]
fn an_invalid_sudoku_is_reported_unsolvable() {
    let (runner, mut e) = start("sudoku", "Invalid (two 5s in the first row)", "interp");
    assert_eq!(e.run(100_000, None), Status::Halted);
    let DemoView::Sudoku(_, s) = runner.view(e.as_ref(), &[]) else { panic!() };
    assert_eq!(s.state, SudokuState::Unsolvable);
}

#[test]
fn typed_puzzles_are_checked_then_prepared() {
    assert!(parse_puzzle("123").unwrap_err().contains("has 3"));
    assert!(parse_puzzle(&"1".repeat(82)).unwrap_err().contains("has 82"));
    let err = parse_puzzle(&format!("{}x", ".".repeat(80))).unwrap_err();
    assert!(err.contains("`x`") && err.contains("character 81"), "{err}");
    let text = "530070000 600195000 098000060 800060003 400803001 700020006 060000280 000419005 000080079";
    let cells = parse_puzzle(&text.replace(' ', "\n")).unwrap();
    assert_eq!((cells.len(), cells[0], cells[1], cells[2]), (81, 5, 3, 0));

    let mut runner = DemoRunner::new(demo("sudoku").unwrap());
    assert!(runner.set_puzzle("12").is_err());
    assert_eq!(runner.examples().len(), 4, "a refused puzzle adds nothing");
    let k = runner.set_puzzle(text).unwrap();
    assert_eq!(runner.examples()[k], "Your puzzle");
    assert_eq!(runner.set_puzzle(&text.replace('5', ".")).unwrap(), k, "a second puzzle replaces the first");
    let mut e = Interp::new(&build("sudoku")).unwrap();
    runner.prepare(&mut e, k).unwrap();
    assert_eq!(read_var(&e, "grid").unwrap()[..3], [0, 3, 0]);
    assert!(!runner.on_key("ArrowUp"), "sudoku takes no keys");
}

/// The fenced block of `lang` in the manual's chapter on writing a game.
fn manual_block(lang: &str) -> &'static str {
    let text = include_str!("../../docs/src/games.md");
    let start = text.find(&format!("```{lang}\n")).expect("a block") + lang.len() + 4;
    &text[start..start + text[start..].find("```").expect("a closed block")]
}

#[test]
fn the_manual_game_plays() {
    let dot: &'static Demo =
        Box::leak(Box::new(Demo { id: "dot", source: manual_block("c"), meta_json: manual_block("json") }));
    let meta = dot.meta().expect("the README's metadata parses");
    let prog = compile(dot.source, Config::preset(&meta.config).unwrap()).program.expect("the README's game compiles");
    let mut runner = DemoRunner::new(dot);
    assert_eq!(runner.examples(), ["Start"]);
    let mut e = Interp::new(&prog).unwrap();
    runner.prepare(&mut e, 0).unwrap();
    let dot_at = |runner: &DemoRunner, e: &Interp| {
        let DemoView::Grid(_, g) = runner.view(e, &[]) else { panic!() };
        g.cells.iter().position(|c| c.value == 1)
    };
    for key in ["ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight"] {
        assert_eq!(run_to_frame(&mut e, 1_000), Status::Running);
        assert!(runner.on_key(key));
        runner.at_frame(&mut e);
    }
    assert_eq!(run_to_frame(&mut e, 1_000), Status::Running);
    assert_eq!(dot_at(&runner, &e), Some(11), "from (1, 1): down, then right to the edge");
    assert_eq!(counter(&runner.view(&e, &[]), "moves"), 4);
}

/// `DemoPanel` mounted into a test div, one view per demo.
#[cfg(target_arch = "wasm32")]
mod panel {
    use super::*;
    use leptos::prelude::*;
    use leptos::wasm_bindgen::JsCast;
    use loom_app::demo::DemoPanel;
    use std::sync::{Arc, Mutex};
    use wasm_bindgen_test::wasm_bindgen_test;
    use web_sys::{Element, HtmlElement, HtmlSelectElement, HtmlTextAreaElement};

    /// What the panel reported through its callbacks.
    type Log = Arc<Mutex<Vec<String>>>;

    fn mount(view: DemoView, examples: Vec<String>) -> (HtmlElement, Log) {
        let doc = web_sys::window().unwrap().document().unwrap();
        let host: HtmlElement = doc.create_element("div").unwrap().unchecked_into();
        doc.body().unwrap().append_child(&host).unwrap();
        let log = Log::default();
        let (a, b, c) = (log.clone(), log.clone(), log.clone());
        let view = RwSignal::new(Some(view));
        let examples = RwSignal::new(examples);
        leptos::mount::mount_to(host.clone(), move || {
            view! {
                <DemoPanel view runner_examples=examples
                    on_example=Callback::new(move |k: usize| a.lock().unwrap().push(format!("example {k}")))
                    on_key=Callback::new(move |key: String| b.lock().unwrap().push(format!("key {key}")))
                    on_puzzle=Callback::new(move |text: String| c.lock().unwrap().push(format!("puzzle {text}"))) />
            }
        })
        .forget();
        (host, log)
    }

    fn all(host: &HtmlElement, class: &str) -> Vec<Element> {
        let list = host.get_elements_by_class_name(class);
        (0..list.length()).filter_map(|i| list.item(i)).collect()
    }

    fn one(host: &HtmlElement, testid: &str) -> Element {
        host.query_selector(&format!("[data-testid={testid}]")).unwrap().unwrap_or_else(|| panic!("no {testid}"))
    }

    fn has_class(e: &Element, class: &str) -> bool {
        e.get_attribute("class").unwrap_or_default().split(' ').any(|c| c == class)
    }

    #[wasm_bindgen_test]
    fn bars_show_values_highlight_and_the_picker() {
        let (runner, e) = start("sort", "Bubble sort · Shuffled", "interp");
        let prog = e.program();
        let values = prog.symbol("values").unwrap().slot;
        let col = |k: usize| prog.config.mem_col(values + k);
        let matches: Vec<AttnMatch> =
            vec![(HeadRole::Load, 0, vec![0, col(3)]), (HeadRole::SecondWrite, 0, vec![0, col(4)])];
        let (host, log) = mount(runner.view(e.as_ref(), &matches), runner.examples());
        let bars = all(&host, "demo-bar");
        assert_eq!(bars.len(), 12);
        assert_eq!(bars[0].get_attribute("title").as_deref(), Some("42"));
        assert!(has_class(&bars[3], "compared") && has_class(&bars[4], "moved") && !has_class(&bars[5], "compared"));
        assert_eq!(one(&host, "demo-status").text_content().as_deref(), Some("Bubble sort"));
        assert_eq!(one(&host, "demo-counter-compares").text_content().as_deref(), Some("0"));
        assert!(one(&host, "demo-bars").get_attribute("aria-label").unwrap().starts_with("12 values: 42, 7"));
        let select: HtmlSelectElement = one(&host, "demo-example").unchecked_into();
        assert_eq!(select.length(), 15);
        select.set_selected_index(2);
        select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
        assert_eq!(*log.lock().unwrap(), ["example 2"]);
        assert!(host.query_selector("[data-testid=demo-puzzle]").unwrap().is_none(), "no puzzle box for sorting");
    }

    #[wasm_bindgen_test]
    fn the_snake_board_and_its_buttons() {
        let (runner, mut e) = start("snake", "Seed 1", "interp");
        assert_eq!(run_to_frame(e.as_mut(), 5_000), Status::Running);
        let (host, log) = mount(runner.view(e.as_ref(), &[]), runner.examples());
        let cells = all(&host, "demo-cell");
        assert_eq!(cells.len(), 64);
        let heads: Vec<usize> =
            (0..64).filter(|&i| cells[i].get_attribute("data-value").as_deref() == Some("2")).collect();
        assert_eq!(heads, [34]);
        assert_eq!(one(&host, "demo-status").text_content().as_deref(), Some("playing"));
        let keys = all(&host, "demo-key");
        let labels: Vec<String> = keys.iter().filter_map(|k| k.get_attribute("aria-label")).collect();
        assert_eq!(labels, ["Move up", "Move left", "Move down", "Move right"]);
        keys[0].unchecked_ref::<HtmlElement>().click();
        keys[3].unchecked_ref::<HtmlElement>().click();
        assert_eq!(*log.lock().unwrap(), ["key ArrowUp", "key ArrowRight"]);
    }

    #[wasm_bindgen_test]
    async fn the_sudoku_grid_and_the_puzzle_box() {
        let (runner, e) = start("sudoku", "Classic (the Wikipedia example)", "interp");
        let (host, log) = mount(runner.view(e.as_ref(), &[]), runner.examples());
        let digits = all(&host, "demo-digit");
        assert_eq!(digits.len(), 81);
        assert_eq!(digits.iter().filter(|d| has_class(d, "given")).count(), 30);
        assert_eq!((digits[0].text_content().unwrap(), digits[2].text_content().unwrap()), ("5".into(), "".into()));
        assert_eq!(one(&host, "demo-status").text_content().as_deref(), Some("solving"));

        let text: HtmlTextAreaElement = one(&host, "demo-puzzle").unchecked_into();
        let submit: HtmlElement = one(&host, "demo-puzzle-use").unchecked_into();
        let type_in = |s: &str| {
            text.set_value(s);
            text.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
        };
        type_in("12x");
        submit.click();
        leptos::task::tick().await;
        let error = one(&host, "demo-puzzle-error").text_content().unwrap();
        assert!(error.contains("`x`"), "{error}");
        assert_eq!(text.get_attribute("aria-invalid").as_deref(), Some("true"));
        assert!(log.lock().unwrap().is_empty(), "a bad puzzle is not passed on");
        let good = ".".repeat(80) + "7";
        type_in(&good);
        submit.click();
        leptos::task::tick().await;
        assert_eq!(*log.lock().unwrap(), [format!("puzzle {good}")]);
        assert_eq!(one(&host, "demo-puzzle-error").text_content().as_deref(), Some(""));
    }
}

#[test]
fn a_saved_demo_comes_back_only_while_its_source_is_unedited() {
    let sort = demo("sort").unwrap();
    assert_eq!(loom_app::demo::restored(Some("sort"), sort.source), Some("sort"));
    let edited = sort.source.replace("compares++;", "compares += 2;");
    assert_eq!(loom_app::demo::restored(Some("sort"), &edited), None, "an edited demo is the user's program");
    assert_eq!(loom_app::demo::restored(Some("snake"), sort.source), None, "another demo's source");
    assert_eq!(loom_app::demo::restored(None, sort.source), None);
    assert_eq!(loom_app::demo::restored(Some("<nope>"), ""), None);
}
