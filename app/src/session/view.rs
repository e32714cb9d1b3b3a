//! What the page shows, derived from the session: the listing, variables,
//! decoded registers, attention matches in words and the step narration, and
//! the protocol's [`Build`] and [`View`] that carry them to the views.
//!
//! During a layer walk every value is of one moment: the PC, memory and
//! registers are decoded from the tensor after the shown layer, the
//! instruction shown is the one being executed (the PC changes at the layer
//! that writes it, L7), and the step count includes it from L8 on.

use super::protocol::{AttnRow, Build, LayerAt, ListingRow, Status, View};
use super::{Layers, Phase, Session};
use crate::demo::{two_words, HIGH_WORD};
use loom_core::frontend::debugger::value::formatted;
use loom_core::frontend::explain::{column_name, plain};
use loom_core::frontend::format_instr;
use loom_core::frontend::report::{self, Value, Vars};
use loom_core::frontend::MachineState;
use loom_core::frontend::{decode, registers, Column, MemoryView, Register};
use loom_core::frontend::{Config, Engine, Program};

/// At most this many changed elements of one array are narrated per step.
const NARRATED_ELEMENTS: usize = 4;

/// One named variable as the page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarRow {
    pub name: String,
    /// The value as text: `42`, `[3, -1, 2]` for an array, `{x = 3, y = 4}` for a structure.
    pub value: String,
    /// Whether the last step or run changed it.
    pub changed: bool,
}

/// The text of variable `name` when it holds a structure or a pointer: `formatted` is [`View`]'s.
pub fn shown<'a>(formatted: &'a [(String, String)], name: &str) -> Option<&'a str> {
    formatted.iter().find(|(k, _)| k == name).map(|(_, text)| text.as_str())
}

/// A variable's value as the variables table shows it. The low word of a
/// counter kept in two words (`count` beside `count_hi`) wraps on its own
/// (`-56`), so the whole count follows it: `-56 (= 200 with count_hi)`.
pub fn value_text(vars: &Vars, name: &str, value: &Value, cfg: &Config) -> String {
    let high = vars.get(&format!("{name}{HIGH_WORD}"));
    match (value, high) {
        (Value::Scalar(low), Some(Value::Scalar(high))) => {
            format!("{low} (= {} with {name}{HIGH_WORD})", two_words(*low, *high, cfg))
        }
        _ => value.to_string(),
    }
}

/// The listing with each source line above the instructions compiled from it.
pub fn listing(prog: &Program, source: &str) -> Vec<ListingRow> {
    let lines: Vec<&str> = source.lines().collect();
    let mut rows = Vec::new();
    let mut last = None;
    for (k, ins) in prog.code.iter().enumerate() {
        let line = prog.locs[k].map(|l| l.line);
        if line.is_some() && line != last {
            let text = line.and_then(|l| lines.get(l as usize - 1)).map_or("", |t| t.trim());
            let text = format!("{:>4}: {text}", line.unwrap_or(0));
            rows.push(ListingRow { index: None, line, text, doc: String::new() });
            last = line;
        }
        let text = format!("{:5}  {}", prog.config.instr_col(k), format_instr(prog, *ins, &|c| prog.slot_name(c)));
        let doc = ins.opcode().map(|o| format!("{} — {}", o.info().semantics, o.info().doc)).unwrap_or_default();
        rows.push(ListingRow { index: Some(k), line, text, doc });
    }
    rows
}

impl Session {
    /// The machine's state as shown: decoded from the shown layer's tensor
    /// during a layer walk, else the engine's.
    fn shown_state(&self) -> Option<MachineState> {
        let e = self.engine_ref()?;
        match (&self.layers, self.layout()) {
            (Some(Layers { trace, at: Some(i), .. }), Some(lay)) => {
                Some(decode(&trace.layers[*i].after, lay, &self.config))
            }
            _ => Some(e.state()),
        }
    }

    /// The index of the instruction shown: the one being executed during a layer walk, else the PC's.
    pub fn shown_instr(&self) -> Option<usize> {
        match &self.layers {
            Some(Layers { at: Some(_), executing, .. }) => *executing,
            _ => self.pc_index(),
        }
    }

    /// Instructions completed at the moment shown: during a layer walk the
    /// executing one counts from its last layer on (L1…L7 are inside it).
    fn shown_steps(&self) -> u64 {
        match &self.layers {
            Some(Layers { trace, at: Some(i), .. }) if i + 1 < trace.layers.len() => self.steps().saturating_sub(1),
            _ => self.steps(),
        }
    }

    fn vars_of(&self, state: &MachineState) -> Option<Vars> {
        Some(report::vars(self.program.as_ref()?, &state.mem))
    }

    /// The variables holding a structure or a pointer, as the call stack shows them
    /// (keys of [`Self::vars_of`]'s).
    fn formatted(&self, state: &MachineState) -> Vec<(String, String)> {
        self.program.as_ref().map_or_else(Vec::new, |p| formatted(p, &state.mem))
    }

    /// The named variables with their values, marked when the last action changed them.
    pub fn variables(&self) -> Vec<VarRow> {
        let Some(state) = self.shown_state() else { return Vec::new() };
        let Some(now) = self.vars_of(&state) else { return Vec::new() };
        let (changed, formatted) = (self.changed(&now), self.formatted(&state));
        now.iter()
            .map(|(name, v)| VarRow {
                name: name.clone(),
                value: shown(&formatted, name).map_or_else(|| v.to_string(), str::to_owned),
                changed: changed.contains(name),
            })
            .collect()
    }

    /// Keys of the variables whose value differs from the state before the last action.
    fn changed(&self, now: &Vars) -> Vec<String> {
        let Some(before) = self.before.as_ref().and_then(|b| self.vars_of(b)) else { return Vec::new() };
        now.iter().filter(|(k, v)| before.get(k) != Some(v)).map(|(k, _)| k.clone()).collect()
    }

    /// The instruction shown as text.
    pub fn current_instr(&self) -> Option<String> {
        let k = self.shown_instr()?;
        self.listing.iter().find(|r| r.index == Some(k)).map(|r| r.text.trim().to_owned())
    }

    /// The working registers of column 0 decoded from the tensor shown (transformers only).
    pub fn registers(&self) -> Vec<Register> {
        match (self.tensor(), self.layout()) {
            (Some(x), Some(lay)) => registers(x, lay),
            _ => Vec::new(),
        }
    }

    /// What a column holds, in words, with its value: "M[40] = sum (slot 8) = 3".
    pub fn column_meaning(&self, col: usize) -> String {
        let Some(prog) = &self.program else { return format!("column {col}") };
        let name = column_name(prog, col);
        match (prog.config.column(col), self.shown_state()) {
            (Column::Memory(slot), Some(s)) => format!("{name} = {}", s.mem[slot]),
            _ => name,
        }
    }

    /// The attention matches of the layer on display (all layers after a whole step).
    pub fn attention(&self) -> Vec<AttnRow> {
        let Some(Layers { trace, at, .. }) = &self.layers else { return Vec::new() };
        let shown = trace.layers.iter().enumerate().filter(|(i, _)| at.is_none_or(|a| a == *i));
        let mut rows = Vec::new();
        for (layer_index, layer) in shown {
            for (head_index, head) in layer.heads.iter().enumerate() {
                for m in &head.matches {
                    let targets: Vec<String> = m.targets.iter().map(|&t| self.column_meaning(t)).collect();
                    let split = if m.tie { " (tie: split 50/50)" } else { "" };
                    let verb = if head.role.writes_memory() { "writes" } else { "reads" };
                    let meaning = format!(
                        "{} head {}: column {} {verb} {}{split}",
                        layer.name,
                        head.name,
                        m.source,
                        targets.join(" and ")
                    );
                    rows.push(AttnRow {
                        layer: layer.name.to_owned(),
                        head: head.name.to_owned(),
                        layer_index,
                        head_index,
                        source: m.source,
                        targets: m.targets.clone(),
                        best1: m.best1,
                        best2: m.best2,
                        tie: m.tie,
                        meaning,
                    });
                }
            }
        }
        rows
    }

    /// The last action in one sentence: during a layer walk, the shown
    /// layer's explanation ("L4 subtract: The FFN subtracted …"); otherwise
    /// "PC 40 → 41, sum: 3 → 7".
    pub fn narration(&self) -> String {
        if let (Some((i, name)), Some(e)) = (self.layer(), self.explanation()) {
            return format!("{name}: {}", plain(&e.layers[i].words));
        }
        let (Some(before), Some(now)) = (&self.before, self.shown_state()) else { return String::new() };
        let (Some(old), Some(new)) = (self.vars_of(before), self.vars_of(&now)) else { return String::new() };
        let mut parts = vec![format!("PC {} → {}", before.pc, now.pc)];
        for (name, v) in new.iter() {
            match (old.get(name), v) {
                (Some(Value::Array(o)), Value::Array(n)) => {
                    // Arrays by element, so a long one does not flood the line.
                    let changed = o.iter().zip(n).enumerate().filter(|(_, (a, b))| a != b);
                    for (i, (a, b)) in changed.take(NARRATED_ELEMENTS) {
                        parts.push(format!("{name}[{i}]: {a} → {b}"));
                    }
                }
                (Some(o), v) if o != v => parts.push(format!("{name}: {o} → {v}")),
                _ => {}
            }
        }
        parts.join(", ")
    }

    /// The layer on display, for the protocol.
    fn layer_at(&self) -> Option<LayerAt> {
        self.layer().map(|(index, name)| LayerAt { index, name: name.to_owned() })
    }

    /// Everything the views show now. `running` and `rate` are the run loop's.
    pub fn view(&self, running: bool, rate: f64) -> View {
        let state = self.shown_state();
        let vars = state.as_ref().and_then(|s| self.vars_of(s)).unwrap_or_default();
        let formatted = state.as_ref().map_or_else(Vec::new, |s| self.formatted(s));
        let status = match self.phase() {
            _ if running => Status::Running,
            Phase::Edited => Status::Edited,
            Phase::Error => Status::Error,
            Phase::Ready if self.steps() == 0 => Status::Loaded,
            Phase::Ready => Status::Paused,
            Phase::Halted => Status::Halted,
            Phase::Fault { .. } => Status::Fault,
        };
        let ended = self.engine_ref().zip(self.program.as_ref()).map(|(e, p)| (p, e.status()));
        let fault = ended.as_ref().and_then(|(p, s)| report::fault(p, s));
        let unwritten = ended.as_ref().and_then(|(p, s)| report::unwritten(p, s));
        let instr = self.shown_instr();
        let frames = self.frames();
        View {
            status,
            text: if running { "running".into() } else { self.status_text() },
            steps: self.shown_steps(),
            pc: state.as_ref().map_or(0, |s| s.pc),
            line: instr.and_then(|k| self.program.as_ref()?.locs.get(k).copied().flatten()).map(|l| l.line),
            instr,
            instr_text: self.current_instr(),
            changed: self.changed(&vars),
            vars,
            formatted,
            fault,
            unwritten,
            edited: self.is_stale(),
            running,
            rate,
            total: self.total(),
            layer: self.layer_at(),
            agrees: self.agrees(),
            narration: self.narration(),
            note: self.note.clone(),
            registers: self.registers(),
            attention: self.attention(),
            explain: self.explanation().cloned(),
            demo: None,
            output: self.machine().map(|m| m.output().text()).unwrap_or_default(),
            printed: self.machine().is_some_and(|m| m.output().printed_at(m.steps())),
            input_read: self.machine().map_or(0, |m| m.input().consumed()),
            owners: self.dbg.as_ref().map(|d| d.owners(&frames)).unwrap_or_default(),
            memory: self.memory(running),
            frames,
            tensor: self.tensor().cloned(),
            previous: self.previous_tensor().cloned(),
        }
    }

    /// The memory view, its changed cells those the last action changed (none while running).
    fn memory(&self, running: bool) -> MemoryView {
        let before = self.before.as_ref().map(|b| b.mem.as_slice());
        self.dbg.as_ref().filter(|_| !running).map(|d| d.memory(before)).unwrap_or_default()
    }

    /// What the last build produced, for the views that change only with a build.
    pub fn build_info(&self) -> Build {
        let built = self.built.as_ref();
        Build {
            builds: self.builds,
            ok: self.program.is_some(),
            lang: Some(self.lang),
            config: self.config.name.to_owned(),
            engine: Some(self.engine),
            source: built.map_or_else(|| self.source.clone(), |b| b.0.clone()),
            diagnostics: self.diagnostics.clone(),
            rendered: self.rendered_diagnostics(),
            listing: self.listing.clone(),
            instructions: self.program.as_ref().map_or(0, |p| p.code.len()),
            columns: self
                .program
                .as_ref()
                .map_or_else(Vec::new, |p| (0..p.config.n).map(|c| column_name(p, c)).collect()),
            console: self.program.as_ref().and_then(|p| p.console),
            breakpoints: self.breakpoints.clone(),
            demo: None,
        }
    }
}
