//! Pointing a load error at its place in the input. A binary error has a byte
//! offset; the operator at that offset is found by walking the code section
//! with `wasmparser`. For WAT, the text is parsed again (only on this error
//! path) by `wast`, the parser inside `wat`, with instruction spans on: its
//! instruction list is in binary order, one entry per operator, so the n-th
//! operator of a function's body is the n-th span (the body's final `end`,
//! which has no text of its own, points at the function).

use super::LoadError;
use crate::diag::Span;
use wasmparser::{Parser, Payload};

/// Fills in the function and operator of an error that has only an offset.
pub(super) fn in_binary(mut e: LoadError, bytes: &[u8]) -> LoadError {
    if let (None, Some(offset)) = (e.func, e.offset) {
        if let Some((func, op)) = operator_at(bytes, offset) {
            (e.func, e.op) = (Some(func), Some(op));
        }
    }
    e
}

/// As [`in_binary`], then the WAT line and column.
pub(super) fn in_wat(e: LoadError, bytes: &[u8], text: &str) -> LoadError {
    let mut e = in_binary(e, bytes);
    e.span = match (e.func, e.op) {
        (Some(func), op) => instr_span(text, func, op),
        _ => None,
    };
    e
}

/// An error from `wat` itself (syntax, unknown names): the same parse by
/// `wast` gives the span `wat` rendered into its message.
pub(super) fn wat_syntax_error(text: &str, rendered: &str) -> LoadError {
    let err = match wast::parser::ParseBuffer::new(text) {
        Err(e) => Some(e),
        Ok(buf) => match wast::parser::parse::<wast::Wat>(&buf) {
            Err(e) => Some(e),
            Ok(mut wat) => wat.encode().err(),
        },
    };
    match err {
        Some(e) => {
            let mut out = LoadError::new(e.message(), None);
            out.span = Some(span_at(text, e.span().offset()));
            out
        }
        None => LoadError::new(rendered, None),
    }
}

/// The defined function whose body holds `offset`, and the index of the
/// operator starting at or before it.
fn operator_at(bytes: &[u8], offset: usize) -> Option<(u32, u32)> {
    let mut func = 0;
    for payload in Parser::new(0).parse_all(bytes) {
        if let Payload::CodeSectionEntry(body) = payload.ok()? {
            let range = body.range();
            if range.start <= offset && offset <= range.end {
                let mut last = 0;
                for (i, item) in body.get_operators_reader().ok()?.into_iter_with_offsets().enumerate() {
                    match item {
                        Ok((_, at)) if at <= offset => last = i as u32,
                        _ => break,
                    }
                }
                return Some((func, last));
            }
            func += 1;
        }
    }
    None
}

/// The span of operator `op` of defined function `func` in WAT text (the
/// function's own span when `op` is `None` or its final `end`).
fn instr_span(text: &str, func: u32, op: Option<u32>) -> Option<Span> {
    use wast::core::{FuncKind, ModuleField, ModuleKind};
    let mut buf = wast::parser::ParseBuffer::new(text).ok()?;
    buf.track_instr_spans(true);
    let wat = wast::parser::parse::<wast::Wat>(&buf).ok()?;
    let wast::Wat::Module(module) = &wat else { return None };
    let ModuleKind::Text(fields) = &module.kind else { return None };
    let (span, expr) = fields
        .iter()
        .filter_map(|f| match f {
            ModuleField::Func(f) => match &f.kind {
                FuncKind::Inline { expression, .. } => Some((f.span, expression)),
                FuncKind::Import(_) => None,
            },
            _ => None,
        })
        .nth(func as usize)?;
    let at = op.and_then(|op| expr.instr_spans.as_ref()?.get(op as usize).copied()).unwrap_or(span);
    Some(span_at(text, at.offset()))
}

/// The 1-based line and column of a byte offset, spanning the token there.
fn span_at(text: &str, offset: usize) -> Span {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or_default();
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().unwrap_or_default().chars().count() as u32 + 1;
    let token = text.get(offset..).unwrap_or_default().chars().take_while(|c| !c.is_whitespace() && !"()".contains(*c));
    Span::new(line, col, col + token.count() as u32)
}
