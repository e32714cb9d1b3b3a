//! The text assembly format and its disassembler (they round-trip).
//!
//! ```text
//! ; comments start with ';', '#' or '//'
//! .data n = 5                 ; a scalar in the next free slot
//! .data xs[4] = 3, 1, 2       ; an array (missing values are 0)
//! .data t @ 40 = -1           ; an explicit slot
//! loop: DEC n                 ; labels name instructions
//!       JNZ n, loop           ; operands follow the ISA table's kinds
//!       MOV xs[3], xs         ; `xs[3]` is an element, `[17]` a raw slot
//!       HALT
//! ```
//!
//! Mnemonics and operand counts come from [`crate::isa::OPS`].

use crate::config::Config;
use crate::diag::{Diagnostic, Span};
use crate::image::{Program, SrcLoc, Symbol};
use crate::isa::{Instr, Opcode, Operand, OPS};
use std::collections::HashMap;
use std::fmt::Write;

/// Assembles `source` for `config`. Returns every diagnostic on failure.
pub fn assemble(source: &str, config: Config) -> Result<Program, Vec<Diagnostic>> {
    let mut asm =
        Assembler { config, prog: Program::empty(config), labels: HashMap::new(), diags: Vec::new(), next_slot: 0 };
    let lines: Vec<Line> = source.lines().enumerate().map(|(i, t)| tokenize(i as u32 + 1, t)).collect();
    // Pass 1: data and labels.
    let mut pending = Vec::new();
    for line in &lines {
        for (name, span) in &line.labels {
            if asm.labels.insert(name.clone(), pending.len()).is_some() {
                asm.diags.push(Diagnostic::error(*span, format!("label `{name}` is defined twice")));
            }
        }
        match &line.body {
            Body::Empty => {}
            Body::Data(toks) => asm.data(toks),
            Body::Instr(toks) => pending.push((line.number, toks.clone())),
        }
    }
    // Pass 2: instructions.
    for (number, toks) in pending {
        if let Some(ins) = asm.instr(&toks) {
            let first = &toks[0];
            let last = toks.last().unwrap_or(first);
            asm.prog.code.push(ins);
            asm.prog.locs.push(Some(SrcLoc { line: number, col: first.span.col, end_col: last.span.end_col }));
        }
    }
    if asm.prog.code.len() > config.instr_slots() {
        let msg = asm.prog.validate().err().map(|e| e.message).unwrap_or_default();
        asm.diags.push(Diagnostic::error(Span::new(1, 1, 2), msg));
    }
    if asm.diags.is_empty() {
        if let Err(e) = asm.prog.validate() {
            let span = e
                .index
                .and_then(|i| asm.prog.locs[i])
                .map_or(Span::new(1, 1, 2), |l| Span::new(l.line, l.col, l.end_col));
            asm.diags.push(Diagnostic::error(span, e.message));
        }
    }
    if asm.diags.is_empty() {
        Ok(asm.prog)
    } else {
        Err(asm.diags)
    }
}

#[derive(Clone, Debug)]
struct Tok {
    text: String,
    span: Span,
}

enum Body {
    Empty,
    Data(Vec<Tok>),
    Instr(Vec<Tok>),
}

struct Line {
    number: u32,
    labels: Vec<(String, Span)>,
    body: Body,
}

/// Splits a line into tokens: words, numbers and the punctuation `: , = [ ] @`.
fn tokenize(number: u32, text: &str) -> Line {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch == ';' || ch == '#' || (ch == '/' && chars.get(i + 1) == Some(&'/')) {
            break;
        }
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if ch.is_alphanumeric() || ch == '_' || ch == '.' || ch == '-' {
            i += 1;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else {
            i += 1;
        }
        let text: String = chars[start..i].iter().collect();
        toks.push(Tok { text, span: Span::new(number, start as u32 + 1, i as u32 + 1) });
    }
    let mut labels = Vec::new();
    while toks.len() >= 2 && toks[1].text == ":" {
        let t = toks.remove(0);
        toks.remove(0);
        labels.push((t.text, t.span));
    }
    let body = match toks.first() {
        None => Body::Empty,
        Some(t) if t.text.eq_ignore_ascii_case(".data") => Body::Data(toks),
        Some(_) => Body::Instr(toks),
    };
    Line { number, labels, body }
}

struct Assembler {
    config: Config,
    prog: Program,
    labels: HashMap<String, usize>,
    diags: Vec<Diagnostic>,
    next_slot: usize,
}

fn parse_int(t: &Tok) -> Option<i64> {
    let s = t.text.as_str();
    let (neg, body) = s.strip_prefix('-').map_or((false, s), |b| (true, b));
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

fn is_ident(t: &Tok) -> bool {
    t.text.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

impl Assembler {
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// `.data NAME [ '[' LEN ']' ] [ '@' SLOT ] [ '=' V {, V} ]`
    fn data(&mut self, toks: &[Tok]) {
        let dir = &toks[0];
        // `.data @ 17 = 5` initialises a slot without naming it.
        let name = toks.get(1).filter(|t| is_ident(t));
        if name.is_none() && toks.get(1).is_none_or(|t| t.text != "@") {
            return self.err(dir.span, "`.data` needs a name: `.data x = 5`");
        }
        let mut i = if name.is_some() { 2 } else { 1 };
        let mut len = 1;
        let mut is_array = false;
        if toks.get(i).is_some_and(|t| t.text == "[") {
            match (toks.get(i + 1).and_then(parse_int), toks.get(i + 2).map(|t| t.text.as_str())) {
                (Some(n), Some("]")) if n >= 1 => {
                    len = n as usize;
                    is_array = true;
                    i += 3;
                }
                _ => return self.err(toks[i].span, "expected an array length: `name[4]`"),
            }
        }
        let mut slot = self.next_slot;
        if toks.get(i).is_some_and(|t| t.text == "@") {
            match toks.get(i + 1).and_then(parse_int) {
                Some(s) if s >= 0 => slot = s as usize,
                _ => return self.err(toks[i].span, "expected a slot number after `@`"),
            }
            i += 2;
        }
        let mut values = Vec::new();
        if toks.get(i).is_some_and(|t| t.text == "=") {
            i += 1;
            loop {
                let Some(t) = toks.get(i) else {
                    return self.err(toks[i - 1].span, "expected a value");
                };
                let Some(v) = parse_int(t) else {
                    return self.err(t.span, format!("`{}` is not a number", t.text));
                };
                if v < self.config.word_min() as i64 || v > self.config.word_max() as i64 {
                    return self.err(
                        t.span,
                        format!(
                            "{v} does not fit in a {}-bit word ({}..={})",
                            self.config.word_bits,
                            self.config.word_min(),
                            self.config.word_max()
                        ),
                    );
                }
                values.push(v as i32);
                i += 1;
                match toks.get(i) {
                    Some(t) if t.text == "," => i += 1,
                    None => break,
                    Some(t) => return self.err(t.span, "expected `,` between values"),
                }
            }
        }
        if let Some(t) = toks.get(i) {
            return self.err(t.span, format!("unexpected `{}`", t.text));
        }
        let name = name.unwrap_or(dir);
        if values.len() > len {
            return self.err(name.span, format!("{} values given for {len} slot(s)", values.len()));
        }
        if slot + len > self.config.mem_slots {
            let hint = Config::smallest_fitting(0, slot + len, self.config.word_bits)
                .map(|c| format!("; `{}` has {} slots", c.name, c.mem_slots))
                .unwrap_or_default();
            return self.err(
                name.span,
                format!(
                    "`{}` needs slots up to {} but `{}` has {}{hint}",
                    name.text,
                    slot + len,
                    self.config.name,
                    self.config.mem_slots
                ),
            );
        }
        if self.prog.symbols.iter().any(|s| s.name == name.text) {
            return self.err(name.span, format!("`{}` is defined twice", name.text));
        }
        for (k, v) in values.into_iter().enumerate() {
            self.prog.data[slot + k] = v;
        }
        self.next_slot = self.next_slot.max(slot + len);
        if std::ptr::eq(name, dir) {
            return;
        }
        self.prog.symbols.push(Symbol {
            name: name.text.clone(),
            slot,
            len,
            is_array,
            scope: "global".into(),
            hidden: false,
        });
    }

    fn instr(&mut self, toks: &[Tok]) -> Option<Instr> {
        let m = &toks[0];
        let Some(op) = Opcode::from_mnemonic(&m.text) else {
            let names: Vec<_> = OPS.iter().map(|o| o.mnemonic).collect();
            self.diags.push(
                Diagnostic::error(m.span, format!("unknown instruction `{}`", m.text))
                    .with_hint(format!("the instructions are {}", names.join(" "))),
            );
            return None;
        };
        let info = op.info();
        let kinds: Vec<Operand> = [info.a, info.b, info.c].into_iter().filter(|k| *k != Operand::None).collect();
        let groups: Vec<&[Tok]> =
            if toks.len() == 1 { Vec::new() } else { toks[1..].split(|t| t.text == ",").collect() };
        if groups.len() != kinds.len() || groups.iter().any(|g| g.is_empty()) {
            let form = kinds
                .iter()
                .map(|k| if *k == Operand::Target { "label" } else { "mem" })
                .collect::<Vec<_>>()
                .join(", ");
            self.err(m.span, format!("{} takes {} operand(s): `{} {form}`", info.mnemonic, kinds.len(), info.mnemonic));
            return None;
        }
        let mut vals = Vec::new();
        for (kind, g) in kinds.iter().zip(groups) {
            vals.push(self.operand(*kind, g)?);
        }
        let mut fields = [0u32; 3];
        let mut it = vals.into_iter();
        for (f, kind) in fields.iter_mut().zip([info.a, info.b, info.c]) {
            if kind != Operand::None {
                *f = it.next().expect("counted");
            }
        }
        Some(match op.code() {
            Some(code) => Instr { a: code, b: fields[1], c: fields[2] },
            None => Instr::subleq(fields[0], fields[1], fields[2]),
        })
    }

    /// An operand: `name`, `name[i]`, `[slot]`, or a label.
    fn operand(&mut self, kind: Operand, g: &[Tok]) -> Option<u32> {
        let span = Span::new(g[0].span.line, g[0].span.col, g[g.len() - 1].span.end_col);
        let text: String = g.iter().map(|t| t.text.as_str()).collect();
        if kind == Operand::Target {
            return match (g.len(), self.labels.get(&g[0].text)) {
                (1, Some(&k)) => Some(self.config.instr_col(k) as u32),
                _ => {
                    self.err(span, format!("`{text}` is not a label"));
                    None
                }
            };
        }
        let slot = match g {
            [open, n, close] if open.text == "[" && close.text == "]" => parse_int(n).map(|v| v as usize),
            [name] if is_ident(name) => self.prog.symbol(&name.text).map(|s| s.slot),
            [name, open, n, close] if open.text == "[" && close.text == "]" => {
                match (self.prog.symbol(&name.text).cloned(), parse_int(n)) {
                    (Some(sym), Some(i)) if i >= 0 && (i as usize) < sym.len => Some(sym.slot + i as usize),
                    (Some(sym), Some(i)) => {
                        self.err(span, format!("index {i} is outside `{}` (length {})", sym.name, sym.len));
                        return None;
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        match slot {
            Some(s) if s < self.config.mem_slots => Some(self.config.mem_col(s) as u32),
            Some(s) => {
                self.err(span, format!("slot {s} is outside memory (0..{})", self.config.mem_slots - 1));
                None
            }
            None => {
                self.diags.push(
                    Diagnostic::error(span, format!("`{text}` is not a memory operand"))
                        .with_hint("declare it with `.data name = value`, or write a raw slot as `[17]`"),
                );
                None
            }
        }
    }
}

/// Prints a program in the assembly format; `assemble` of the result gives back
/// the same code, memory and visible symbols.
pub fn disassemble(prog: &Program) -> String {
    let cfg = prog.config;
    let mut out = String::new();
    let visible: Vec<&Symbol> = prog.symbols.iter().filter(|s| !s.hidden).collect();
    let mut covered = vec![false; cfg.mem_slots];
    for s in &visible {
        let vals = &prog.data[s.slot..s.slot + s.len];
        let _ = write!(out, ".data {}", s.name);
        if s.is_array {
            let _ = write!(out, "[{}]", s.len);
        }
        let _ = write!(out, " @ {}", s.slot);
        if let Some(last) = vals.iter().rposition(|&v| v != 0) {
            let list: Vec<String> = vals[..=last].iter().map(|v| v.to_string()).collect();
            let _ = write!(out, " = {}", list.join(", "));
        }
        out.push('\n');
        covered[s.slot..s.slot + s.len].iter_mut().for_each(|c| *c = true);
    }
    for (slot, &v) in prog.data.iter().enumerate() {
        if v != 0 && !covered[slot] {
            let _ = writeln!(out, ".data @ {slot} = {v}");
        }
    }
    let mem = |col: u32| prog.slot_name(col);
    let targets: Vec<usize> = prog
        .code
        .iter()
        .filter(|i| i.opcode().is_some_and(|op| op.info().c == Operand::Target))
        .map(|i| i.c as usize - cfg.instr_col(0))
        .collect();
    for (k, ins) in prog.code.iter().enumerate() {
        if targets.contains(&k) {
            let _ = writeln!(out, "L{k}:");
        }
        let _ = writeln!(out, "    {}", format_instr(prog, *ins, &mem));
    }
    out
}

/// One instruction as text, with memory operands named by `mem`.
pub fn format_instr(prog: &Program, ins: Instr, mem: &dyn Fn(u32) -> String) -> String {
    let Some(op) = ins.opcode() else {
        return format!(".word {} {} {}", ins.a, ins.b, ins.c);
    };
    let info = op.info();
    let ops: Vec<String> = [(info.a, ins.a), (info.b, ins.b), (info.c, ins.c)]
        .into_iter()
        .filter(|(k, _)| *k != Operand::None)
        .map(|(k, v)| match k {
            Operand::Target => format!("L{}", v as usize - prog.config.instr_col(0)),
            _ => mem(v),
        })
        .collect();
    if ops.is_empty() {
        info.mnemonic.to_string()
    } else {
        format!("{} {}", info.mnemonic, ops.join(", "))
    }
}

/// A listing for `loom asm`: column, index, raw fields and the instruction text.
pub fn listing(prog: &Program) -> String {
    let cfg = prog.config;
    let mut out = format!("; {} — {} instructions, {} memory slots used\n", cfg, prog.code.len(), prog.used_slots());
    let text = disassemble(prog);
    let mut k = 0;
    for line in text.lines() {
        if line.starts_with("    ") {
            let ins = prog.code[k];
            let _ =
                writeln!(out, "{:5} {:4}  ({:3} {:4} {:4})  {}", cfg.instr_col(k), k, ins.a, ins.b, ins.c, line.trim());
            k += 1;
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}
