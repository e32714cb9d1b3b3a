//! Initializers: `= e`, `= {…}` (nested for 2-D arrays, or flat with braces
//! left out, as C allows) and `= "text"` for `char` arrays, flattened to one
//! entry per memory word.

use super::Checker;
use crate::compiler::ast::*;
use crate::compiler::resolved::Ty;
use crate::diag::Diagnostic;

pub use crate::compiler::resolved::InitWord as Word;

/// The length an unsized array of `elem`s takes from its initializer.
pub fn inferred_len(elem: &Ty, init: Option<&Init>) -> Option<usize> {
    match init? {
        Init::Scalar(Expr { kind: ExprKind::Str(bytes), .. }) if elem.is_char() => Some(bytes.len() + 1),
        Init::List(items, _) if elem.is_array() && !items.iter().all(|i| matches!(i, Init::List(..))) => {
            Some(items.len().div_ceil(elem.words()).max(1))
        }
        Init::List(items, _) => Some(items.len().max(1)),
        Init::Scalar(_) => None,
    }
}

impl Checker<'_> {
    /// The words `init` gives an object of type `ty` (fewer than it has: the rest are zero).
    pub(super) fn flatten(&mut self, d: &VarDecl, ty: &Ty, init: &Init) -> Vec<Word> {
        let mut out = Vec::new();
        self.fill(d, ty, init, &mut out);
        out
    }

    fn fill(&mut self, d: &VarDecl, ty: &Ty, init: &Init, out: &mut Vec<Word>) {
        let start = out.len();
        match (ty, init) {
            (Ty::Array(t, n), Init::Scalar(Expr { kind: ExprKind::Str(bytes), span, .. })) if t.is_char() => {
                if bytes.len() > *n {
                    let msg = format!("the string has {} characters but `{}` holds {n}", bytes.len(), d.name);
                    self.sink.push(
                        Diagnostic::error(*span, msg)
                            .with_hint(format!("leave the size out (`{}[]`) to fit the string and its '\\0'", d.name)),
                    );
                }
                let c = t.int().expect("invariant: a character type is an integer type");
                out.extend(bytes.iter().take(*n).map(|&b| Word::Value(c.convert(b as i64, self.cfg.word_bits))));
            }
            (Ty::Array(t, n), Init::List(items, span)) => {
                let rows = t.is_array() && items.iter().all(|i| matches!(i, Init::List(..)));
                if rows || !t.is_array() {
                    if items.len() > *n {
                        let msg = format!("{} initializers for `{}`, which has {n} elements", items.len(), d.name);
                        self.err(*span, msg);
                    }
                    for (k, item) in items.iter().enumerate().take(*n) {
                        self.pad(out, start + k * t.words());
                        self.fill(d, t, item, out);
                    }
                } else {
                    // Braces left out: the values fill the elements in memory order.
                    if items.len() > ty.words() {
                        let msg =
                            format!("{} initializers for `{}`, which has {} words", items.len(), d.name, ty.words());
                        self.err(*span, msg);
                    }
                    for item in items.iter().take(ty.words()) {
                        match item {
                            Init::Scalar(e) => out.push(Word::Expr(e.clone(), ty.element_base().clone())),
                            Init::List(_, span) => {
                                self.err(*span, "give every row its braces, or none: `{{1, 2}, {3, 4}}`")
                            }
                        }
                    }
                }
            }
            (Ty::Struct(s), Init::List(items, span)) => {
                let members = self.members(s);
                if items.len() > members.len() {
                    let msg = format!(
                        "{} initializers for `struct {}`, which has {} members",
                        items.len(),
                        s.name,
                        members.len()
                    );
                    self.err(*span, msg);
                }
                for (item, m) in items.iter().zip(&members) {
                    self.pad(out, start + m.offset);
                    self.fill(d, &m.ty, item, out);
                }
            }
            (Ty::Struct(s), Init::Scalar(e)) => {
                // A local `struct` copied from another is checked by `Checker::local`; this is a
                // global's, a `static`'s or a member's, which C requires constant.
                let msg = format!("initialize this `struct {}` with a list of constants: `{{1, 2}}`", s.name);
                self.sink.push(
                    Diagnostic::error(e.span, msg)
                        .with_note("only a local structure may be initialized from another (it is copied)"),
                );
            }
            (Ty::Array(..), Init::Scalar(e)) => {
                self.err(e.span, format!("initialize the array `{}` with a list: `{{1, 2, 3}}`", d.name))
            }
            (_, Init::Scalar(e)) => out.push(Word::Expr(e.clone(), ty.clone())),
            (_, Init::List(items, span)) => match items.as_slice() {
                [Init::Scalar(e)] => out.push(Word::Expr(e.clone(), ty.clone())),
                _ => self.err(*span, format!("`{}` is not an array", d.name)),
            },
        }
        self.pad(out, start + ty.words());
    }

    fn pad(&self, out: &mut Vec<Word>, len: usize) {
        while out.len() < len {
            out.push(Word::Zero);
        }
    }
}
