//! Guided lessons: a title and steps, each with Markdown text, a program to
//! load, an action ("step to layer 3", "run to line 7", "after 5
//! instructions"), what to highlight, and a check the page verifies. The
//! format is documented in the manual (`docs/src/lessons.md`); the built-in lessons are
//! `lessons/*.json`, built in with `include_str!`, and a teacher's lesson
//! travels in the URL as `#lesson=PAYLOAD` (the share links' DEFLATE +
//! base64url, [`link::pack`]). No DOM: the player's commands and the
//! checks' verdicts are computed here, from the session protocol's types.
//!
//! Everything from a URL is hostile: [`Lesson::parse`] bounds the sizes and
//! checks every name and number before anything is sent to the session, and
//! a bad lesson is a [`LessonError`] in words.

use crate::link::{self, LinkError};
use crate::session::protocol::{Status, View};
use crate::session::{Command, StepBy};
use loom_core::frontend::explain::{plain, Target};
use loom_core::frontend::report::Value;
use loom_core::frontend::Config;
use loom_core::frontend::{EngineKind, Lang, Layout};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The built-in lessons, in the picker's order.
const BUILTIN: [&str; 5] = [
    include_str!("../../lessons/tensor.json"),
    include_str!("../../lessons/fetch.json"),
    include_str!("../../lessons/memory.json"),
    include_str!("../../lessons/alu.json"),
    include_str!("../../lessons/branch.json"),
];

/// The most steps a lesson may have.
pub const MAX_STEPS: usize = 64;
/// The longest text of one step (characters).
pub const MAX_TEXT: usize = 8_000;
/// The most layers one action may step (one instruction's).
const LAYERS: usize = 8;

/// Text in JSON as one string or a list of lines (easier to read in a file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Lines {
    One(String),
    Many(Vec<String>),
}

impl Lines {
    pub fn text(&self) -> String {
        match self {
            Lines::One(s) => s.clone(),
            Lines::Many(v) => v.join("\n"),
        }
    }
}

/// A lesson: `id` (the `?lesson=` name of a built-in one), a title, steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    pub steps: Vec<LessonStep>,
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    /// Markdown (paragraphs, `- ` lists, `**strong**`, `*emphasis*`, `` `code` ``).
    pub text: Lines,
    /// The program to show from this step on (the first step must have one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<Load>,
    /// What the page does on arriving at this step (nothing: the learner acts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub highlight: Option<Highlight>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Check>,
}

/// A program to load: a demo by id, or a source.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub demo: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Lines>,
    /// `c` or `asm` (default: detected from the source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// A configuration preset (default: the page's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    /// An engine (default: `sparse`, the transformer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

/// Where the page goes on arriving at a step, always from the program's
/// start (so Back and Next show the same thing each time): `run_to_line`
/// alone, or `run` alone, or `step` instructions then `layer` layers of the next.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// Instructions executed from the start.
    #[serde(default)]
    pub step: u64,
    /// Then this many layers (1..=8) of the next instruction: `3` shows L3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<usize>,
    /// Runs from the start until the PC reaches this source line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_to_line: Option<u32>,
    /// Runs from the start to the end.
    #[serde(default)]
    pub run: bool,
}

/// What to highlight in the heatmap and attention views: a column, a field
/// of a column (`field`: a layout name such as `pc`), or a head (`layer` 1..=8, `head` from 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Highlight {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<usize>,
}

/// What the page verifies; every condition given must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// A variable (with `equals`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub var: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<i64>,
    /// The layer shown is this one (1..=8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<usize>,
    /// The instruction shown is on this source line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The PC (a column number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pc: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The Explain view's words contain this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explains: Option<String>,
}

/// A check's result, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub passed: bool,
    pub text: String,
}

/// Why a lesson cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonError {
    /// No built-in lesson has this id.
    Unknown(String),
    /// The link's payload cannot be unpacked.
    Link(LinkError),
    /// The lesson is not valid: where and what.
    Invalid(String),
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LessonError::Unknown(id) => {
                let ids: Vec<String> = builtin().into_iter().map(|l| l.id).collect();
                write!(f, "there is no lesson \u{201c}{}\u{201d} (lessons: {})", short(id), ids.join(", "))
            }
            LessonError::Link(e) => write!(f, "the lesson link cannot be read: {e}"),
            LessonError::Invalid(why) => write!(f, "the lesson is not valid: {why}"),
        }
    }
}

fn short(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(MAX).collect::<String>())
    }
}

/// Every built-in lesson, parsed.
pub fn builtin() -> Vec<Lesson> {
    BUILTIN
        .iter()
        .map(|text| Lesson::parse(text).expect("invariant: the built-in lessons are valid (app/tests/lessons.rs)"))
        .collect()
}

/// The built-in lesson `id`.
pub fn by_id(id: &str) -> Result<Lesson, LessonError> {
    builtin().into_iter().find(|l| l.id == id).ok_or_else(|| LessonError::Unknown(id.to_owned()))
}

/// The fragment (without `#`) that carries a lesson: `lesson=PAYLOAD`.
pub fn encode(lesson: &Lesson) -> String {
    let json = serde_json::to_vec(lesson).expect("invariant: a Lesson always serializes");
    format!("lesson={}", link::pack(&json))
}

/// The lesson a page address asks for: `?lesson=ID` (a built-in one) or a
/// fragment `#lesson=PAYLOAD`; `None` when it asks for none.
pub fn from_address(query: &str, fragment: &str) -> Option<Result<Lesson, LessonError>> {
    let param = |s: &str, sep: char| {
        s.trim_start_matches(sep).split('&').find_map(|p| p.strip_prefix("lesson=")).map(str::to_owned)
    };
    if let Some(payload) = param(fragment, '#') {
        if payload.len() > link::MAX_LINK {
            return Some(Err(LessonError::Link(LinkError::TooLong(payload.len()))));
        }
        return Some(link::unpack(&payload).map_err(LessonError::Link).and_then(|bytes| {
            let text = String::from_utf8(bytes).map_err(|_| LessonError::Invalid("it is not UTF-8 text".into()))?;
            Lesson::parse(&text)
        }));
    }
    let id = param(query, '?')?;
    Some(link::percent_decode(&id).map_err(LessonError::Link).and_then(|id| by_id(&id)))
}

fn invalid(step: usize, why: impl fmt::Display) -> LessonError {
    LessonError::Invalid(format!("step {}: {why}", step + 1))
}

impl Lesson {
    /// Reads and checks a lesson (JSON): sizes, names, numbers, and that the first step loads a program.
    pub fn parse(text: &str) -> Result<Lesson, LessonError> {
        let lesson: Lesson = serde_json::from_str(text).map_err(|e| LessonError::Invalid(format!("{e}")))?;
        lesson.validate()?;
        Ok(lesson)
    }

    fn validate(&self) -> Result<(), LessonError> {
        let bad = |why: &str| Err(LessonError::Invalid(why.to_owned()));
        if self.id.is_empty()
            || self.id.len() > 64
            || !self.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return bad("its id must be 1 to 64 of a–z, 0–9 and -");
        }
        if self.title.trim().is_empty() || self.title.len() > 200 {
            return bad("its title must be 1 to 200 characters");
        }
        if self.steps.is_empty() || self.steps.len() > MAX_STEPS {
            return Err(LessonError::Invalid(format!("it must have 1 to {MAX_STEPS} steps")));
        }
        if self.steps[0].load.is_none() {
            return bad("its first step must load a program");
        }
        for (i, s) in self.steps.iter().enumerate() {
            s.validate().map_err(|why| invalid(i, why))?;
        }
        Ok(())
    }

    /// The index of the step whose program is on display at step `i`.
    pub fn load_of(&self, i: usize) -> usize {
        (0..=i.min(self.steps.len() - 1)).rev().find(|&j| self.steps[j].load.is_some()).unwrap_or(0)
    }

    /// The commands that load the program on display at step `i`.
    pub fn program(&self, i: usize) -> Vec<Command> {
        self.steps[self.load_of(i)].load.as_ref().map_or_else(Vec::new, Load::commands)
    }

    /// The commands of step `i`'s action (none: the page stays as the learner left it).
    pub fn action(&self, i: usize) -> Vec<Command> {
        self.steps[i].action.as_ref().map_or_else(Vec::new, Action::commands)
    }

    /// The commands that show step `i`, given the step whose program is
    /// loaded now (`None`: the lesson's program is not loaded): its program
    /// when another is needed, then its action.
    pub fn enter(&self, i: usize, loaded: Option<usize>) -> Vec<Command> {
        let mut cmds = if loaded == Some(self.load_of(i)) { Vec::new() } else { self.program(i) };
        cmds.extend(self.action(i));
        cmds
    }
}

impl LessonStep {
    fn validate(&self) -> Result<(), String> {
        if self.text.text().chars().count() > MAX_TEXT {
            return Err(format!("its text is longer than {MAX_TEXT} characters"));
        }
        if let Some(l) = &self.load {
            l.validate()?;
        }
        if let Some(a) = &self.action {
            a.validate()?;
        }
        if let Some(h) = &self.highlight {
            h.validate()?;
        }
        if let Some(c) = &self.check {
            c.validate()?;
        }
        Ok(())
    }
}

impl Load {
    fn validate(&self) -> Result<(), String> {
        match (&self.demo, &self.source) {
            (Some(d), None) => {
                loom_core::frontend::demos::demo(d)
                    .ok_or_else(|| format!("there is no demo \u{201c}{}\u{201d}", short(d)))?;
            }
            (None, Some(_)) => {}
            _ => return Err("load takes a demo or a source, one of them".into()),
        }
        if let Some(l) = &self.lang {
            Lang::by_name(l)?;
        }
        if let Some(c) = &self.config {
            Config::preset(c).map_err(|e| e.to_string())?;
        }
        if let Some(e) = &self.engine {
            EngineKind::by_name(e)?;
        }
        Ok(())
    }

    /// The commands that load it (names were checked by [`Lesson::parse`]).
    fn commands(&self) -> Vec<Command> {
        let engine = self.engine.as_deref().map_or(EngineKind::Sparse, |e| {
            EngineKind::by_name(e).expect("invariant: the engine was checked when the lesson was read")
        });
        let mut cmds = Vec::new();
        if let Some(id) = &self.demo {
            cmds.push(Command::Demo { id: Some(id.clone()) });
            if let Some(name) = &self.config {
                cmds.push(Command::Config { name: name.clone() });
            }
            cmds.push(Command::Engine { name: engine });
        } else if let Some(source) = &self.source {
            let lang = self.lang.as_deref().and_then(|l| Lang::by_name(l).ok());
            cmds.push(Command::Load { source: source.text(), lang, config: self.config.clone(), engine: Some(engine) });
        }
        cmds
    }
}

impl Action {
    fn validate(&self) -> Result<(), String> {
        if self.layer.is_some_and(|l| l == 0 || l > LAYERS) {
            return Err(format!("layer is 1 to {LAYERS}"));
        }
        if self.step > link::MAX_STEP {
            return Err(format!("step is at most {}", link::MAX_STEP));
        }
        let moves = self.step > 0 || self.layer.is_some();
        if usize::from(moves) + usize::from(self.run) + usize::from(self.run_to_line.is_some()) > 1 {
            return Err("an action is one of: step (and layer), run_to_line, run".into());
        }
        Ok(())
    }

    /// The commands that perform it from the program's start.
    fn commands(&self) -> Vec<Command> {
        let mut cmds = vec![Command::Pause, Command::Breakpoints { lines: Vec::new() }, Command::Reset];
        if let Some(line) = self.run_to_line {
            cmds.extend([Command::Breakpoints { lines: vec![line] }, Command::Run]);
        } else if self.run {
            cmds.push(Command::Run);
        } else {
            if self.step > 0 {
                cmds.push(Command::Seek { step: self.step });
            }
            cmds.extend(std::iter::repeat_n(Command::Step { by: StepBy::Layer }, self.layer.unwrap_or(0)));
        }
        cmds
    }
}

impl Highlight {
    fn validate(&self) -> Result<(), String> {
        match (self.column, &self.field, self.layer, self.head) {
            (Some(_), _, None, None) => Ok(()),
            (None, None, Some(l), Some(h)) if (1..=LAYERS).contains(&l) && h >= 1 => Ok(()),
            _ => Err("highlight is a column (with a field), or a layer and a head (both from 1)".into()),
        }
    }

    /// What the views highlight, resolved against a layout (a field it does not have: none).
    pub fn target(&self, lay: &Layout) -> Option<Target> {
        match (self.column, &self.field, self.layer, self.head) {
            (Some(column), None, ..) => Some(Target::Column { column }),
            (Some(column), Some(name), ..) => {
                let r = lay.regions().into_iter().find(|r| r.name == name)?;
                Some(Target::Cells { column, start: r.start, len: r.len })
            }
            (None, _, Some(layer), Some(head)) => Some(Target::Head { layer: layer - 1, head: head - 1 }),
            _ => None,
        }
    }
}

impl Check {
    fn validate(&self) -> Result<(), String> {
        if self.var.is_some() != self.equals.is_some() {
            return Err("a check names a var and what it equals, both".into());
        }
        if self.layer.is_some_and(|l| l == 0 || l > LAYERS) {
            return Err(format!("a check's layer is 1 to {LAYERS}"));
        }
        if *self == Check::default() {
            return Err("a check needs a condition".into());
        }
        Ok(())
    }

    /// Whether the view satisfies every condition, and in words what holds or is missing.
    pub fn verify(&self, v: &View) -> Verdict {
        let mut missing = Vec::new();
        let mut holds = Vec::new();
        let mut cond = |ok: bool, yes: String, no: String| if ok { holds.push(yes) } else { missing.push(no) };
        if let (Some(name), Some(want)) = (&self.var, self.equals) {
            match v.vars.get(name) {
                Some(Value::Scalar(x)) => {
                    cond(i64::from(*x) == want, format!("{name} = {want}"), format!("{name} is {x}, not {want}"))
                }
                Some(Value::Array(_)) => cond(false, String::new(), format!("{name} is an array, not a number")),
                None => cond(false, String::new(), format!("there is no variable {name}")),
            }
        }
        if let Some(want) = self.layer {
            let shown = v.layer.as_ref().map(|l| l.index + 1);
            let says = shown.map_or("no layer is shown".to_owned(), |l| format!("the layer shown is L{l}"));
            cond(shown == Some(want), format!("the layer shown is L{want}"), format!("{says}, not L{want}"));
        }
        if let Some(want) = self.line {
            let says = v.line.map_or("no line is shown".to_owned(), |l| format!("the line shown is {l}"));
            cond(v.line == Some(want), format!("the line shown is {want}"), format!("{says}, not {want}"));
        }
        if let Some(want) = self.pc {
            cond(v.pc == want, format!("PC = {want}"), format!("PC is {}, not {want}", v.pc));
        }
        if let Some(want) = self.status {
            let name = |s: Status| serde_json::to_value(s).ok().and_then(|j| j.as_str().map(str::to_owned));
            let (now, want_name) = (name(v.status).unwrap_or_default(), name(want).unwrap_or_default());
            cond(
                v.status == want,
                format!("the machine is {want_name}"),
                format!("the machine is {now}, not {want_name}"),
            );
        }
        if let Some(text) = &self.explains {
            let words = v.explain.as_ref().map(|e| {
                let layers = e.layers.iter().map(|l| plain(&l.words));
                std::iter::once(plain(&e.instruction)).chain(layers).collect::<Vec<_>>().join(" ")
            });
            let ok = words.is_some_and(|w| w.contains(text.as_str()));
            cond(
                ok,
                format!("the explanation says \u{201c}{text}\u{201d}"),
                format!("the explanation does not say \u{201c}{text}\u{201d} yet"),
            );
        }
        let passed = missing.is_empty();
        let text = if passed { format!("✓ {}", holds.join("; ")) } else { format!("✗ {}", missing.join("; ")) };
        Verdict { passed, text }
    }
}
