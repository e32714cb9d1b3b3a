//! A traced step in words: for the instruction and for each of the eight
//! layers, one or two sentences whose every number is read from this step's
//! tensors and matches (which head read what from which column and why it
//! won, what the FFN left in which named rows, which column was written, how
//! the PC moved).
//!
//! The words come from the same tables as the rest: mnemonics, semantics and
//! documentation from the ISA table, row names from the layout's fields,
//! what a head is for from its [`HeadRole`]. The output is structured — text
//! segments, each number with where it was read, links to a column, a cell
//! or a head — so a page renders text nodes and links, never markup, and a
//! test can check every number against the trace.

use crate::asm::format_instr;
use crate::config::Column;
use crate::image::Program;
use crate::machine::layout::{Layout, Region, Width};
use crate::machine::tensor::Tensor;
use crate::machine::trace::{HeadRole, Match, StepTrace};
use crate::machine::weights::limb_bits;
use serde::{Deserialize, Serialize};

/// What a link points at in the other views.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A whole column of the tensor.
    Column { column: usize },
    /// The rows `start..start + len` (one field) of a column.
    Cells { column: usize, start: usize, len: usize },
    /// Head `head` of layer `layer` (0 = L1).
    Head { layer: usize, head: usize },
}

/// Where a number of the text was read, so it can be checked against the trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// A field (a layout name such as `scratch.min`) of a column, decoded as
    /// its width says (words signed, addresses unsigned) from the tensor
    /// after layer `layer`, or before the step when `layer` is `None`.
    Field { layer: Option<usize>, field: String, column: usize },
    /// One of column 0's working bits after layer `layer`, 1 when its row is
    /// positive: `carry` (L4's borrow-in, `Layout::carry`), `borrow` (the borrow between its limbs,
    /// `Layout::borrow`) or `flag` (the branch flag, `Layout::flag`).
    Bit { layer: usize, name: String },
    /// How many of a head's matches join columns other than column 0 (columns with equal keys).
    Others { layer: usize, head: usize },
    /// A head's score for one source column: `rank` 1 is the best target's, 2 the runner-up's.
    Score { layer: usize, head: usize, source: usize, rank: u8 },
}

/// A number of the text and where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    pub number: f64,
    pub source: Source,
}

/// One piece of a sentence: plain text, or a number, or a link (or a number that is a link).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
}

/// Sentences as segments; [`plain`] joins them into text.
pub type Words = Vec<Segment>;

/// The text of segments, as a screen reader hears it.
pub fn plain(words: &[Segment]) -> String {
    words.iter().map(|s| s.text.as_str()).collect()
}

/// One layer's explanation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerWords {
    /// 0 for L1 … 7 for L8.
    pub index: usize,
    pub name: String,
    pub words: Words,
}

/// A whole step explained: the instruction and its outcome, then each layer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    pub instruction: Words,
    pub layers: Vec<LayerWords>,
}

/// What a column holds, in words, without its value: "M[40] = sum (slot 8)".
pub fn column_name(prog: &Program, col: usize) -> String {
    match prog.config.column(col) {
        Column::Working => "the working column (PC, registers)".into(),
        Column::Scratch(c) => format!("scratch column {c}"),
        Column::Memory(slot) => format!("M[{col}] = {} (slot {slot})", prog.slot_name(col as u32)),
        Column::Instruction(k) => match prog.locs.get(k).copied().flatten() {
            Some(l) => format!("instruction {k} (line {})", l.line),
            None if k < prog.code.len() => format!("instruction {k}"),
            None => format!("empty instruction column {k}"),
        },
    }
}

/// A field of a column as its width reads: words signed, addresses unsigned, one row as 0/1.
pub fn field_value(x: &Tensor, lay: &Layout, region: Region, column: usize) -> i64 {
    let bits = x.bits(region, column);
    match lay.field(region).width {
        Width::Word if bits >> (region.len - 1) & 1 == 1 => bits as i64 - (1i64 << region.len),
        _ => bits as i64,
    }
}

/// The row of one of column 0's working bits, by the name a [`Source::Bit`] gives.
pub fn bit_row(lay: &Layout, name: &str) -> Option<usize> {
    match name {
        "carry" => Some(lay.carry()),
        "borrow" => Some(lay.borrow()),
        "flag" => Some(lay.flag()),
        _ => None,
    }
}

/// Whether a match is the step's work: a reading head's value flowing into
/// column 0, or a writing head's from column 0. Q = K makes every designed
/// tie two matches (column 0 and its partner each score both), and the
/// mirror carries zeros (column 0 has no memory or instruction rows; only
/// column 0 has a write value); columns with equal keys (two memory words
/// alike, for the FIND head) match each other too, and the FFN clears what
/// they exchange.
pub fn flows(role: HeadRole, m: &Match) -> bool {
    if role.writes_memory() {
        m.source == 0
    } else {
        m.source != 0 && m.targets.contains(&0)
    }
}

/// A number as the text shows it: integers without a fraction.
fn number_text(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Explains one traced step. `before` is the tensor the step started from.
/// A trace without its eight layers (an interpreter has none) explains only the instruction.
pub fn explain(prog: &Program, lay: &Layout, before: &Tensor, trace: &StepTrace) -> Explanation {
    let cx = Cx { prog, lay, before, trace };
    let layers = trace
        .layers
        .iter()
        .enumerate()
        .map(|(i, l)| LayerWords { index: i, name: l.name.to_owned(), words: cx.layer(i) })
        .collect();
    Explanation { instruction: cx.instruction(), layers }
}

struct Cx<'a> {
    prog: &'a Program,
    lay: &'a Layout,
    before: &'a Tensor,
    trace: &'a StepTrace,
}

/// A sentence being written.
#[derive(Default)]
struct Sentence {
    segs: Words,
}

impl Sentence {
    fn text(&mut self, t: impl Into<String>) -> &mut Self {
        let t = t.into();
        match self.segs.last_mut() {
            Some(s) if s.value.is_none() && s.target.is_none() => s.text.push_str(&t),
            _ => self.segs.push(Segment { text: t, ..Segment::default() }),
        }
        self
    }

    fn link(&mut self, text: impl Into<String>, target: Target) -> &mut Self {
        self.segs.push(Segment { text: text.into(), value: None, target: Some(target) });
        self
    }

    fn value(&mut self, number: f64, source: Source, target: Option<Target>) -> &mut Self {
        self.segs.push(Segment { text: number_text(number), value: Some(Value { number, source }), target });
        self
    }

    fn done(self) -> Words {
        self.segs
    }
}

impl Cx<'_> {
    /// The tensor after layer `at`, or before the step.
    fn tensor(&self, at: Option<usize>) -> &Tensor {
        at.map_or(self.before, |i| &self.trace.layers[i].after)
    }

    /// The input of layer `i`.
    fn input(i: usize) -> Option<usize> {
        i.checked_sub(1)
    }

    fn last(&self) -> Option<usize> {
        self.trace.layers.len().checked_sub(1)
    }

    fn field_number(&self, at: Option<usize>, region: Region, column: usize) -> i64 {
        field_value(self.tensor(at), self.lay, region, column)
    }

    /// Writes "name = value" for a field, the value linked to its cells.
    fn field(&self, s: &mut Sentence, at: Option<usize>, region: Region, column: usize) {
        s.text(format!("{} = ", region.name));
        self.bare(s, at, region, column);
    }

    /// Writes a field's value alone, linked to its cells.
    fn bare(&self, s: &mut Sentence, at: Option<usize>, region: Region, column: usize) {
        let v = self.field_number(at, region, column);
        let target = Target::Cells { column, start: region.start, len: region.len };
        s.value(v as f64, Source::Field { layer: at, field: region.name.to_owned(), column }, Some(target));
    }

    fn column(&self, s: &mut Sentence, column: usize) {
        s.link(column_name(self.prog, column), Target::Column { column });
    }

    /// Writes a working bit of column 0 (`"carry"`, `"borrow"` or `"flag"`), linked to its cell.
    fn bit(&self, s: &mut Sentence, layer: usize, name: &str) {
        let row = bit_row(self.lay, name).expect("invariant: the explanation names a working bit");
        let v = self.tensor(Some(layer)).get(row, 0) > 0.0;
        let target = Target::Cells { column: 0, start: row, len: 1 };
        s.value(f64::from(u8::from(v)), Source::Bit { layer, name: name.to_owned() }, Some(target));
    }

    /// The instruction executing, from the tensor the step started in.
    fn executing(&self) -> Option<(usize, crate::isa::Instr)> {
        let pc = self.field_number(None, self.lay.pc, 0) as usize;
        match self.prog.config.column(pc) {
            Column::Instruction(k) => self.prog.code.get(k).map(|ins| (pc, *ins)),
            _ => None,
        }
    }

    fn mnemonic(&self) -> &'static str {
        self.executing().and_then(|(_, i)| i.opcode()).map_or("an undefined operation", |o| o.mnemonic())
    }

    /// Memory columns whose word differs between the start and the end of the step.
    fn written(&self) -> Vec<usize> {
        let Some(last) = self.last() else { return Vec::new() };
        let cfg = &self.prog.config;
        (0..cfg.mem_slots)
            .map(|slot| cfg.mem_col(slot))
            .filter(|&c| self.field_number(None, self.lay.mem, c) != self.field_number(Some(last), self.lay.mem, c))
            .collect()
    }

    /// "Instruction 3 at column 203, line 7: ADD sum, t — M[b] ← M[b] + M[c]. Adds … PC 203 → 204; sum: 3 → 7."
    fn instruction(&self) -> Words {
        let mut s = Sentence::default();
        let Some((pc, ins)) = self.executing() else {
            s.text("The PC does not name an instruction of the program.");
            return s.done();
        };
        s.link(column_name(self.prog, pc), Target::Column { column: pc });
        s.text(format!(": {}", format_instr(self.prog, ins, &|c| self.prog.slot_name(c))));
        if let Some(op) = ins.opcode() {
            s.text(format!(" — {}. {}", op.info().semantics, op.info().doc));
        }
        let Some(last) = self.last() else { return s.done() };
        s.text(" PC ");
        self.bare(&mut s, None, self.lay.pc, 0);
        s.text(" → ");
        self.bare(&mut s, Some(last), self.lay.pc, 0);
        for c in self.written() {
            s.text("; ");
            self.column(&mut s, c);
            s.text(": ");
            self.bare(&mut s, None, self.lay.mem, c);
            s.text(" → ");
            self.bare(&mut s, Some(last), self.lay.mem, c);
        }
        s.text(".");
        s.done()
    }

    fn layer(&self, i: usize) -> Words {
        let mut s = Sentence::default();
        self.heads(&mut s, i);
        match i {
            0 => self.fetch_ffn(&mut s),
            1 => self.decode_ffn(&mut s),
            2 => self.indirect_ffn(&mut s),
            3 => self.subtract(&mut s),
            4 => self.write_note(&mut s),
            5 => self.branch_flag(&mut s),
            6 => self.select(&mut s),
            _ => self.correct(&mut s, i),
        }
        s.done()
    }

    /// One sentence per match of each head: who matched whom, what moved, why it won.
    fn heads(&self, s: &mut Sentence, i: usize) {
        let layer = &self.trace.layers[i];
        for (h, head) in layer.heads.iter().enumerate() {
            for m in head.matches.iter().filter(|m| flows(head.role, m)) {
                s.text("Head ");
                s.link(head.name, Target::Head { layer: i, head: h });
                s.text(format!(" {}: ", head.role.doc()));
                self.moved(s, i, head.role, m);
                s.text(" It scored ");
                s.value(f64::from(m.best1), Source::Score { layer: i, head: h, source: m.source, rank: 1 }, None);
                s.text(" against the runner-up's ");
                s.value(f64::from(m.best2), Source::Score { layer: i, head: h, source: m.source, rank: 2 }, None);
                if m.tie {
                    s.text(
                        ": less than 1 apart, the designed tie, so each of the two columns gets half of the value. ",
                    );
                } else {
                    s.text(": at least 1 ahead, so the whole value goes to the winner. ");
                }
            }
            let others = head.matches.iter().filter(|m| !flows(head.role, m)).count();
            if others > 0 {
                s.value(others as f64, Source::Others { layer: i, head: h }, None);
                s.text(if others == 1 { " other match of head " } else { " other matches of head " });
                s.link(head.name, Target::Head { layer: i, head: h });
                s.text(" pair columns with equal keys (the tie seen from the other side, or equal words): they carry zeros, or what the FFN clears. ");
            }
        }
    }

    /// What a match moved, by the head's role.
    fn moved(&self, s: &mut Sentence, i: usize, role: HeadRole, m: &Match) {
        let input = Self::input(i);
        let others: Vec<usize> = m.targets.iter().copied().filter(|&t| t != m.source).collect();
        let to = |s: &mut Sentence| {
            for (k, &t) in others.iter().enumerate() {
                if k > 0 {
                    s.text(" and ");
                }
                self.column(s, t);
            }
        };
        match role {
            HeadRole::Fetch => {
                self.column(s, m.source);
                s.text(" sent its fields a, b, c to ");
                to(s);
                s.text(", whose pc = ");
                self.bare(s, input, self.lay.pc, 0);
                s.text(" equals that column's position.");
            }
            HeadRole::ReadOperand | HeadRole::Load => {
                self.column(s, m.source);
                s.text(" sent its word ");
                self.bare(s, input, self.lay.mem, m.source);
                s.text(" to ");
                to(s);
                if let Column::Scratch(_) = self.prog.config.column(m.source) {
                    s.text(format!(
                        ": {}'s a field is its opcode, not an address, so this read is idle.",
                        self.mnemonic()
                    ));
                } else {
                    s.text(", which asked for that column's address.");
                }
            }
            HeadRole::Find => {
                self.column(s, m.source);
                s.text(" holds ");
                self.bare(s, input, self.lay.mem, m.source);
                s.text(", the value column 0 seeks (");
                self.field(s, input, self.lay.find_temp, 0);
                s.text("), so its slot index ");
                self.bare(s, input, self.lay.tag, m.source);
                s.text(" went to ");
                to(s);
                s.text(".");
            }
            HeadRole::Write | HeadRole::SecondWrite => {
                s.text("column 0 sent a correction to ");
                to(s);
                s.text(", the column its address field names.");
            }
        }
    }

    /// Whether a head of layer `i` did the step's work (see [`flows`]).
    fn fired(&self, i: usize) -> bool {
        self.trace.layers[i].heads.iter().any(|h| h.matches.iter().any(|m| flows(h.role, m)))
    }

    /// L1's FFN: the decoded fields and the operation they name.
    fn fetch_ffn(&self, s: &mut Sentence) {
        s.text("The FFN doubled the half values and decoded them: ");
        self.field(s, Some(0), self.lay.dec_a, 0);
        s.text(", ");
        self.field(s, Some(0), self.lay.dec_b, 0);
        s.text(", ");
        self.field(s, Some(0), self.lay.dec_c, 0);
        s.text(format!(" — {}.", self.mnemonic()));
    }

    /// L2's FFN: the operation routes its operands into the subtractor's inputs.
    fn decode_ffn(&self, s: &mut Sentence) {
        s.text(format!(
            "The FFN matched the opcode ({}) and routed its operands so that L4's min − sub − borrow will be the result: ",
            self.mnemonic()
        ));
        self.field(s, Some(1), self.lay.min, 0);
        s.text(", ");
        self.field(s, Some(1), self.lay.sub, 0);
        s.text(".");
    }

    fn indirect_ffn(&self, s: &mut Sentence) {
        if !self.fired(2) {
            s.text(format!("No head fired: {} reads no memory through a pointer. ", self.mnemonic()));
        }
        s.text("The FFN rescaled what the heads brought and snapped the subtractor's inputs to ±1: ");
        self.field(s, Some(2), self.lay.min, 0);
        s.text(", ");
        self.field(s, Some(2), self.lay.sub, 0);
        s.text(".");
        let op = self.executing().and_then(|(_, i)| i.opcode());
        if op == Some(crate::isa::Opcode::Drol) {
            // Differences in {−2, 0, 2} per bit: not a word to print, so only named.
            s.text(" It also put c's new word less M[b], bit by bit, in buffer.find for L5's second write.");
        }
        if op == Some(crate::isa::Opcode::Mulstep) {
            // The multiplier's top bit decides whether this step adds M[c].
            s.text(" The LOAD head read the multiplier from c's partner slot: ");
            self.field(s, Some(2), self.lay.buf_c, 0);
            s.text(if self.field_number(Some(2), self.lay.buf_c, 0) < 0 {
                "; its top bit is set, so sub keeps c's complement and the borrow-in 1: L4 computes 2·M[b] + M[c]."
            } else {
                "; its top bit is 0, so the FFN set sub and the borrow-in back to 0: L4 computes 2·M[b] only."
            });
            s.text(" It also put the multiplier shifted left, less M[b], in buffer.find for L5's second write.");
        }
    }

    fn subtract(&self, s: &mut Sentence) {
        s.text("The FFN subtracted in one layer, six thresholds per bit folding the borrow in: min − sub − borrow = ");
        self.bare(s, Some(2), self.lay.min, 0);
        s.text(" − ");
        self.bare(s, Some(2), self.lay.sub, 0);
        s.text(" − ");
        self.bit(s, 2, "carry");
        s.text(" = ");
        self.bare(s, Some(3), self.lay.min, 0);
        s.text(format!(", wrapped to {} bits, into scratch.min.", self.lay.word));
        let limb = limb_bits(self.lay);
        if self.lay.word > limb {
            s.text(format!(
                " The word is subtracted as two {limb}-bit limbs, so every sum stays exact in f32; \
                 the borrow from the low limb into the high one, which L3 found, was "
            ));
            self.bit(s, 2, "borrow");
            s.text(".");
        }
    }

    fn write_note(&self, s: &mut Sentence) {
        if self.fired(4) {
            s.text("The result it carries is ");
            self.field(s, Some(3), self.lay.min, 0);
            s.text("; L8 snaps the written word clean.");
        } else {
            s.text(format!("No head wrote: {} changes no memory.", self.mnemonic()));
        }
    }

    fn branch_flag(&self, s: &mut Sentence) {
        let branches = self.executing().and_then(|(_, i)| i.opcode()).is_some_and(|o| o.info().branches);
        s.text("The FFN set the branch flag to ");
        self.bit(s, 5, "flag");
        if branches {
            s.text(format!(" from the opcode ({}) and the sign and zero of the result", self.mnemonic()));
        } else {
            s.text(format!(" ({} never branches)", self.mnemonic()));
        }
        s.text(", and counted PC + 1 = ");
        self.bare(s, Some(5), self.lay.next_pc(), 0);
        s.text(format!(" into {}.", self.lay.next_pc().name));
    }

    fn select(&self, s: &mut Sentence) {
        s.text("PC ← flag ? c : PC + 1. The flag is ");
        self.bit(s, 5, "flag");
        if self.tensor(Some(5)).get(self.lay.flag(), 0) > 0.0 {
            s.text(", so the PC takes the jump target ");
            self.field(s, Some(5), self.lay.dec_c, 0);
        } else {
            s.text(", so the PC takes PC + 1");
        }
        s.text(": ");
        self.field(s, Some(6), self.lay.pc, 0);
        s.text(".");
    }

    fn correct(&self, s: &mut Sentence, i: usize) {
        s.text("The FFN snapped memory and the PC to ±1 and cleared the working rows: ");
        self.field(s, Some(i), self.lay.pc, 0);
        for c in self.written() {
            s.text(", ");
            self.column(s, c);
            s.text(" now holds ");
            self.bare(s, Some(i), self.lay.mem, c);
        }
        s.text(".");
    }
}
