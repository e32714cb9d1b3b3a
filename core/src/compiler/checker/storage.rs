//! Storage classes and `const`: `extern` declarations name a global defined in the file
//! (there is one file), a `static` local is a global slot seen from one scope (see
//! `Checker::local`), and a `const` object cannot be written.

use super::Checker;
use crate::compiler::ast::*;
use crate::diag::{Diagnostic, Span};

/// Whether a file-scope declaration declares a global without defining it (`extern int g;`).
pub fn declares_only(d: &VarDecl) -> bool {
    matches!(d.storage, Some((Storage::Extern, _))) && d.init.is_none()
}

impl Checker<'_> {
    /// `extern int g;` at file scope: the definition elsewhere in the file is the variable.
    pub(super) fn extern_global(&mut self, d: &VarDecl, all: &[VarDecl]) {
        if !all.iter().any(|o| o.name == d.name && !declares_only(o)) {
            self.undefined_extern(d);
            self.global(d); // declared all the same: its uses are not "undefined" too
        }
    }

    /// `extern int g;` in a block: the name means the global `g` there.
    pub(super) fn extern_local(&mut self, d: &VarDecl, span: Span) {
        if d.init.is_some() {
            return self.err(span, "a local `extern` declaration cannot have an initializer");
        }
        match self.scopes[0].get(&d.name).copied() {
            Some(id) => {
                self.scopes.last_mut().expect("invariant: there is always a scope").insert(d.name.clone(), id);
                self.names.insert(d.id, id);
            }
            None => {
                self.undefined_extern(d);
                self.global(d);
            }
        }
    }

    fn undefined_extern(&mut self, d: &VarDecl) {
        self.sink.push(
            Diagnostic::error(d.span, format!("`{}` is declared `extern` but not defined", d.name))
                .with_note("a program is one file: define the variable at the top level (`int g;`)"),
        );
    }

    /// Refuses a write to a `const` variable (or an element of a `const` array).
    pub(super) fn not_const(&mut self, e: &Expr) {
        let mut root = e;
        loop {
            root = match &root.kind {
                ExprKind::Index(b, _) if self.types.get(&b.id).is_some_and(|t| t.is_array()) => b,
                ExprKind::Member { base, arrow: false, .. } => base,
                ExprKind::Index(..) => return,
                _ => break,
            };
        }
        let ExprKind::Var(name) = &root.kind else { return };
        let Some(&id) = self.names.get(&root.id) else { return };
        if self.vars[id].konst {
            let line = self.vars[id].span.line;
            self.sink.push(
                Diagnostic::error(e.span, format!("`{name}` is `const`: it cannot be assigned"))
                    .with_note(format!("it is declared `const` on line {line}")),
            );
        }
    }
}
