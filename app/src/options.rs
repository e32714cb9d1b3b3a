//! The embed options: what `index.html?embed&…` and the attributes of
//! `<loom-playground>` ask for. Their names and values are a contract (the
//! manual's `docs/src/embedding.md` documents each); this module reads them from
//! name/value pairs, whatever their source, and says which it ignored and why.

use crate::lesson::{self, Lesson};
use crate::link::{self, Shared};
use loom_core::frontend::Config;
use loom_core::frontend::EngineKind;

/// A view a widget can show, by its id in `panels=`. The order of [`Panel::ALL`]
/// is the full page's; a widget shows the ones asked for, in the order given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    Editor,
    Heatmap,
    Attention,
    Machine,
    Demo,
    Console,
    Explain,
    /// The call stack.
    Stack,
    /// The memory view: frames and globals as cells, pointers as arrows.
    Memory,
}

impl Panel {
    pub const ALL: [Panel; 9] = [
        Panel::Editor,
        Panel::Heatmap,
        Panel::Attention,
        Panel::Machine,
        Panel::Demo,
        Panel::Console,
        Panel::Explain,
        Panel::Stack,
        Panel::Memory,
    ];

    /// The id in `panels=` (a contract).
    pub fn id(self) -> &'static str {
        match self {
            Panel::Editor => "editor",
            Panel::Heatmap => "heatmap",
            Panel::Attention => "attention",
            Panel::Machine => "machine",
            Panel::Demo => "demo",
            Panel::Console => "console",
            Panel::Explain => "explain",
            Panel::Stack => "stack",
            Panel::Memory => "memory",
        }
    }

    /// What a person reads on its tab.
    pub fn label(self) -> &'static str {
        match self {
            Panel::Editor => "Program",
            Panel::Heatmap => "Tensor",
            Panel::Attention => "Attention",
            Panel::Machine => "Machine",
            Panel::Demo => "Demo",
            Panel::Console => "Console",
            Panel::Explain => "Explain",
            Panel::Stack => "Call stack",
            Panel::Memory => "Memory",
        }
    }

    pub fn by_id(id: &str) -> Option<Panel> {
        Panel::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// `theme=`: the widget's colours (default: the system's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeChoice {
    Light,
    Dark,
}

/// What a widget was asked to show and do.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// `embed`: the chrome-less widget instead of the full page.
    pub embed: bool,
    pub demo: Option<String>,
    /// The views, in priority order (empty: [`Options::panels`] picks).
    pub panels: Vec<Panel>,
    pub readonly: bool,
    pub autoplay: bool,
    /// Steps per second (0 = as fast as possible).
    pub speed: Option<u32>,
    /// Open stopped after this many steps.
    pub step: Option<u64>,
    pub theme: Option<ThemeChoice>,
    pub config: Option<String>,
    pub engine: Option<EngineKind>,
    /// The program and its state, as a v2 link carries it (`state=` of the custom element).
    pub state: Option<Shared>,
    /// `lesson=`: a built-in lesson by id (an iframe's `#lesson=…` fragment too), played over the panels.
    pub lesson: Option<Lesson>,
    /// `worker=0`: the session runs in the page's own thread (time-sliced)
    /// instead of a web worker.
    pub in_page: bool,
    /// `input=`: the text the program reads (the Input box's).
    pub input: Option<String>,
    /// Options that were ignored, each with its reason (shown by the widget).
    pub problems: Vec<String>,
}

/// Whether a flag's value turns it on: present, unless `0`, `false` or `no`.
fn flag(value: &str) -> bool {
    !matches!(value.trim().to_ascii_lowercase().as_str(), "0" | "false" | "no")
}

impl Options {
    /// Reads `name=value` pairs (a query string's, or an element's attributes).
    /// Unknown names are ignored silently (a host page's own attributes);
    /// bad values are ignored and listed in `problems`.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Options {
        let mut o = Options::default();
        for (name, value) in pairs {
            if let Err(e) = o.set(name, value) {
                o.problems.push(format!("{name}: {e}"));
            }
        }
        o
    }

    /// Reads a query string (`?embed&panels=heatmap`, with or without its `?`).
    pub fn from_query(query: &str) -> Options {
        let query = query.strip_prefix('?').unwrap_or(query);
        let pairs: Vec<(String, String)> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                let v = v.replace('+', " ");
                (k.to_owned(), link::percent_decode(&v).unwrap_or_else(|_| "\u{fffd}".into()))
            })
            .collect();
        Options::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }

    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "embed" => self.embed = flag(value),
            "readonly" => self.readonly = flag(value),
            "autoplay" => self.autoplay = flag(value),
            "worker" => self.in_page = !flag(value),
            "demo" => {
                loom_core::frontend::demos::demo(value).ok_or_else(|| format!("no demo \u{201c}{value}\u{201d}"))?;
                self.demo = Some(value.to_owned());
            }
            "panels" => {
                let mut panels = Vec::new();
                let mut unknown = Vec::new();
                for id in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    match Panel::by_id(id) {
                        Some(p) if !panels.contains(&p) => panels.push(p),
                        Some(_) => {}
                        None => unknown.push(id.to_owned()),
                    }
                }
                self.panels = panels;
                if !unknown.is_empty() {
                    let known: Vec<_> = Panel::ALL.iter().map(|p| p.id()).collect();
                    return Err(format!("no panel {} (there are: {})", unknown.join(", "), known.join(", ")));
                }
            }
            "speed" => {
                self.speed =
                    Some(value.trim().parse().map_err(|_| format!("not a number of steps per second: {value}"))?)
            }
            "step" => {
                let n: u64 = value.trim().parse().map_err(|_| format!("not a step number: {value}"))?;
                if n > link::MAX_STEP {
                    return Err(format!("at most {}", link::MAX_STEP));
                }
                self.step = Some(n);
            }
            "theme" => {
                self.theme = Some(match value {
                    "light" => ThemeChoice::Light,
                    "dark" => ThemeChoice::Dark,
                    _ => return Err(format!("light or dark, not {value}")),
                })
            }
            "config" => {
                Config::preset(value).map_err(|e| e.to_string())?;
                self.config = Some(value.to_owned());
            }
            "engine" => self.engine = Some(EngineKind::by_name(value)?),
            "input" => self.input = Some(value.to_owned()),
            "lesson" => self.lesson = Some(lesson::by_id(value).map_err(|e| e.to_string())?),
            // The payload of a v2 link, or a whole fragment (`v2=…`, `#src=…`).
            "state" => {
                match link::decode(&if value.contains('=') { value.to_owned() } else { format!("v2={value}") }) {
                    Some(Ok(s)) => self.state = Some(s),
                    Some(Err(e)) => return Err(e.to_string()),
                    None => {}
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// What the widget opens: the `state` (or, for an iframe, the link in
    /// its fragment), with `demo`, `config`, `engine` and `step` over it.
    pub fn start(&self, fragment: Option<Shared>) -> Shared {
        let mut s = self.state.clone().or(fragment).unwrap_or_default();
        if let Some(d) = &self.demo {
            s.demo = Some(d.clone());
        }
        if let Some(c) = &self.config {
            s.config = Some(c.clone());
        }
        if let Some(e) = self.engine {
            s.engine = Some(e.name().to_owned());
        }
        if let Some(n) = self.step {
            s.step = n;
        }
        s
    }

    /// The views to show, in priority order: those asked for, or by default
    /// the demo (when there is one), the program, the machine and the tensor.
    pub fn panels(&self) -> Vec<Panel> {
        if !self.panels.is_empty() {
            return self.panels.clone();
        }
        let demo = self.demo.is_some() || self.state.as_ref().is_some_and(|s| s.demo.is_some());
        let mut p = if demo { vec![Panel::Demo] } else { vec![] };
        p.extend([Panel::Editor, Panel::Machine, Panel::Heatmap]);
        p
    }

    /// How many of the panels fit side by side in `width` × `height` CSS pixels
    /// (at least one): the widget shows that many, by priority, and tabs for the rest.
    pub fn fit(width: f64, height: f64) -> usize {
        let cols = ((width / 300.0).floor() as usize).clamp(1, 3);
        let rows = if height >= 640.0 && width >= 900.0 { 2 } else { 1 };
        cols * rows
    }
}
