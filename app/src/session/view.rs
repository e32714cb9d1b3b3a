//! What the page shows, derived from the session: the listing, variables,
//! decoded registers, attention matches in words and the step narration.

use super::{Layers, Session};
use loom_core::asm::format_instr;
use loom_core::machine::tensor;
use loom_core::{report, Program};
use serde_json::Value;

/// At most this many changed elements of one array are narrated per step.
const NARRATED_ELEMENTS: usize = 4;

/// One line of the disassembly: a C line (no `index`) or an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingRow {
    /// The instruction's index, or `None` for an interleaved source line.
    pub index: Option<usize>,
    pub line: Option<u32>,
    pub text: String,
    /// The operation's semantics and description (hover help); empty for source lines.
    pub doc: String,
}

/// One named variable as the page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarRow {
    pub name: String,
    /// The value as text: `42`, or `[3, -1, 2]` for an array.
    pub value: String,
    /// Whether the last step or run changed it.
    pub changed: bool,
}

/// One attention match of the shown layer(s).
#[derive(Clone, Debug, PartialEq)]
pub struct AttnRow {
    pub layer: &'static str,
    pub head: &'static str,
    pub source: usize,
    pub targets: Vec<usize>,
    pub best1: f32,
    pub best2: f32,
    pub tie: bool,
    /// "L2 read+decode head b: column 0 reads M[b] = sum (slot 7)".
    pub meaning: String,
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
        let text = format!("{:5}  {}", prog.config.instr_col(k), format_instr(prog, *ins, &|c| slot_name(prog, c)));
        let doc = ins.opcode().map(|o| format!("{} — {}", o.info().semantics, o.info().doc)).unwrap_or_default();
        rows.push(ListingRow { index: Some(k), line, text, doc });
    }
    rows
}

/// A memory column by the variable it holds: `sum`, `xs[2]`, or `[7]`.
fn slot_name(prog: &Program, col: u32) -> String {
    let Some(slot) = (col as usize).checked_sub(prog.config.mem_col(0)) else { return format!("col {col}") };
    match prog.symbols.iter().find(|s| !s.hidden && (s.slot..s.slot + s.len).contains(&slot)) {
        Some(s) if s.is_array => format!("{}[{}]", s.name, slot - s.slot),
        Some(s) => s.name.clone(),
        None => format!("[{slot}]"),
    }
}

impl Session {
    /// The named variables with their values, marked when the last action changed them.
    pub fn variables(&self) -> Vec<VarRow> {
        let (Some(prog), Some(e)) = (&self.program, self.engine_ref()) else { return Vec::new() };
        let now = report::vars(prog, &e.state().mem);
        let before = self.before.as_ref().map(|s| report::vars(prog, &s.mem));
        now.into_iter()
            .map(|(name, v)| {
                let changed = before.as_ref().is_some_and(|b| b.get(&name) != Some(&v));
                VarRow { value: show(&v), name, changed }
            })
            .collect()
    }

    /// The instruction at the PC as text.
    pub fn current_instr(&self) -> Option<String> {
        let k = self.pc_index()?;
        self.listing.iter().find(|r| r.index == Some(k)).map(|r| r.text.trim().to_owned())
    }

    /// The working registers of column 0 decoded as integers (transformers only).
    pub fn registers(&self) -> Vec<(&'static str, i64)> {
        let (Some(x), Some(lay)) = (self.tensor(), self.layout()) else { return Vec::new() };
        let cfg = self.config;
        let word = |r| i64::from(tensor::register(x, &cfg, r));
        let addr = |r| x.bits(r, 0) as i64;
        vec![
            ("pc", addr(lay.pc)),
            ("scratch.a", addr(lay.dec_a)),
            ("scratch.b", addr(lay.dec_b)),
            ("scratch.c", addr(lay.dec_c)),
            ("scratch.sub", word(lay.sub)),
            ("scratch.min", word(lay.min)),
            ("buffer.a", word(lay.buf_a)),
            ("buffer.b", word(lay.buf_b)),
            ("buffer.c", word(lay.buf_c)),
            ("buffer.find", word(lay.find_temp)),
            ("buffer.load", addr(lay.load_temp)),
        ]
    }

    /// What a column holds, in words: "M[7] = sum", "instruction 3 (line 5)".
    pub fn column_meaning(&self, col: usize) -> String {
        let cfg = self.config;
        let Some(prog) = &self.program else { return format!("column {col}") };
        if col == 0 {
            "the working column (PC, registers)".into()
        } else if col < cfg.s() {
            format!("scratch column {col}")
        } else if col < cfg.instr_col(0) {
            let slot = col - cfg.mem_col(0);
            let value = self.engine_ref().map(|e| e.read_slot(slot)).unwrap_or_default();
            format!("M[{col}] = {} (slot {slot}) = {value}", slot_name(prog, col as u32))
        } else {
            let k = col - cfg.instr_col(0);
            match prog.locs.get(k).copied().flatten() {
                Some(l) => format!("instruction {k} (line {})", l.line),
                None if k < prog.code.len() => format!("instruction {k}"),
                None => format!("empty instruction column {k}"),
            }
        }
    }

    /// The attention matches of the layer on display (all layers after a whole step).
    pub fn attention(&self) -> Vec<AttnRow> {
        let Some(Layers { trace, at }) = &self.layers else { return Vec::new() };
        let shown = trace.layers.iter().enumerate().filter(|(i, _)| at.is_none_or(|a| a == *i));
        let mut rows = Vec::new();
        for (_, layer) in shown {
            for head in &layer.heads {
                for m in &head.matches {
                    let targets: Vec<String> = m.targets.iter().map(|&t| self.column_meaning(t)).collect();
                    let split = if m.tie { " (tie: split 50/50)" } else { "" };
                    let meaning = format!(
                        "{} head {}: column {} reads {}{split}",
                        layer.name,
                        head.name,
                        m.source,
                        targets.join(" and ")
                    );
                    rows.push(AttnRow {
                        layer: layer.name,
                        head: head.name,
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

    /// The last action in one sentence: "PC 40 → 41, sum: 3 → 7".
    pub fn narration(&self) -> String {
        let (Some(before), Some(prog), Some(e)) = (&self.before, &self.program, self.engine_ref()) else {
            return String::new();
        };
        let now = e.state();
        let mut parts = vec![format!("PC {} → {}", before.pc, now.pc)];
        let (old, new) = (report::vars(prog, &before.mem), report::vars(prog, &now.mem));
        for (name, v) in &new {
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
}

fn show(v: &Value) -> String {
    match v {
        Value::Array(xs) => format!("[{}]", xs.iter().map(show).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}
