//! Macro expansion with hide sets (Prosser's algorithm, as C 6.10.3 describes
//! it): a token produced by expanding `M` carries `M` in its hide set and is
//! never expanded as `M` again, so `#define x x + 1` stops after one step.
//! Arguments are fully expanded before substitution except next to `#` and
//! `##`; the result is rescanned with the rest of the text.

use super::{Expansion, Macro, Pp, PpTok};
use crate::compiler::lexer::{self, Tok};
use crate::compiler::parser::join;
use crate::compiler::types::Suffix;
use crate::diag::{Diagnostic, Span};
use std::rc::Rc;

/// Argument pre-expansion nested deeper than this (`F(F(F(…)))`) is refused.
const MAX_DEPTH: u32 = 64;

impl Pp<'_> {
    /// Expands every macro in `toks`.
    pub(super) fn expand(&mut self, toks: Vec<PpTok>) -> Vec<PpTok> {
        let mut input = toks;
        input.reverse();
        let mut out = Vec::new();
        while let Some(t) = input.pop() {
            let Some(name) = t.ident() else {
                out.push(t);
                continue;
            };
            match name {
                "__LINE__" => {
                    let line = t.span.line as u64;
                    out.push(PpTok { tok: Tok::Num(line, true, Suffix::default()), text: line.to_string(), ..t });
                    continue;
                }
                "__FILE__" => {
                    out.push(PpTok { tok: Tok::Str(b"prog.c".to_vec()), text: "\"prog.c\"".into(), ..t });
                    continue;
                }
                _ => {}
            }
            let Some(m) = self.macros.get(name).cloned() else {
                out.push(t);
                continue;
            };
            let function_like = m.params.is_some();
            if t.hide.iter().any(|h| **h == *name) || (function_like && !input.last().is_some_and(|n| n.is("("))) {
                out.push(t);
                continue;
            }
            // Each expansion costs its body and one, so even empty macros count.
            let cost = m.body.len() + 1;
            if self.budget < cost {
                if !self.too_large {
                    self.error(t.span, format!("the expansion of macro `{name}` is too large"));
                    self.too_large = true;
                }
                out.push(t);
                continue;
            }
            self.budget -= cost;
            let name = name.to_string();
            let (args, span, hide) = if function_like {
                let Some((args, close)) = self.arguments(&mut input, &t, &m) else { continue };
                // C's rule: the hide set is what the name and the `)` both carry, plus the macro.
                let common: Vec<Rc<str>> = t.hide.iter().filter(|h| close.hide.contains(h)).cloned().collect();
                (args, join(t.span, close.span), common)
            } else {
                (Vec::new(), t.span, t.hide.to_vec())
            };
            if t.hide.is_empty() {
                self.expansions.push(Expansion { span, name: name.clone(), origin: m.origin.clone() });
            }
            let mut hide = hide;
            hide.push(m.name.clone());
            let body = self.substitute(&m, args, span, &Rc::new(hide), t.space);
            input.extend(body.into_iter().rev());
        }
        out
    }

    /// Reads a function-like macro's arguments after its name (`input` is reversed: its end is next),
    /// through the closing parenthesis; `None` after an error.
    fn arguments(&mut self, input: &mut Vec<PpTok>, name: &PpTok, m: &Macro) -> Option<(Vec<Vec<PpTok>>, PpTok)> {
        let params = m.params.as_ref().map_or(0, Vec::len);
        input.pop(); // `(`
        let mut args = vec![Vec::new()];
        let mut depth = 0;
        let close = loop {
            let Some(t) = input.pop() else {
                let msg = format!("the call of macro `{}` has no closing `)`", name.text);
                self.sink.push(Diagnostic::error(name.span, msg));
                return None;
            };
            if t.is(")") && depth == 0 {
                break t;
            }
            if t.is(",") && depth == 0 && !(m.variadic && args.len() == params) {
                args.push(Vec::new());
                continue;
            }
            depth += t.is("(") as i32 - t.is(")") as i32;
            args.last_mut()?.push(t);
        };
        if params == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if m.variadic && args.len() + 1 == params {
            args.push(Vec::new());
        }
        if args.len() != params {
            let span = join(name.span, close.span);
            let msg = format!("macro `{}` takes {params} argument(s) but {} were given", name.text, args.len());
            let shape = m.params.as_ref().map(|p| p.join(", ")).unwrap_or_default();
            let d = Diagnostic::error(span, msg).with_note(format!("it is `{}({shape})`", name.text));
            self.sink.push(d);
            return None;
        }
        Some((args, close))
    }

    /// The macro's body with parameters replaced, `#` and `##` applied, every token given the
    /// invocation's hide set; body tokens take the invocation's span, arguments keep theirs.
    fn substitute(
        &mut self,
        m: &Macro,
        args: Vec<Vec<PpTok>>,
        span: Span,
        hide: &Rc<Vec<Rc<str>>>,
        space: bool,
    ) -> Vec<PpTok> {
        let params: &[String] = m.params.as_deref().unwrap_or(&[]);
        let param = |tok: &Tok| match tok {
            Tok::Ident(n) => params.iter().position(|p| p == n),
            _ => None,
        };
        let body: Vec<PpTok> = m
            .body
            .iter()
            .map(|(tok, text, sp)| PpTok {
                tok: tok.clone(),
                span,
                text: text.clone(),
                space: *sp,
                hide: Rc::default(),
            })
            .collect();
        let mut expanded: Vec<Option<Vec<PpTok>>> = vec![None; args.len()];
        let mut out: Vec<PpTok> = Vec::new();
        // The left operand of a `##` was an empty argument: nothing to paste onto.
        let mut placemarker = false;
        let mut k = 0;
        while k < body.len() {
            let t = &body[k];
            let next_param = body.get(k + 1).and_then(|n| param(&n.tok));
            if m.params.is_some() && t.is("#") {
                if let Some(p) = next_param {
                    out.push(stringize(&args[p], span, t.space));
                    k += 2;
                    placemarker = false;
                    continue;
                }
            }
            if t.is("##") && k + 1 < body.len() {
                let rhs = match next_param {
                    Some(p) => args[p].clone(),
                    None => vec![body[k + 1].clone()],
                };
                k += 2;
                // gcc's `, ## __VA_ARGS__`: the comma goes when there are no variable arguments.
                let va = next_param.is_some() && m.variadic && next_param == Some(params.len() - 1);
                if va && out.last().is_some_and(|c| c.is(",")) && !placemarker {
                    if rhs.is_empty() {
                        out.pop();
                    }
                    out.extend(rhs);
                    continue;
                }
                let mut rhs = rhs.into_iter();
                match (placemarker, out.pop(), rhs.next()) {
                    (false, Some(l), Some(r)) => {
                        let pasted = self.paste(l, r);
                        out.extend(pasted);
                    }
                    (_, l, r) => out.extend(l.into_iter().chain(r)),
                }
                out.extend(rhs);
                placemarker = false;
                continue;
            }
            if let Some(p) = param(&t.tok) {
                let before_paste = body.get(k + 1).is_some_and(|n| n.is("##"));
                let mut toks = if before_paste {
                    args[p].clone()
                } else {
                    if expanded[p].is_none() {
                        expanded[p] = Some(self.expand_argument(args[p].clone()));
                    }
                    expanded[p].clone().unwrap_or_default()
                };
                placemarker = toks.is_empty();
                if let Some(first) = toks.first_mut() {
                    first.space = t.space;
                }
                out.extend(toks);
                k += 1;
                continue;
            }
            placemarker = false;
            out.push(t.clone());
            k += 1;
        }
        for t in &mut out {
            if t.hide.is_empty() {
                t.hide = hide.clone();
            } else {
                let mut h = t.hide.to_vec();
                h.extend(hide.iter().filter(|n| !t.hide.contains(n)).cloned());
                t.hide = Rc::new(h);
            }
        }
        if let Some(first) = out.first_mut() {
            first.space = space;
        }
        out
    }

    fn expand_argument(&mut self, arg: Vec<PpTok>) -> Vec<PpTok> {
        if self.depth >= MAX_DEPTH {
            if let Some(t) = arg.first() {
                self.error(t.span, "macro calls nest too deeply");
            }
            return arg;
        }
        self.depth += 1;
        let v = self.expand(arg);
        self.depth -= 1;
        v
    }

    /// `l ## r`: the token their spellings make together (an error and both tokens if they make none).
    fn paste(&mut self, l: PpTok, r: PpTok) -> Vec<PpTok> {
        let text = format!("{}{}", l.text, r.text);
        let mut lexed = lexer::lex(&text);
        if lexed.len() == 2 && lexed[0].text == text {
            let raw = lexed.swap_remove(0);
            for mut d in raw.diags {
                d.span = l.span;
                self.sink.push(d);
            }
            return vec![PpTok { tok: raw.token.tok, text, ..l }];
        }
        let msg = format!("pasting `{}` and `{}` does not give a valid token", l.text, r.text);
        self.sink.push(Diagnostic::error(l.span, msg));
        vec![l, r]
    }
}

/// `#arg`: a string literal spelling the argument as written (the `"` and `\` of its literals escaped:
/// outside literals, tokens have neither).
fn stringize(arg: &[PpTok], span: Span, space: bool) -> PpTok {
    let spelled = super::spelling(arg);
    let mut text = String::from('"');
    for c in spelled.chars() {
        if c == '"' || c == '\\' {
            text.push('\\');
        }
        text.push(c);
    }
    text.push('"');
    PpTok { tok: Tok::Str(spelled.into_bytes()), span, text, space, hide: Rc::default() }
}
