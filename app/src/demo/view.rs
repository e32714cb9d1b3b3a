//! What a demo looks like now, as plain data: built from the engine's memory
//! (through the symbol table) and the metadata, drawn by [`super::DemoPanel`].

use super::attention::{touched, AttnMatch};
use loom_core::frontend::demos::Meta;
use loom_core::frontend::host::{global, read_var};
use loom_core::frontend::{Config, Engine};

/// Outputs shown as the demo's state rather than as counters.
const STATE_OUTPUTS: [&str; 2] = ["game_over", "solved"];

/// Suffix of the high word of a two-word counter (`demos/README.md`, point 5).
pub const HIGH_WORD: &str = "_hi";

/// A counter kept in two words, `low` and its `…_hi`: the whole value, both read unsigned.
pub fn two_words(low: i32, high: i32, cfg: &Config) -> i64 {
    (i64::from(cfg.unsigned(high)) << cfg.word_bits) + i64::from(cfg.unsigned(low))
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum DemoView {
    Bars(Info, BarsView),
    Grid(Info, GridView),
    Sudoku(Info, SudokuView),
}

impl DemoView {
    pub fn info(&self) -> &Info {
        match self {
            DemoView::Bars(i, _) | DemoView::Grid(i, _) | DemoView::Sudoku(i, _) => i,
        }
    }
}

/// What every demo shows besides its picture.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Info {
    pub title: String,
    pub how_to_play: String,
    /// Steps, then the metadata's outputs (two-word counters combined).
    pub counters: Vec<Counter>,
    /// On-screen buttons standing for keys (Snake's arrows).
    pub controls: Vec<Control>,
    /// Why the program and its metadata disagree (e.g. a renamed global).
    pub problem: Option<String>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Counter {
    pub label: String,
    /// The output's meaning from the metadata (a tooltip).
    pub meaning: String,
    pub value: i64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Control {
    /// The `KeyboardEvent.key` the button sends to `on_key`.
    pub key: String,
    /// What the button shows (an arrow).
    pub label: String,
    /// What a screen reader says.
    pub aria: String,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BarsView {
    pub values: Vec<i32>,
    /// The largest value a bar can have (the full height).
    pub max: i32,
    pub colour: String,
    /// The last two elements the attention heads read (being compared), oldest first.
    pub compared: Vec<usize>,
    /// Elements the write heads wrote (being moved or swapped).
    pub moved: Vec<usize>,
    /// The label of the chosen algorithm (the first choice input's value).
    pub algorithm: Option<String>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GridView {
    pub width: usize,
    pub height: usize,
    /// Row-major.
    pub cells: Vec<GridCell>,
    /// `(colour, meaning)` per legend entry.
    pub legend: Vec<(String, String)>,
    /// `None` while playing; else "Game over" or "You won".
    pub game_over: Option<String>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GridCell {
    pub value: i32,
    pub colour: String,
    pub meaning: String,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SudokuView {
    /// 81 cells, row by row.
    pub cells: Vec<SudokuCell>,
    pub state: SudokuState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SudokuCell {
    /// 0 = empty.
    pub digit: u8,
    pub given: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SudokuState {
    Running,
    Solved,
    Unsolvable,
}

/// The view of `engine` running the demo described by `meta`. `prepared` is
/// the display array as prepared (Sudoku's givens before the program negates them).
pub fn build(
    meta: &Meta,
    prepared: &[i64],
    problem: Option<&str>,
    engine: &dyn Engine,
    matches: &[AttnMatch],
) -> DemoView {
    let mut problem = problem.map(str::to_owned);
    let display = read_var(engine, &meta.display.var).unwrap_or_else(|e| {
        problem.get_or_insert(e.to_string());
        Vec::new()
    });
    let info = Info {
        title: meta.title.clone(),
        how_to_play: meta.how_to_play.clone(),
        counters: counters(meta, engine),
        controls: controls(meta),
        problem,
    };
    let scalar = |name: &str| read_var(engine, name).ok().and_then(|v| v.first().copied());
    match meta.display.kind.as_str() {
        "bars" => DemoView::Bars(info, bars(meta, engine, display, matches)),
        "sudoku" => {
            let cells = display
                .iter()
                .enumerate()
                .map(|(i, &v)| SudokuCell {
                    digit: v.unsigned_abs().min(9) as u8,
                    given: v < 0 || (v > 0 && prepared.get(i) == Some(&i64::from(v))),
                })
                .collect();
            let state = match scalar("solved") {
                Some(1) => SudokuState::Solved,
                Some(-1) => SudokuState::Unsolvable,
                _ => SudokuState::Running,
            };
            DemoView::Sudoku(info, SudokuView { cells, state })
        }
        _ => {
            let game_over = match scalar("game_over") {
                None | Some(0) => None,
                Some(2) => Some("You won".to_owned()),
                Some(_) => Some("Game over".to_owned()),
            };
            DemoView::Grid(info, grid(meta, display, game_over))
        }
    }
}

fn bars(meta: &Meta, engine: &dyn Engine, values: Vec<i32>, matches: &[AttnMatch]) -> BarsView {
    let prog = engine.program();
    let t = global(prog, &meta.display.var).map(|s| touched(&prog.config, s.slot, s.len, matches)).unwrap_or_default();
    let compared = t.read[t.read.len().saturating_sub(2)..].to_vec();
    let algorithm = meta.inputs.iter().filter(|i| !i.choices.is_empty()).find_map(|i| {
        let v = i64::from(*read_var(engine, &i.name).ok()?.first()?);
        Some(i.choices.iter().find(|c| c.value == v)?.label.clone())
    });
    BarsView {
        max: meta.display.height as i32,
        colour: meta.display.legend.first().map_or_else(String::new, |l| l.colour.clone()),
        values,
        compared,
        moved: t.written,
        algorithm,
    }
}

fn grid(meta: &Meta, values: Vec<i32>, game_over: Option<String>) -> GridView {
    let legend = &meta.display.legend;
    let cells = values
        .into_iter()
        .map(|value| {
            let entry = legend.iter().find(|l| (l.from..=l.to).contains(&i64::from(value)));
            GridCell {
                value,
                colour: entry.map_or_else(String::new, |l| l.colour.clone()),
                meaning: entry.map_or_else(|| value.to_string(), |l| l.meaning.clone()),
            }
        })
        .collect();
    GridView {
        width: meta.display.width,
        height: meta.display.height,
        cells,
        legend: legend.iter().map(|l| (l.colour.clone(), l.meaning.clone())).collect(),
        game_over,
    }
}

/// Steps, then every output that is not a state or the high word of another.
fn counters(meta: &Meta, engine: &dyn Engine) -> Vec<Counter> {
    let cfg = engine.program().config;
    let word = |name: &str| read_var(engine, name).ok().and_then(|v| v.first().copied());
    let steps =
        Counter { label: "steps".into(), meaning: "instructions executed".into(), value: engine.steps() as i64 };
    let outputs = meta.outputs.iter().filter(|o| {
        let is_high = o.name.strip_suffix(HIGH_WORD).is_some_and(|base| meta.outputs.iter().any(|p| p.name == base));
        !is_high && !STATE_OUTPUTS.contains(&o.name.as_str())
    });
    let shown = outputs.filter_map(|o| {
        let low = word(&o.name)?;
        let value = match word(&format!("{}{HIGH_WORD}", o.name)) {
            Some(high) => two_words(low, high, &cfg),
            None => i64::from(low),
        };
        Some(Counter { label: o.name.replace('_', " "), meaning: o.meaning.clone(), value })
    });
    std::iter::once(steps).chain(shown).collect()
}

/// A button per arrow key the frame inputs listen to.
fn controls(meta: &Meta) -> Vec<Control> {
    const ARROWS: [(&str, &str); 4] = [("Up", "↑"), ("Left", "←"), ("Down", "↓"), ("Right", "→")];
    let keys: Vec<&String> = meta.inputs.iter().filter(|i| i.when == "frame").flat_map(|i| i.keys.keys()).collect();
    ARROWS
        .iter()
        .filter_map(|(dir, arrow)| {
            let key = format!("Arrow{dir}");
            keys.contains(&&key).then(|| Control {
                key,
                label: (*arrow).to_owned(),
                aria: format!("Move {}", dir.to_lowercase()),
            })
        })
        .collect()
}
