//! Tokens with their spans, after `#define` substitution. Comments, string
//! literals (escapes decoded) and unsupported lexemes (floats) are handled here
//! so the parser only sees C it can give a precise message about.

use super::Sink;
use crate::diag::{Diagnostic, Span};
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An integer literal; `bits_ok` says whether a hex/octal/char form may use the full unsigned N-bit range.
    Num(i64, bool),
    Ident(String),
    /// A string literal's bytes, escapes decoded (UTF-8 for other characters).
    Str(Vec<u8>),
    Punct(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

const PUNCTS: [&str; 48] = [
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
    "%=", "&=", "|=", "^=", "##", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "?", ":", ";", ",",
    "(", ")", "[", "]", "{", "}", ".", "#",
];

struct Lexer<'a> {
    chars: Vec<char>,
    i: usize,
    line: u32,
    col: u32,
    sink: &'a mut Sink,
    macros: HashMap<String, Vec<Token>>,
    out: Vec<Token>,
    at_line_start: bool,
}

/// Splits `src` into tokens, expanding object-like macros. Never fails: bad input becomes diagnostics.
pub fn lex(src: &str, sink: &mut Sink) -> Vec<Token> {
    let mut lx = Lexer {
        chars: src.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
        sink,
        macros: HashMap::new(),
        out: Vec::new(),
        at_line_start: true,
    };
    lx.run();
    let span = Span::new(lx.line, lx.col, lx.col + 1);
    lx.out.push(Token { tok: Tok::Eof, span });
    lx.out
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> char {
        self.chars.get(self.i + k).copied().unwrap_or('\0')
    }

    fn bump(&mut self) -> char {
        let c = self.peek(0);
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
            self.at_line_start = true;
        } else {
            self.col += 1;
        }
        c
    }

    fn run(&mut self) {
        let mut directive: Option<Vec<Token>> = None;
        let mut dir_line = 0;
        while self.i < self.chars.len() {
            if self.line != dir_line {
                if let Some(d) = directive.take() {
                    self.directive(d);
                }
            }
            let c = self.peek(0);
            if c == '\n' || c.is_whitespace() {
                self.bump();
                continue;
            }
            if c == '/' && self.peek(1) == '/' {
                while self.i < self.chars.len() && self.peek(0) != '\n' {
                    self.bump();
                }
                continue;
            }
            if c == '/' && self.peek(1) == '*' {
                let start = Span::new(self.line, self.col, self.col + 2);
                self.bump();
                self.bump();
                while !(self.peek(0) == '*' && self.peek(1) == '/') {
                    if self.i >= self.chars.len() {
                        self.sink
                            .push(Diagnostic::error(start, "unterminated comment").with_hint("close it with `*/`"));
                        return;
                    }
                    self.bump();
                }
                self.bump();
                self.bump();
                continue;
            }
            let starts_line = self.at_line_start;
            self.at_line_start = false;
            let Some(t) = self.token() else { continue };
            if let Some(d) = &mut directive {
                d.push(t);
            } else if starts_line && t.tok == Tok::Punct("#") {
                dir_line = t.span.line;
                directive = Some(vec![t]);
            } else {
                self.emit(t, 0);
            }
        }
        if let Some(d) = directive.take() {
            self.directive(d);
        }
    }

    /// Appends a token, substituting macros (parenthesised, so `#define N 1+2` behaves like a value).
    fn emit(&mut self, t: Token, depth: u32) {
        if let Tok::Ident(name) = &t.tok {
            if let Some(body) = self.macros.get(name).cloned() {
                if depth > 32 {
                    self.sink.push(Diagnostic::error(t.span, format!("macro `{name}` expands into itself")));
                    return;
                }
                let paren = |p| Token { tok: Tok::Punct(p), span: t.span };
                self.out.push(paren("("));
                for b in body {
                    self.emit(Token { tok: b.tok, span: t.span }, depth + 1);
                }
                self.out.push(paren(")"));
                return;
            }
        }
        self.out.push(t);
    }

    fn directive(&mut self, d: Vec<Token>) {
        let hash = d[0].span;
        let name = match d.get(1).map(|t| &t.tok) {
            Some(Tok::Ident(n)) => n.clone(),
            _ => {
                self.sink.push(Diagnostic::error(hash, "expected a directive name after `#`"));
                return;
            }
        };
        let span = d[1].span;
        match name.as_str() {
            "define" => {
                let Some(Token { tok: Tok::Ident(m), span: mspan }) = d.get(2) else {
                    self.sink.push(Diagnostic::error(span, "`#define` needs a name"));
                    return;
                };
                if let Some(p) = d.get(3) {
                    if p.tok == Tok::Punct("(") && p.span.col == mspan.end_col {
                        self.sink.push(
                            Diagnostic::error(p.span, "function-like macros are unsupported")
                                .with_hint("write a function instead; calls are inlined"),
                        );
                        return;
                    }
                }
                if d.len() == 3 {
                    self.sink.push(
                        Diagnostic::error(*mspan, format!("`#define {m}` has no value"))
                            .with_hint(format!("give it an integer value: `#define {m} 1`")),
                    );
                    return;
                }
                self.macros.insert(m.clone(), d[3..].to_vec());
            }
            // The same file builds with gcc: its headers declare what the builtins are here.
            "include" if matches!(header(&d[2..]).as_deref(), Some("stdio.h" | "stdlib.h")) => {}
            "include" => self.sink.push(Diagnostic::warning(span, "`#include` is ignored").with_note(
                "there is no library; the builtins (abs, min, max, assert, frame, putchar, puts, printf) are always \
                 available",
            )),
            _ => self.sink.push(
                Diagnostic::error(span, format!("the directive `#{name}` is unsupported"))
                    .with_hint("only `#define NAME value` is supported"),
            ),
        }
    }

    fn token(&mut self) -> Option<Token> {
        let (line, col) = (self.line, self.col);
        let c = self.peek(0);
        let span_to = |lx: &Self| Span::new(line, col, if lx.line == line { lx.col } else { col + 1 });
        if c.is_ascii_alphabetic() || c == '_' {
            let mut s = String::new();
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == '_' {
                s.push(self.bump());
            }
            return Some(Token { tok: Tok::Ident(s), span: span_to(self) });
        }
        if c.is_ascii_digit() {
            return self.number(line, col);
        }
        if c == '\'' {
            return self.char_lit(line, col);
        }
        if c == '"' {
            self.bump();
            let mut bytes = Vec::new();
            while !matches!(self.peek(0), '"' | '\n') && self.i < self.chars.len() {
                let c = self.bump();
                let v = if c == '\\' { self.escape() } else { c as i64 };
                if c != '\\' && !c.is_ascii() {
                    bytes.extend(c.to_string().bytes());
                } else {
                    // A byte: `"\x1FF"` keeps its low eight bits, as C's `char` would.
                    bytes.push(v as u8);
                }
            }
            let closed = self.peek(0) == '"';
            if closed {
                self.bump();
            }
            let span = span_to(self);
            if !closed {
                self.sink.push(
                    Diagnostic::error(span, "unterminated string literal")
                        .with_hint("close it with `\"` on the same line"),
                );
            }
            return Some(Token { tok: Tok::Str(bytes), span });
        }
        for p in PUNCTS {
            if p.chars().enumerate().all(|(k, pc)| self.peek(k) == pc) {
                for _ in 0..p.len() {
                    self.bump();
                }
                return Some(Token { tok: Tok::Punct(p), span: span_to(self) });
            }
        }
        self.bump();
        self.sink.push(Diagnostic::error(span_to(self), format!("unexpected character `{c}`")));
        None
    }

    fn number(&mut self, line: u32, col: u32) -> Option<Token> {
        let mut text = String::new();
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == '_' || self.peek(0) == '.' {
            text.push(self.bump());
        }
        let span = Span::new(line, col, self.col);
        let lower = text.to_ascii_lowercase();
        let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
            (h.to_string(), 16)
        } else if lower.len() > 1 && lower.starts_with('0') && lower.chars().all(|c| c.is_ascii_digit()) {
            (lower[1..].to_string(), 8)
        } else {
            (lower.clone(), 10)
        };
        let err = |msg: String| Diagnostic::error(span, msg);
        if radix == 10 && (lower.contains('.') || lower.contains('e')) && !lower.starts_with("0x") {
            self.sink.push(err("floating-point numbers are unsupported".into()).with_note("the only type is `int`"));
            return Some(Token { tok: Tok::Num(0, false), span });
        }
        if digits.ends_with(['u', 'l']) {
            self.sink.push(
                err(format!("the literal suffix in `{text}` is unsupported"))
                    .with_note("there are no unsigned or long types; every value is an N-bit int"),
            );
            return Some(Token { tok: Tok::Num(0, false), span });
        }
        match i64::from_str_radix(&digits, radix) {
            // Up to 2^32: every pattern of the widest (32-bit) word; anything larger
            // becomes 2^33, which no word holds, and the parser reports it.
            Ok(v) if v <= 1 << 32 && !digits.is_empty() => Some(Token { tok: Tok::Num(v, radix != 10), span }),
            Ok(_) | Err(_) if digits.chars().all(|c| c.is_digit(radix)) && !digits.is_empty() => {
                Some(Token { tok: Tok::Num(1 << 33, false), span })
            }
            _ => {
                self.sink.push(err(format!("`{text}` is not a valid number")));
                Some(Token { tok: Tok::Num(0, false), span })
            }
        }
    }

    /// The value of an escape sequence, after its backslash.
    fn escape(&mut self) -> i64 {
        match self.bump() {
            'n' => 10,
            't' => 9,
            'r' => 13,
            '0' => 0,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'x' => {
                let mut v = 0i64;
                while self.peek(0).is_ascii_hexdigit() {
                    v = (v * 16 + self.bump().to_digit(16).unwrap_or(0) as i64).min(1 << 20);
                }
                v
            }
            c => c as i64,
        }
    }

    fn char_lit(&mut self, line: u32, col: u32) -> Option<Token> {
        self.bump();
        let v = match self.bump() {
            '\\' => self.escape(),
            c => c as i64,
        };
        let closed = self.peek(0) == '\'';
        if closed {
            self.bump();
        }
        let span = Span::new(line, col, if self.line == line { self.col } else { col + 1 });
        if !closed {
            self.sink.push(Diagnostic::error(span, "unterminated character literal"));
        }
        Some(Token { tok: Tok::Num(v, true), span })
    }
}

/// The file an `#include` names: `<stdio.h>` or `"stdio.h"`.
fn header(toks: &[Token]) -> Option<String> {
    match toks {
        [Token { tok: Tok::Str(name), .. }] => String::from_utf8(name.clone()).ok(),
        [Token { tok: Tok::Punct("<"), .. }, inner @ .., Token { tok: Tok::Punct(">"), .. }] => inner
            .iter()
            .map(|t| match &t.tok {
                Tok::Ident(s) => Some(s.clone()),
                Tok::Punct(p) => Some(p.to_string()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}
