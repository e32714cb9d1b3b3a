//! The C preprocessor: directives, conditional compilation, `#include` of the
//! playground's headers, and macro expansion (in `expand`), over the lexer's
//! tokens. It sits between `lexer` and `parser` and is the only place macros
//! exist.
//!
//! Every token it puts out carries a span into the user's text, so later
//! errors point there: a token of a macro's body gets the span of the
//! invocation (`MAX(a, b)`), an argument's token keeps its own, a header's
//! token gets the `#include` line. Each invocation is recorded as an
//! [`Expansion`], and [`explain`] adds "in the expansion of macro …" notes to
//! the diagnostics that fall inside one.

mod cond;
mod expand;
mod headers;
mod library;
#[cfg(test)]
mod tests;

use super::lexer::{self, RawToken, Tok, Token};
use super::parser::join;
use super::Sink;
use crate::config::Config;
use crate::diag::{Diagnostic, Span};
use std::collections::HashMap;
use std::rc::Rc;

pub use library::declaring;

/// A token being preprocessed: a [`Token`] with its spelling, whether space precedes it, and its hide set
/// (the macros whose expansion produced it, which it must not expand again).
#[derive(Clone, Debug)]
struct PpTok {
    tok: Tok,
    span: Span,
    text: String,
    space: bool,
    hide: Rc<Vec<Rc<str>>>,
}

impl PpTok {
    fn from_raw(r: RawToken) -> PpTok {
        PpTok { tok: r.token.tok, span: r.token.span, text: r.text, space: r.space, hide: Rc::default() }
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.tok, Tok::Punct(q) if q == p)
    }

    fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(s) => Some(s),
            _ => None,
        }
    }
}

/// A macro definition.
#[derive(Debug)]
struct Macro {
    /// Its name, shared by the hide sets of the tokens it produces.
    name: Rc<str>,
    /// The parameter names of a function-like macro (`__VA_ARGS__` last if variadic).
    params: Option<Vec<String>>,
    variadic: bool,
    body: Vec<(Tok, String, bool)>,
    /// Where it was defined, for notes: "on line 3", "in <limits.h>".
    origin: String,
}

/// One invocation of a macro in the user's text.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// The invocation: the name, through the closing parenthesis if on the same line.
    pub span: Span,
    pub name: String,
    /// Where the macro was defined ("on line 3", "in <limits.h>").
    pub origin: String,
}

/// The tokens the parser reads and the macro invocations that produced some of them.
pub struct Preprocessed {
    pub tokens: Vec<Token>,
    pub expansions: Vec<Expansion>,
    /// Where each header was included: its tokens all carry this span, so a declaration
    /// with one of these spans is the library's.
    pub includes: Vec<Span>,
}

/// An open `#if` group.
struct Cond {
    /// Where the `#if`/`#ifdef`/`#ifndef` is (for "unterminated" errors).
    span: Span,
    /// Whether the enclosing groups are all active.
    outer: bool,
    /// Whether a branch of this group was taken (so `#elif`/`#else` are skipped).
    taken: bool,
    /// Whether the current branch is active.
    active: bool,
    seen_else: bool,
}

/// Nested `#include`s deeper than this are refused (a header that includes itself).
const MAX_INCLUDE_DEPTH: u32 = 16;

/// Tokens all macro expansions of one program may produce, so `#define A B B` chains cannot exhaust memory
/// or time (the page preprocesses on each keystroke; this much takes about 0.2 s). A program that fits the
/// machine is far smaller.
const MAX_EXPANDED: usize = 1 << 16;

struct Pp<'a> {
    macros: HashMap<String, Rc<Macro>>,
    conds: Vec<Cond>,
    out: Vec<Token>,
    expansions: Vec<Expansion>,
    includes: Vec<Span>,
    sink: &'a mut Sink,
    /// Tokens expansions may still produce ([`MAX_EXPANDED`]).
    budget: usize,
    /// The budget ran out (reported once).
    too_large: bool,
    /// Nesting of argument pre-expansion (`F(F(F(x)))`), bounded so it cannot overflow the stack.
    depth: u32,
    /// The machine's word size, which `<limits.h>` and `<stdint.h>` are written for.
    word: u32,
}

/// Preprocesses a translation unit for `config` (whose word size sets `__INT_MAX__` and friends).
pub fn preprocess(src: &str, config: Config, sink: &mut Sink) -> Preprocessed {
    let mut pp = Pp {
        macros: HashMap::new(),
        conds: Vec::new(),
        out: Vec::new(),
        expansions: Vec::new(),
        includes: Vec::new(),
        sink,
        budget: MAX_EXPANDED,
        too_large: false,
        depth: 0,
        word: config.word_bits,
    };
    let predefined = lexer::lex(&headers::predefined(config));
    pp.file(predefined, Some((Span::new(1, 1, 2), headers::PREDEFINED)), 0);
    let toks = lexer::lex(src);
    let eof = toks.last().map_or(Span::new(1, 1, 2), |t| t.token.span);
    pp.file(toks, None, 0);
    pp.out.push(Token { tok: Tok::Eof, span: eof });
    Preprocessed { tokens: pp.out, expansions: pp.expansions, includes: pp.includes }
}

/// Adds to each diagnostic inside a macro invocation a note naming the macro (innermost first).
pub fn explain(diags: &mut [Diagnostic], expansions: &[Expansion]) {
    for d in diags {
        let s = d.span;
        let mut inside: Vec<&Expansion> = expansions
            .iter()
            .filter(|e| e.span.line == s.line && e.span.col <= s.col && s.end_col <= e.span.end_col)
            .collect();
        inside.sort_by_key(|e| e.span.end_col - e.span.col);
        inside.dedup_by(|a, b| a.span == b.span && a.name == b.name);
        for e in inside {
            d.notes.push(format!("in the expansion of macro `{}` (defined {})", e.name, e.origin));
        }
    }
}

impl Pp<'_> {
    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.sink.push(Diagnostic::error(span, msg));
    }

    /// Preprocesses one file's tokens. `include` is the span of the `#include` that brought a header in
    /// (every token of it is then placed there) and the header's name.
    fn file(&mut self, toks: Vec<RawToken>, include: Option<(Span, &str)>, depth: u32) {
        let conds_before = self.conds.len();
        let mut text: Vec<PpTok> = Vec::new();
        let mut it = toks.into_iter().peekable();
        while let Some(mut t) = it.next() {
            if let Some((span, _)) = include {
                t.token.span = span;
                for d in &mut t.diags {
                    d.span = span;
                }
            }
            if t.token.tok == Tok::Eof {
                self.sink.append(&mut t.diags);
                break;
            }
            if !(t.bol && t.token.tok == Tok::Punct("#")) {
                if self.active() {
                    self.sink.append(&mut t.diags);
                    text.push(PpTok::from_raw(t));
                }
                continue;
            }
            let hash = t.token.span;
            let mut line = Vec::new();
            while let Some(n) = it.next_if(|n| !n.bol) {
                line.push(n);
            }
            if let Some((span, _)) = include {
                line.iter_mut().for_each(|n| n.token.span = span);
            }
            // Text before a directive is expanded with the macros defined before it.
            let pending = std::mem::take(&mut text);
            let expanded = self.expand(pending);
            self.out.extend(expanded.into_iter().map(|p| Token { tok: p.tok, span: p.span }));
            self.directive(hash, line, include.map(|i| i.1), depth);
        }
        let expanded = self.expand(text);
        self.out.extend(expanded.into_iter().map(|p| Token { tok: p.tok, span: p.span }));
        while self.conds.len() > conds_before {
            if let Some(c) = self.conds.pop() {
                self.sink.push(
                    Diagnostic::error(c.span, "unterminated conditional directive").with_hint("close it with `#endif`"),
                );
            }
        }
    }

    fn directive(&mut self, hash: Span, mut line: Vec<RawToken>, header: Option<&str>, depth: u32) {
        let Some(first) = line.first() else { return }; // the null directive `#`
        let span = join(hash, first.token.span);
        let name = match &first.token.tok {
            Tok::Ident(n) => n.clone(),
            _ if !self.active() => return,
            _ => return self.error(first.token.span, "expected a directive name after `#`"),
        };
        if self.conditional(&name, span, &line[1..]) {
            return;
        }
        if !self.active() {
            return;
        }
        if name != "error" && name != "warning" {
            for t in &mut line {
                self.sink.append(&mut t.diags);
            }
        }
        let args: Vec<PpTok> = line.into_iter().skip(1).map(PpTok::from_raw).collect();
        match name.as_str() {
            "define" => self.define(span, args, header),
            "undef" => match args.as_slice() {
                [t] if t.ident().is_some() => {
                    let n = t.ident().unwrap_or_default().to_string();
                    self.macros.remove(&n);
                }
                _ => self.error(span, "`#undef` needs exactly one macro name"),
            },
            "include" => self.include(span, &args, depth),
            "error" | "warning" => {
                let msg = format!("#{name} {}", spelling(&args));
                let d = if name == "error" { Diagnostic::error(span, msg) } else { Diagnostic::warning(span, msg) };
                self.sink.push(d);
            }
            "pragma" => self.sink.push(
                Diagnostic::warning(span, "`#pragma` is ignored")
                    .with_note("no pragma changes how this compiler works"),
            ),
            "line" => self.error(span, "the directive `#line` is unsupported"),
            _ => self.sink.push(Diagnostic::error(span, format!("unknown directive `#{name}`")).with_hint(
                "directives: #define #undef #include #if #ifdef #ifndef #elif #else #endif #error #warning",
            )),
        }
    }

    fn define(&mut self, span: Span, args: Vec<PpTok>, header: Option<&str>) {
        let Some(name) = args.first().and_then(|t| t.ident().map(str::to_string)) else {
            return self.error(span, "`#define` needs a macro name");
        };
        let name_span = args[0].span;
        if name == "defined" || name == "__LINE__" || name == "__FILE__" {
            return self.error(name_span, format!("`{name}` cannot be defined as a macro"));
        }
        let mut k = 1;
        let mut params = None;
        let mut variadic = false;
        // `F(` with no space between is a function-like macro; `F (` an object-like one whose body starts with `(`.
        if args.get(1).is_some_and(|t| t.is("(") && !t.space) {
            let mut ps = Vec::new();
            k = 2;
            loop {
                match args.get(k) {
                    Some(t) if t.is(")") && ps.is_empty() => break,
                    Some(t) if t.is("...") => {
                        variadic = true;
                        ps.push("__VA_ARGS__".to_string());
                        k += 1;
                        if !args.get(k).is_some_and(|t| t.is(")")) {
                            return self.error(t.span, "`...` must be the last parameter");
                        }
                        break;
                    }
                    Some(t) if t.ident().is_some() => {
                        let p = t.ident().unwrap_or_default().to_string();
                        if ps.contains(&p) {
                            return self.error(t.span, format!("duplicate macro parameter `{p}`"));
                        }
                        ps.push(p);
                        k += 1;
                        match args.get(k) {
                            Some(t) if t.is(",") => k += 1,
                            Some(t) if t.is(")") => break,
                            _ => return self.error(span, format!("expected `,` or `)` in the parameters of `{name}`")),
                        }
                    }
                    _ => return self.error(span, format!("expected a parameter name in `#define {name}(`")),
                }
            }
            k += 1;
            params = Some(ps);
        }
        let body: Vec<(Tok, String, bool)> =
            args[k..].iter().map(|t| (t.tok.clone(), t.text.clone(), t.space)).collect();
        if let Some(ps) = &params {
            for (i, (tok, _, _)) in body.iter().enumerate() {
                let next_is_param = match body.get(i + 1) {
                    Some((Tok::Ident(n), _, _)) => ps.contains(n),
                    _ => false,
                };
                if *tok == Tok::Punct("#") && !next_is_param {
                    return self.error(span, format!("`#` in `{name}` must be followed by a parameter name"));
                }
            }
        }
        if body.first().is_some_and(|b| b.0 == Tok::Punct("##")) || body.last().is_some_and(|b| b.0 == Tok::Punct("##"))
        {
            return self.error(span, "`##` cannot be at either end of a macro's body");
        }
        if !variadic && body.iter().any(|b| b.0 == Tok::Ident("__VA_ARGS__".into())) {
            return self.error(span, "`__VA_ARGS__` can only be used in a variadic macro (`...`)");
        }
        let origin = match header {
            Some(headers::PREDEFINED) => "by the compiler".to_string(),
            Some(h) => format!("in <{h}>"),
            None => format!("on line {}", name_span.line),
        };
        let m = Macro { name: name.as_str().into(), params, variadic, body, origin };
        if let Some(old) = self.macros.get(&name) {
            let same =
                old.params == m.params && old.body.iter().map(|b| (&b.0, b.2)).eq(m.body.iter().map(|b| (&b.0, b.2)));
            if !same {
                self.sink.push(
                    Diagnostic::warning(name_span, format!("`{name}` is redefined"))
                        .with_note(format!("it was defined {}", old.origin)),
                );
            }
        }
        self.macros.insert(name, Rc::new(m));
    }

    fn include(&mut self, span: Span, args: &[PpTok], depth: u32) {
        let name = match args {
            [t] if matches!(t.tok, Tok::Str(_)) => t.text.trim_matches('"').to_string(),
            [open, inner @ .., close] if open.is("<") && close.is(">") => {
                inner.iter().map(|t| t.text.as_str()).collect()
            }
            _ => return self.error(span, "`#include` needs a header name: `#include <stdio.h>`"),
        };
        let Some(text) = headers::text(&name, self.word) else {
            let at = args.iter().fold(args[0].span, |s, t| join(s, t.span));
            self.sink.push(
                Diagnostic::error(at, format!("the header `{name}` does not exist here"))
                    .with_note(format!("the playground's headers: {}", headers::NAMES.join(", "))),
            );
            return;
        };
        if depth >= MAX_INCLUDE_DEPTH {
            return self.error(span, format!("`#include <{name}>` nests too deeply"));
        }
        let at = args.iter().fold(span, |s, t| join(s, t.span));
        let name: &'static str = headers::NAMES.iter().find(|n| **n == name).copied().unwrap_or("header");
        self.includes.push(at);
        self.file(lexer::lex(&text), Some((at, name)), depth + 1);
    }
}

/// The tokens' spelling with single spaces where the source had whitespace (for `#error` and `#`).
fn spelling(toks: &[PpTok]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.space {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}
