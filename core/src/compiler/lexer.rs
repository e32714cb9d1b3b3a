//! Tokens with their spans, as the preprocessor (`preprocess`) reads them.
//! Comments, line splices, string literals (escapes decoded) and unsupported
//! lexemes (floats) are handled here so the parser only sees C it can give a
//! precise message about.

use super::Sink;
use crate::ctypes::Suffix;
use crate::diag::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An integer literal: its value (saturated when it needs more than 64 bits), whether
    /// it is decimal (hex and octal constants may take unsigned types), and its suffix.
    Num(u64, bool, Suffix),
    /// A character constant's value (an `int`, the `char` sign-extended as gcc does: `'\xFF'` is −1).
    Char(i64),
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

/// A token as the preprocessor reads it: the place on its logical line, its spelling
/// (for `#` and `##`), and the diagnostics lexing it raised, reported only if `#if`
/// does not skip it (as gcc does: `#if 0` may hold any text).
#[derive(Clone, Debug)]
pub struct RawToken {
    pub token: Token,
    pub text: String,
    /// The first token of a logical line (a `#` there starts a directive).
    pub bol: bool,
    /// Whitespace or a comment precedes it (stringizing keeps one space there).
    pub space: bool,
    pub diags: Vec<Diagnostic>,
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
    line: u32,
    col: u32,
    /// Diagnostics of the token being lexed; they move into its [`RawToken`].
    sink: Sink,
    out: Vec<RawToken>,
    at_line_start: bool,
    space: bool,
}

/// Splits `src` into tokens, the last one `Eof` (carrying an unterminated comment's error). Never fails:
/// bad input becomes diagnostics.
pub fn lex(src: &str) -> Vec<RawToken> {
    let mut lx = Lexer {
        chars: src.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
        sink: Sink::new(),
        out: Vec::new(),
        at_line_start: true,
        space: false,
    };
    lx.run();
    let span = Span::new(lx.line, lx.col, lx.col + 1);
    let diags = std::mem::take(&mut lx.sink);
    let token = Token { tok: Tok::Eof, span };
    lx.out.push(RawToken { token, text: String::new(), bol: true, space: true, diags });
    lx.out
}

impl Lexer {
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
        while self.i < self.chars.len() {
            let c = self.peek(0);
            if c == '\\' && (self.peek(1) == '\n' || (self.peek(1) == '\r' && self.peek(2) == '\n')) {
                // A line splice: the logical line (a directive) goes on.
                let bol = self.at_line_start;
                while self.bump() != '\n' {}
                self.at_line_start = bol;
                continue;
            }
            if c == '\n' || c.is_whitespace() {
                self.bump();
                self.space = true;
                continue;
            }
            if c == '/' && self.peek(1) == '/' {
                while self.i < self.chars.len() && self.peek(0) != '\n' {
                    self.bump();
                }
                self.space = true;
                continue;
            }
            if c == '/' && self.peek(1) == '*' {
                // A comment is one space: one spanning lines does not end the line it starts on.
                let bol = self.at_line_start;
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
                self.at_line_start = bol;
                self.space = true;
                continue;
            }
            let (bol, space, start) = (self.at_line_start, self.space, self.i);
            self.at_line_start = false;
            self.space = false;
            let Some(token) = self.token() else { continue };
            // A literal cut by the end of the text bumps past it.
            let text = self.chars[start..self.i.min(self.chars.len())].iter().collect();
            let diags = std::mem::take(&mut self.sink);
            self.out.push(RawToken { token, text, bol, space, diags });
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
        let unsuffixed = lower.trim_end_matches(['u', 'l']);
        let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
            (h.to_string(), 16)
        } else if unsuffixed.len() > 1 && unsuffixed.starts_with('0') && unsuffixed.chars().all(|c| c.is_ascii_digit())
        {
            (lower[1..].to_string(), 8)
        } else {
            (lower.clone(), 10)
        };
        let err = |msg: String| Diagnostic::error(span, msg);
        let zero = Some(Token { tok: Tok::Num(0, true, Suffix::default()), span });
        if radix == 10 && (lower.contains('.') || lower.contains('e')) && !lower.starts_with("0x") {
            self.sink.push(err("floating-point numbers are unsupported".into()).with_note("the types are integers"));
            return zero;
        }
        let body = digits.trim_end_matches(['u', 'l']);
        let Some(suffix) = suffix(&digits[body.len()..]) else {
            self.sink.push(
                err(format!("the literal suffix in `{text}` is not C"))
                    .with_note("the suffixes are `u`, `l`, `ll` and their combinations (`ul`, `ull`)"),
            );
            return zero;
        };
        if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
            self.sink.push(err(format!("`{text}` is not a valid number")));
            return zero;
        }
        let value = u64::from_str_radix(body, radix).unwrap_or(u64::MAX);
        Some(Token { tok: Tok::Num(value, radix == 10, suffix), span })
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
        let (v, escaped) = match self.bump() {
            '\\' => (self.escape(), true),
            c => (c as i64, false),
        };
        let closed = self.peek(0) == '\'';
        if closed {
            self.bump();
        }
        let span = Span::new(line, col, if self.line == line { self.col } else { col + 1 });
        if !closed {
            self.sink.push(Diagnostic::error(span, "unterminated character literal"));
        }
        // An escaped byte is a `char`, signed as gcc's: `'\xFF'` is −1.
        let v = if escaped && (128..256).contains(&v) { v - 256 } else { v };
        Some(Token { tok: Tok::Char(v), span })
    }
}

/// A literal's suffix (already lower-cased): `u`, `l`, `ll`, in either order with `u`.
fn suffix(s: &str) -> Option<Suffix> {
    let (unsigned, long) = match s {
        "" => (false, 0),
        "u" => (true, 0),
        "l" => (false, 1),
        "ul" | "lu" => (true, 1),
        "ll" => (false, 2),
        "ull" | "llu" => (true, 2),
        _ => return None,
    };
    Some(Suffix { unsigned, long })
}
