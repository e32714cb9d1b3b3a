//! The demo registry: the C programs in `demos/` and their metadata, built
//! into the crate so the page and the CLI need no files at run time.
//!
//! The metadata (`demos/<id>.json`) tells a host which globals to write
//! ([`Meta::inputs`]), which to show ([`Meta::outputs`]) and how to draw the
//! display array ([`Display`]); the exchange itself is [`crate::host`].

use std::collections::BTreeMap;

/// One demo: its C source and its metadata text.
#[derive(Clone, Copy, Debug)]
pub struct Demo {
    pub id: &'static str,
    pub source: &'static str,
    pub meta_json: &'static str,
}

macro_rules! demo {
    ($id:literal) => {
        Demo {
            id: $id,
            source: include_str!(concat!("../../demos/", $id, ".c")),
            meta_json: include_str!(concat!("../../demos/", $id, ".json")),
        }
    };
}

/// Every demo, in the order the page lists them.
pub const DEMOS: [Demo; 4] = [demo!("sort"), demo!("snake"), demo!("sudoku"), demo!("hanoi")];

/// The demo called `id`.
pub fn demo(id: &str) -> Option<&'static Demo> {
    DEMOS.iter().find(|d| d.id == id)
}

impl Demo {
    /// The parsed metadata. The files are tested to parse, so failing here is a bug.
    pub fn meta(&self) -> Result<Meta, serde_json::Error> {
        serde_json::from_str(self.meta_json)
    }
}

/// `demos/<id>.json`.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Meta {
    pub id: String,
    pub title: String,
    pub description: String,
    /// Configuration preset the demo is written for (see [`crate::config::PRESETS`]).
    pub config: String,
    /// Frames per second a page should aim for when the demo pauses at `frame()`;
    /// absent: run to the end, drawing now and then.
    #[serde(default)]
    pub fps: Option<u32>,
    pub inputs: Vec<Input>,
    pub outputs: Vec<Output>,
    pub display: Display,
    /// Ready-made inputs: each writes whole globals before the run starts.
    pub examples: Vec<Example>,
    pub how_to_play: String,
}

/// A global the host writes.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Input {
    pub name: String,
    /// `"start"`: written once before the run; `"frame"`: written at every `frame()` pause.
    pub when: String,
    pub meaning: String,
    /// Named values for a picker.
    #[serde(default)]
    pub choices: Vec<Choice>,
    /// Keyboard keys (DOM `KeyboardEvent.key`) and the value each writes.
    #[serde(default)]
    pub keys: BTreeMap<String, i64>,
}

#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Choice {
    pub value: i64,
    pub label: String,
}

/// A global the host shows.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Output {
    pub name: String,
    pub meaning: String,
}

/// How to draw the display array `var`.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Display {
    /// `"bars"` (one bar per element, `height` = largest value), `"grid"`
    /// (`width × height` cells, row-major, coloured by the legend) or
    /// `"sudoku"` (a 9×9 grid of digits, negative = given).
    pub kind: String,
    pub var: String,
    pub width: usize,
    pub height: usize,
    pub legend: Vec<Legend>,
}

/// Values `from..=to` are drawn in `colour` and mean `meaning`.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Legend {
    pub from: i64,
    pub to: i64,
    pub colour: String,
    pub meaning: String,
}

#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Example {
    pub name: String,
    /// Global name → all of its words.
    pub writes: BTreeMap<String, Vec<i64>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn every_metadata_file_parses_and_agrees_with_its_demo() {
        for d in DEMOS {
            let meta = d.meta().unwrap_or_else(|e| panic!("{}.json: {e}", d.id));
            assert_eq!(meta.id, d.id);
            Config::preset(&meta.config).unwrap();
            let inputs: Vec<&str> = meta.inputs.iter().map(|i| i.name.as_str()).collect();
            for ex in &meta.examples {
                for name in ex.writes.keys() {
                    assert!(inputs.contains(&name.as_str()), "{}: example `{}` writes `{name}`", d.id, ex.name);
                }
            }
            for i in &meta.inputs {
                assert!(["start", "frame"].contains(&i.when.as_str()), "{}: `{}`", d.id, i.when);
            }
            assert!(["bars", "grid", "sudoku"].contains(&meta.display.kind.as_str()));
            assert!(demo(d.id).is_some_and(|x| x.source.contains("void main()")));
        }
        assert!(demo("tetris").is_none());
    }
}
