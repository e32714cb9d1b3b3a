//! `scanf`: its literal format turned, as the parser reads the call, into calls of the
//! conversion steps `<stdio.h>` defines in C (`__scanf_space`, `__scanf_lit`, `__scanf_d`,
//! `__scanf_u`, `__scanf_c`, `__scanf_s`, `__scanf_end`), one per directive, so the machine
//! does the reading. The steps thread a state: `k ≥ 0` conversions so far; once a
//! directive fails, `−1 − 2k` (the input ended) or `−2 − 2k` (a character did not match),
//! which the later steps pass on untouched and `__scanf_end` turns into `scanf`'s result
//! (the count, or `EOF` when the input ended before the first conversion). Arguments are
//! the user's expressions, so a pointer of the wrong type is reported at the argument by
//! the ordinary check of a call.

use super::ast::{Expr, ExprKind, NodeId};
use super::Sink;
use crate::ctypes::IntTy;
use crate::diag::{Diagnostic, Span};

/// The prefix of the steps' names (the checker names `<stdio.h>` when they are missing).
pub const STEP_PREFIX: &str = "__scanf_";

/// What `scanf` supports, for messages.
pub const SUPPORTED: &str = "scanf's conversions are %d, %u, %x, %c and %s, each with an optional width \
     (`%3d`, `%9s`); spaces in the format skip white space, other characters must match, `%%` matches `%`";

/// The widest field (a width is an `int` constant on every machine).
const MAX_WIDTH: usize = 100;

/// One directive of a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Directive {
    /// White space: skips any amount of white space in the input.
    Space,
    /// A character that must come next.
    Lit(u8),
    /// `%d` `%u` `%x` `%c` `%s` with its width (0: none).
    Conv(u8, usize),
}

fn parse(fmt: &[u8]) -> Result<Vec<Directive>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c.is_ascii_whitespace() {
            if out.last() != Some(&Directive::Space) {
                out.push(Directive::Space);
            }
            continue;
        }
        if c != b'%' {
            out.push(Directive::Lit(c));
            continue;
        }
        let digits = fmt[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        let width = std::str::from_utf8(&fmt[i..i + digits]).ok().and_then(|w| w.parse::<usize>().ok()).unwrap_or(0);
        i += digits;
        match fmt.get(i) {
            Some(b'%') if digits == 0 => {
                // As for a conversion, white space before `%%` is skipped.
                if out.last() != Some(&Directive::Space) {
                    out.push(Directive::Space);
                }
                out.push(Directive::Lit(b'%'));
            }
            Some(&conv @ (b'd' | b'u' | b'x' | b'X' | b'c' | b's')) => {
                if digits > 0 && width == 0 {
                    return Err("a conversion's width must be at least 1".into());
                }
                if width > MAX_WIDTH {
                    return Err(format!("the width {width} is too large (at most {MAX_WIDTH})"));
                }
                out.push(Directive::Conv(conv.to_ascii_lowercase(), width));
            }
            Some(&other) => {
                let what = (other as char).escape_default();
                return Err(format!("`%{what}` is not a conversion scanf supports here"));
            }
            None => return Err("the format ends in the middle of a conversion".into()),
        }
        i += 1;
    }
    Ok(out)
}

/// The expression a call `scanf(args…)` at `span` stands for; an error (reported) gives `0`.
pub fn lower(span: Span, args: Vec<Expr>, fresh: &mut impl FnMut() -> NodeId, sink: &mut Sink) -> Expr {
    let mut mk = |kind: ExprKind| Expr { id: fresh(), kind, span };
    let mut args = args.into_iter();
    let fmt = match args.next() {
        Some(Expr { kind: ExprKind::Str(bytes), span: at, .. }) => parse(&bytes).map_err(|e| (e, at)),
        Some(other) => Err(("scanf's format must be a string literal".to_string(), other.span)),
        None => Err(("scanf needs a format: `scanf(\"%d\", &n)`".to_string(), span)),
    };
    let directives = match fmt {
        Ok(d) => d,
        Err((message, at)) => {
            sink.push(Diagnostic::error(at, message).with_hint(SUPPORTED));
            return mk(ExprKind::Num(0, IntTy::Int));
        }
    };
    let rest: Vec<Expr> = args.collect();
    let convs = directives.iter().filter(|d| matches!(d, Directive::Conv(..))).count();
    if rest.len() != convs {
        let message = format!(
            "scanf's format has {convs} conversion{} but {} argument{} follow{}",
            if convs == 1 { "" } else { "s" },
            rest.len(),
            if rest.len() == 1 { "" } else { "s" },
            if rest.len() == 1 { "s" } else { "" }
        );
        sink.push(Diagnostic::error(span, message).with_hint("pass one pointer per conversion: `scanf(\"%d\", &n)`"));
        return mk(ExprKind::Num(0, IntTy::Int));
    }
    let mut ptrs = rest.into_iter();
    let mut state = mk(ExprKind::Num(0, IntTy::Int));
    for d in directives {
        let num = |v: i64, mk: &mut dyn FnMut(ExprKind) -> Expr| mk(ExprKind::Num(v, IntTy::Int));
        let (step, mut call_args) = match d {
            Directive::Space => ("space", vec![]),
            Directive::Lit(c) => ("lit", vec![num(i64::from(c as i8), &mut mk)]),
            Directive::Conv(conv, width) => {
                let ptr = ptrs.next().expect("invariant: one argument per conversion, counted above");
                let width = num(width as i64, &mut mk);
                match conv {
                    b'd' => ("d", vec![ptr, width]),
                    b'u' | b'x' => ("u", vec![ptr, width, num(if conv == b'u' { 10 } else { 16 }, &mut mk)]),
                    b'c' => ("c", vec![ptr, width]),
                    _ => ("s", vec![ptr, width]),
                }
            }
        };
        call_args.insert(0, state);
        state = mk(ExprKind::Call(format!("{STEP_PREFIX}{step}"), call_args));
    }
    mk(ExprKind::Call(format!("{STEP_PREFIX}end"), vec![state]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_into_directives() {
        use Directive::*;
        assert_eq!(parse(b"%d,%3s %%").unwrap(), [Conv(b'd', 0), Lit(b','), Conv(b's', 3), Space, Lit(b'%')]);
        assert_eq!(parse(b" %X\n").unwrap(), [Space, Conv(b'x', 0), Space]);
        assert!(parse(b"%f").unwrap_err().contains("`%f`"));
        assert!(parse(b"%0d").is_err());
        assert!(parse(b"%").is_err());
        assert!(parse(b"%101d").is_err());
    }
}
