//! Initializers: `= e`, `= {…}` (nested for 2-D arrays, or flat with braces
//! left out, as C allows), `= "text"` for `char` arrays, and designators
//! (`.x = 1`, `[2] = 5`, `[1].y = 3`) that place a value and move the cursor
//! the next values continue from; flattened to one entry per memory word.

use super::Checker;
use crate::compiler::ast::*;
use crate::compiler::resolved::Ty;
use crate::diag::Diagnostic;

pub use crate::compiler::resolved::InitWord as Word;

/// The length an unsized array of `elem`s takes from its initializer: one past the last
/// element given (a designator `[k]` with a literal `k` counts).
pub fn inferred_len(elem: &Ty, init: Option<&Init>) -> Option<usize> {
    match init? {
        Init::Scalar(Expr { kind: ExprKind::Str(bytes), .. }) if elem.is_char() => Some(bytes.len() + 1),
        Init::List(items, _) if elem.is_array() && !items.iter().all(|i| !matches!(i, Init::Scalar(_))) => {
            Some(items.len().div_ceil(elem.words()).max(1))
        }
        Init::List(items, _) => {
            let mut next = 0;
            let mut len = 1;
            for item in items {
                if let Init::At(path, _) = item {
                    match path.first() {
                        Some(Designator::Index(Expr { kind: ExprKind::Num(k, _), .. })) if *k >= 0 => {
                            next = *k as usize
                        }
                        _ => return None,
                    }
                }
                next += 1;
                len = len.max(next);
            }
            Some(len)
        }
        Init::Scalar(_) | Init::At(..) => None,
    }
}

impl Checker<'_> {
    /// The words `init` gives an object of type `ty` (those it leaves out are zero).
    pub(super) fn flatten(&mut self, d: &VarDecl, ty: &Ty, init: &Init) -> Vec<Word> {
        let mut out = vec![Word::Zero; ty.words()];
        self.fill(d, ty, init, 0, &mut out);
        out
    }

    /// Writes the words `init` gives the object of type `ty` at word `at` of `out`.
    fn fill(&mut self, d: &VarDecl, ty: &Ty, init: &Init, at: usize, out: &mut [Word]) {
        match (ty, init) {
            (_, Init::At(path, _)) => {
                let span = match &path[0] {
                    Designator::Member(_, s) => *s,
                    Designator::Index(e) => e.span,
                };
                self.err(span, "a designator (`.x =`, `[2] =`) goes inside the braces of a list");
            }
            (Ty::Array(t, n), Init::Scalar(Expr { kind: ExprKind::Str(bytes), span, .. })) if t.is_char() => {
                if bytes.len() > *n {
                    let msg = format!("the string has {} characters but `{}` holds {n}", bytes.len(), d.name);
                    self.sink.push(
                        Diagnostic::error(*span, msg)
                            .with_hint(format!("leave the size out (`{}[]`) to fit the string and its '\\0'", d.name)),
                    );
                }
                let c = t.int().expect("invariant: a character type is an integer type");
                for (k, &b) in bytes.iter().take(*n).enumerate() {
                    out[at + k] = Word::Value(c.convert(b as i64, self.cfg.word_bits));
                }
                for w in out.iter_mut().skip(at + bytes.len().min(*n)).take(n - bytes.len().min(*n)) {
                    *w = Word::Zero;
                }
            }
            (Ty::Array(t, n), Init::List(items, span)) => {
                let rows = t.is_array() && items.iter().all(|i| !matches!(i, Init::Scalar(_)));
                if rows || !t.is_array() {
                    let mut k = 0;
                    let mut reported = false;
                    for item in items {
                        let (index, inner) = match item {
                            Init::At(path, inner) => match self.designated(d, ty, path, inner, at, out) {
                                Some(k) => (k, None),
                                None => continue,
                            },
                            item => (k, Some(item)),
                        };
                        if index >= *n {
                            if !reported {
                                let msg =
                                    format!("{} initializers for `{}`, which has {n} elements", items.len(), d.name);
                                self.err(*span, msg);
                                reported = true;
                            }
                            continue;
                        }
                        if let Some(item) = inner {
                            self.fill(d, t, item, at + index * t.words(), out);
                        }
                        k = index + 1;
                    }
                } else {
                    // Braces left out: the values fill the elements in memory order.
                    if items.len() > ty.words() {
                        let msg =
                            format!("{} initializers for `{}`, which has {} words", items.len(), d.name, ty.words());
                        self.err(*span, msg);
                    }
                    for (k, item) in items.iter().take(ty.words()).enumerate() {
                        match item {
                            Init::Scalar(e) => out[at + k] = Word::Expr(e.clone(), ty.element_base().clone()),
                            Init::List(_, span) => {
                                self.err(*span, "give every row its braces, or none: `{{1, 2}, {3, 4}}`")
                            }
                            Init::At(..) => self.err(*span, "designators need every row's braces: `{[1] = {3, 4}}`"),
                        }
                    }
                }
            }
            (Ty::Struct(s), Init::List(items, span)) => {
                let members = self.members(s);
                // A union's list gives its first member (a designator may name another).
                let positional = if s.union { 1 } else { members.len() };
                let mut k = 0;
                let mut reported = false;
                for item in items {
                    let (index, inner) = match item {
                        Init::At(path, inner) => match self.designated(d, ty, path, inner, at, out) {
                            Some(k) => (k, None),
                            None => continue,
                        },
                        item => (k, Some(item)),
                    };
                    let m = members.get(index).filter(|_| inner.is_none() || index < positional);
                    let Some(m) = m else {
                        if !reported {
                            let msg = format!(
                                "{} initializers for `{}`, which has {} members",
                                items.len(),
                                ty.describe(),
                                positional
                            );
                            self.err(*span, msg);
                            reported = true;
                        }
                        continue;
                    };
                    if let Some(item) = inner {
                        self.fill(d, &m.ty, item, at + m.offset, out);
                    }
                    k = index + 1;
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
            (_, Init::Scalar(e)) => out[at] = Word::Expr(e.clone(), ty.clone()),
            (_, Init::List(items, span)) => match items.as_slice() {
                [Init::Scalar(e)] => out[at] = Word::Expr(e.clone(), ty.clone()),
                _ => self.err(*span, format!("`{}` is not an array", d.name)),
            },
        }
    }

    /// A designated item of a list initializing `ty` at word `at`: follows the path, fills
    /// what it designates and returns the element's or member's position in `ty` (the next
    /// item without a designator goes after it), or `None` when the path is wrong.
    fn designated(
        &mut self,
        d: &VarDecl,
        ty: &Ty,
        path: &[Designator],
        init: &Init,
        at: usize,
        out: &mut [Word],
    ) -> Option<usize> {
        let Some((first, rest)) = path.split_first() else {
            self.fill(d, ty, init, at, out);
            return Some(0);
        };
        let (index, elem, offset) = match (ty, first) {
            (Ty::Array(t, n), Designator::Index(e)) => {
                let k = self.const_value(e, "an array designator")?;
                if !(0..*n as i64).contains(&k) {
                    self.err(e.span, format!("index {k} is out of bounds for `{}`, which has {n} elements", d.name));
                    return None;
                }
                (k as usize, (**t).clone(), k as usize * t.words())
            }
            (Ty::Struct(s), Designator::Member(name, span)) => {
                let members = self.members(s);
                let Some(k) = members.iter().position(|m| m.name == *name) else {
                    self.err(*span, format!("`struct {}` has no member `{name}`", s.name));
                    return None;
                };
                (k, members[k].ty.clone(), members[k].offset)
            }
            (_, Designator::Index(e)) => {
                self.err(e.span, format!("`[…]` designates an array's element, but this is `{}`", ty.describe()));
                return None;
            }
            (_, Designator::Member(_, span)) => {
                self.err(*span, format!("`.member` designates a structure's member, but this is `{}`", ty.describe()));
                return None;
            }
        };
        if rest.is_empty() {
            self.fill(d, &elem, init, at + offset, out);
        } else {
            self.designated(d, &elem, rest, init, at + offset, out)?;
        }
        Some(index)
    }
}
