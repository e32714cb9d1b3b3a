//! Conditional compilation: `#if #ifdef #ifndef #elif #else #endif`, and the
//! integer constant expressions of `#if` (evaluated in 64 bits, as C's
//! `intmax_t`; `defined NAME`, remaining names are 0).

use super::{Cond, Pp, PpTok};
use crate::compiler::lexer::{RawToken, Tok};
use crate::ctypes::Suffix;
use crate::diag::Span;

type EResult = Result<i64, (Span, String)>;

/// Parenthesis nesting in an `#if` beyond this is refused (the evaluator recurses).
const MAX_NESTING: u32 = 100;

impl Pp<'_> {
    /// Handles a conditional directive (also inside skipped groups, to track nesting); false for others.
    pub(super) fn conditional(&mut self, name: &str, span: Span, args: &[RawToken]) -> bool {
        match name {
            "if" | "ifdef" | "ifndef" => {
                let outer = self.active();
                let active = outer
                    && match name {
                        "if" => self.eval(span, args),
                        _ => self.is_defined(span, name, args) == (name == "ifdef"),
                    };
                self.conds.push(Cond { span, outer, taken: active, active, seen_else: false });
            }
            "elif" | "else" => {
                let Some(c) = self.conds.last() else {
                    self.error(span, format!("`#{name}` without `#if`"));
                    return true;
                };
                let (outer, taken, seen_else) = (c.outer, c.taken, c.seen_else);
                if seen_else {
                    self.error(span, format!("`#{name}` after `#else`"));
                }
                let active = outer && !taken && (name == "else" || self.eval(span, args));
                if let Some(c) = self.conds.last_mut() {
                    c.active = active;
                    c.taken |= active;
                    c.seen_else |= name == "else";
                }
            }
            "endif" => {
                if self.conds.pop().is_none() {
                    self.error(span, "`#endif` without `#if`");
                }
            }
            _ => return false,
        }
        true
    }

    fn is_defined(&mut self, span: Span, name: &str, args: &[RawToken]) -> bool {
        match args {
            [RawToken { token, .. }] if matches!(token.tok, Tok::Ident(_)) => match &token.tok {
                Tok::Ident(n) => self.macros.contains_key(n) || n == "__LINE__" || n == "__FILE__",
                _ => false,
            },
            _ => {
                self.error(span, format!("`#{name}` needs exactly one macro name"));
                false
            }
        }
    }

    /// The value of an `#if`/`#elif` expression is nonzero; errors are reported and count as false.
    fn eval(&mut self, span: Span, args: &[RawToken]) -> bool {
        for a in args {
            self.sink.extend(a.diags.iter().cloned());
        }
        let toks: Vec<PpTok> = args.iter().cloned().map(PpTok::from_raw).collect();
        // `defined` is applied before expansion, so a macro's name is not replaced by its body.
        let mut with_defined = Vec::new();
        let mut k = 0;
        while k < toks.len() {
            if toks[k].ident() != Some("defined") {
                with_defined.push(toks[k].clone());
                k += 1;
                continue;
            }
            let paren = toks.get(k + 1).is_some_and(|t| t.is("("));
            let at = if paren { k + 2 } else { k + 1 };
            let name = toks.get(at).and_then(|t| t.ident());
            if name.is_none() || (paren && !toks.get(at + 1).is_some_and(|t| t.is(")"))) {
                self.error(toks[k].span, "`defined` needs a macro name: `defined(NAME)` or `defined NAME`");
                return false;
            }
            let v = name.is_some_and(|n| self.macros.contains_key(n) || n == "__LINE__" || n == "__FILE__");
            with_defined.push(PpTok {
                tok: Tok::Num(u64::from(v), true, Suffix::default()),
                text: (v as i64).to_string(),
                ..toks[k].clone()
            });
            k = if paren { at + 2 } else { at + 1 };
        }
        let expanded = self.expand(with_defined);
        if expanded.is_empty() {
            self.error(span, "`#if` needs an expression");
            return false;
        }
        let mut ev = Eval { toks: &expanded, i: 0, dead: 0, depth: 0, end: span };
        let result = ev.ternary().and_then(|v| match ev.toks.get(ev.i) {
            None => Ok(v),
            Some(t) => Err((t.span, format!("unexpected `{}` in `#if`", t.text))),
        });
        match result {
            Ok(v) => v != 0,
            Err((at, msg)) => {
                self.error(at, msg);
                false
            }
        }
    }
}

struct Eval<'t> {
    toks: &'t [PpTok],
    i: usize,
    /// Inside an operand that is not evaluated (`0 && x`, `1 || x`, the other arm of `?:`): no division errors.
    dead: u32,
    depth: u32,
    /// Where a missing operand is reported.
    end: Span,
}

impl Eval<'_> {
    fn peek_punct(&self) -> Option<&'static str> {
        match self.toks.get(self.i).map(|t| &t.tok) {
            Some(Tok::Punct(p)) => Some(p),
            _ => None,
        }
    }

    fn eat(&mut self, p: &str) -> bool {
        let yes = self.peek_punct() == Some(p);
        self.i += yes as usize;
        yes
    }

    fn ternary(&mut self) -> EResult {
        let c = self.binary(1)?;
        if !self.eat("?") {
            return Ok(c);
        }
        self.dead += (c == 0) as u32;
        let a = self.ternary()?;
        self.dead -= (c == 0) as u32;
        if !self.eat(":") {
            return Err((self.here(), "expected `:` in `#if`'s `?:`".into()));
        }
        self.dead += (c != 0) as u32;
        let b = self.ternary()?;
        self.dead -= (c != 0) as u32;
        Ok(if c != 0 { a } else { b })
    }

    fn here(&self) -> Span {
        self.toks.get(self.i).map_or(self.end, |t| t.span)
    }

    fn binary(&mut self, min: u8) -> EResult {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = self.peek_punct().and_then(precedence) {
            if prec < min {
                break;
            }
            let at = self.here();
            self.i += 1;
            // `&&` and `||` do not evaluate their right operand when the left decides.
            let skip = (op == "&&" && lhs == 0) || (op == "||" && lhs != 0);
            self.dead += skip as u32;
            let rhs = self.binary(prec + 1)?;
            self.dead -= skip as u32;
            lhs = match op {
                "||" => (lhs != 0 || rhs != 0) as i64,
                "&&" => (lhs != 0 && rhs != 0) as i64,
                "|" => lhs | rhs,
                "^" => lhs ^ rhs,
                "&" => lhs & rhs,
                "==" => (lhs == rhs) as i64,
                "!=" => (lhs != rhs) as i64,
                "<" => (lhs < rhs) as i64,
                ">" => (lhs > rhs) as i64,
                "<=" => (lhs <= rhs) as i64,
                ">=" => (lhs >= rhs) as i64,
                "<<" => lhs.wrapping_shl(rhs as u32),
                ">>" => lhs.wrapping_shr(rhs as u32),
                "+" => lhs.wrapping_add(rhs),
                "-" => lhs.wrapping_sub(rhs),
                "*" => lhs.wrapping_mul(rhs),
                _ if rhs == 0 && self.dead == 0 => return Err((at, "division by zero in `#if`".into())),
                _ if rhs == 0 => 0,
                "/" => lhs.wrapping_div(rhs),
                _ => lhs.wrapping_rem(rhs),
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> EResult {
        let toks = self.toks;
        let Some(t) = toks.get(self.i) else {
            return Err((self.end, "`#if`'s expression ends too early".into()));
        };
        self.i += 1;
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err((t.span, "`#if`'s expression nests too deeply".into()));
        }
        let v = match &t.tok {
            // `#if` computes in intmax_t (64 bits): a suffix changes nothing at these widths.
            Tok::Num(v, ..) => Ok(*v as i64),
            Tok::Char(v) => Ok(*v),
            // Names left after macro expansion are 0 (C 6.10.1).
            Tok::Ident(_) => Ok(0),
            Tok::Punct("-") => self.unary().map(i64::wrapping_neg),
            Tok::Punct("+") => self.unary(),
            Tok::Punct("~") => self.unary().map(|v| !v),
            Tok::Punct("!") => self.unary().map(|v| (v == 0) as i64),
            Tok::Punct("(") => {
                let v = self.ternary()?;
                if self.eat(")") {
                    Ok(v)
                } else {
                    Err((self.here(), "expected `)` in `#if`".into()))
                }
            }
            _ => Err((t.span, format!("`{}` cannot be used in `#if`", t.text))),
        };
        self.depth -= 1;
        v
    }
}

fn precedence(p: &str) -> Option<(&'static str, u8)> {
    Some(match p {
        "||" => ("||", 1),
        "&&" => ("&&", 2),
        "|" => ("|", 3),
        "^" => ("^", 4),
        "&" => ("&", 5),
        "==" => ("==", 6),
        "!=" => ("!=", 6),
        "<" => ("<", 7),
        ">" => (">", 7),
        "<=" => ("<=", 7),
        ">=" => (">=", 7),
        "<<" => ("<<", 8),
        ">>" => (">>", 8),
        "+" => ("+", 9),
        "-" => ("-", 9),
        "*" => ("*", 10),
        "/" => ("/", 10),
        "%" => ("%", 10),
        _ => return None,
    })
}
