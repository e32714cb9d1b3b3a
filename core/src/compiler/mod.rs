//! The C compiler: source text to a [`Program`] image.
//!
//! Phases, one module each: `lexer` (tokens), `preprocess` (directives,
//! macros, the headers), `parser` (syntax
//! tree, `ast`), `checker` (names, types, the call graph) producing a
//! `resolved` program (side tables keyed by node), `codegen` (instructions
//! over symbolic operands; calls inlined, recursive functions compiled once
//! with a return-site dispatch; `codegen::arith` holds the operator
//! sequences), `layout` (labels and memory addresses). The language and the
//! builtins are described in `BUILTINS.md` next to this file.
//!
//! [`compile`] never panics and reports every problem it can find as a
//! [`Diagnostic`]; the UI calls it on each keystroke.

mod ast;
mod checker;
mod codegen;
mod fold;
mod format;
mod layout;
mod lexer;
mod parser;
mod preprocess;
mod resolved;
mod scan;

use crate::asm;
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::image::Program;
use std::fmt::Write;

pub(crate) type Sink = Vec<Diagnostic>;

/// The result of compiling: a program when there were no errors, and all diagnostics (errors and warnings).
#[derive(Clone, Debug)]
pub struct Compiled {
    pub program: Option<Program>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    /// Instruction indices generated for a source line (the inverse of `Program.locs`).
    pub fn instructions_for_line(&self, line: u32) -> Vec<usize> {
        let Some(p) = &self.program else { return Vec::new() };
        p.locs.iter().enumerate().filter(|(_, l)| l.is_some_and(|l| l.line == line)).map(|(i, _)| i).collect()
    }
}

/// Compiles C source for a machine configuration.
pub fn compile(source: &str, config: Config) -> Compiled {
    let mut sink = Sink::new();
    let mut expansions = Vec::new();
    let program = compile_into(source, config, &mut sink, &mut expansions);
    let program = if sink.iter().any(Diagnostic::is_error) { None } else { program };
    preprocess::explain(&mut sink, &expansions);
    sink.sort_by_key(|d| (d.span.line, d.span.col));
    // A macro that uses an argument twice would report its mistake twice at the same place.
    sink.dedup();
    Compiled { program, diagnostics: sink }
}

fn compile_into(
    source: &str,
    config: Config,
    sink: &mut Sink,
    expansions: &mut Vec<preprocess::Expansion>,
) -> Option<Program> {
    if let Err(e) = config.validate() {
        sink.push(Diagnostic::error(crate::diag::Span::new(1, 1, 2), e.0));
        return None;
    }
    let pre = preprocess::preprocess(source, config, sink);
    *expansions = pre.expansions;
    let mut unit = parser::parse(pre.tokens, config, sink);
    unit.library = pre.includes;
    let checked = checker::check(unit, config, sink)?;
    if sink.iter().any(Diagnostic::is_error) {
        return None;
    }
    let mut lowered = codegen::lower(&checked, config, false);
    if !lowered.errors.is_empty() {
        sink.append(&mut lowered.errors);
        return None;
    }
    match layout::layout(lowered, &checked, config) {
        Ok(p) => Some(p),
        Err(d) => {
            // Unrolled long divisions and multiplications cost 2N and N instructions each;
            // looped ones fit where the program did before they existed, at two or three
            // times the steps (still bounded by N).
            match layout::layout(codegen::lower(&checked, config, true), &checked, config) {
                Ok(p) => Some(p),
                Err(_) => {
                    sink.push(d);
                    None
                }
            }
        }
    }
}

/// The disassembly with each C line printed above the instructions compiled from it.
pub fn annotated_listing(compiled: &Compiled, source: &str) -> String {
    let Some(prog) = &compiled.program else { return String::new() };
    let cfg = prog.config;
    let lines: Vec<&str> = source.lines().collect();
    let mut out = format!("; {} — {} instructions, {} memory slots used\n", cfg, prog.code.len(), prog.used_slots());
    for s in prog.symbols.iter() {
        let kind = if s.hidden { "compiler" } else { s.scope.as_str() };
        let _ = writeln!(out, ";   slot {:3}..{:3}  {} ({kind})", s.slot, s.slot + s.len, s.name);
    }
    let name = |col: u32| prog.slot_name(col);
    let mut last_line = 0;
    for (k, ins) in prog.code.iter().enumerate() {
        if let Some(loc) = prog.locs[k] {
            if loc.line != last_line {
                last_line = loc.line;
                let text = lines.get(loc.line as usize - 1).map_or("", |t| t.trim());
                let _ = writeln!(out, "{:>4}: {text}", loc.line);
            }
        }
        let mut tags = String::new();
        if prog.frames.contains(&k) {
            tags.push_str("  ; frame()");
        }
        if let Some(t) = prog.trap_at(k) {
            let _ = write!(tags, "  ; trap: {}", t.message);
        }
        let _ = writeln!(out, "      {k:4}  {}{tags}", asm::format_instr(prog, *ins, &name));
    }
    out
}
