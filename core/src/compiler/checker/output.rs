//! The output builtins' arguments: `putchar(c)`, `puts(s)` and `printf(format, …)`,
//! whose literal format is parsed here (`format`) so every mistake in it is located
//! before code generation lowers it (`codegen::print`).

use super::Checker;
use crate::compiler::ast::*;
use crate::compiler::format;
use crate::compiler::resolved::Ty;
use crate::diag::Diagnostic;

impl Checker<'_> {
    /// `putchar(c)`, `puts(s)`, `printf(format, …)`: a string literal among their arguments
    /// is printed from the code, so it takes no memory (it is not checked as a value).
    pub(super) fn output_call(&mut self, e: &Expr, b: Builtin, name: &str, args: &[Expr], value: bool) {
        if value {
            let d = Diagnostic::error(e.span, format!("`{name}` returns no value here"))
                .with_hint(format!("call `{name}` as a statement of its own"));
            self.sink.push(d);
        }
        let string = Ty::Ptr(Box::new(Ty::Int(crate::ctypes::IntTy::Char)));
        match (b, args) {
            (Builtin::Putchar, [c]) => {
                let t = self.expr(c, true);
                self.assignable(&Ty::INT, &t, c, "the character");
            }
            (Builtin::Puts, [s]) => self.string_arg(s, &string),
            (Builtin::Sprintf, [buf, f, rest @ ..]) | (Builtin::Snprintf, [buf, _, f, rest @ ..]) => {
                // Written through the pointer: the function writes memory a caller may read.
                self.through_pointer();
                let t = self.rvalue(buf);
                self.assignable(&string, &t, buf, "the buffer");
                if let (Builtin::Snprintf, [_, n, ..]) = (b, args) {
                    let t = self.expr(n, true);
                    self.assignable(&Ty::INT, &t, n, "the size");
                }
                let mut call = vec![f.clone()];
                call.extend(rest.iter().cloned());
                self.output_call(e, Builtin::Printf, name, &call, false);
            }
            (Builtin::Printf, [f, rest @ ..]) if matches!(f.kind, ExprKind::Cond(..)) => self.chosen_format(e, f, rest),
            (Builtin::Printf, [f, rest @ ..]) => {
                let ExprKind::Str(bytes) = &f.kind else {
                    self.expr(f, true);
                    rest.iter().for_each(|a| {
                        self.expr(a, true);
                    });
                    let d = Diagnostic::error(f.span, "`printf`'s format must be a string literal")
                        .with_note("the format is converted when the program is compiled");
                    self.sink.push(d.with_hint("write it in place: `printf(\"%d\\n\", x)`"));
                    return;
                };
                let pieces = match format::parse(bytes) {
                    Ok(p) => p,
                    Err(msg) => {
                        let d = Diagnostic::error(f.span, msg).with_hint(format::SUPPORTED);
                        self.sink.push(d);
                        return;
                    }
                };
                let specs: Vec<_> = pieces.iter().filter_map(format::Piece::spec).collect();
                if specs.len() != rest.len() {
                    let msg = format!("the format asks for {} argument(s) but {} were given", specs.len(), rest.len());
                    self.err(e.span, msg);
                }
                for (k, a) in rest.iter().enumerate() {
                    match specs.get(k).map(|s| s.conv) {
                        Some(format::Conv::Str) => self.string_arg(a, &string),
                        _ => {
                            let t = self.expr(a, true);
                            self.assignable(&Ty::INT, &t, a, &format!("argument {}", k + 2));
                        }
                    }
                }
            }
            _ => {
                args.iter().for_each(|a| {
                    self.expr(a, true);
                });
                let usage = match b {
                    Builtin::Printf => "`printf(\"format\", …)`",
                    Builtin::Sprintf => "`sprintf(buffer, \"format\", …)`",
                    Builtin::Snprintf => "`snprintf(buffer, size, \"format\", …)`",
                    _ => "one argument",
                };
                self.err(e.span, format!("`{name}` takes {usage} but {} were given", args.len()));
            }
        }
    }

    /// `printf(c ? "A" : "B", …)`: a format chosen at run time among literals (nested `?:`
    /// too), each taking the same arguments; code generation prints with the one chosen.
    fn chosen_format(&mut self, e: &Expr, f: &Expr, rest: &[Expr]) {
        let mut leaves = Vec::new();
        let mut conds = Vec::new();
        formats(f, &mut leaves, &mut conds);
        conds.iter().for_each(|c| self.condition(c));
        let mut first: Option<Vec<bool>> = None;
        for leaf in leaves {
            let ExprKind::Str(bytes) = &leaf.kind else {
                let d = Diagnostic::error(leaf.span, "`printf`'s format must be a string literal")
                    .with_note("a format may be chosen with `?:` between string literals");
                self.sink.push(d.with_hint("write it in place: `printf(c ? \",%d\" : \"%d\", x)`"));
                continue;
            };
            let strings = match format::parse(bytes) {
                Ok(p) => p.iter().filter_map(format::Piece::spec).map(|s| s.conv == format::Conv::Str).collect(),
                Err(msg) => {
                    self.sink.push(Diagnostic::error(leaf.span, msg).with_hint(format::SUPPORTED));
                    continue;
                }
            };
            match &first {
                None => first = Some(strings),
                Some(f) if *f != strings => {
                    self.err(leaf.span, "the formats `?:` chooses between must take the same arguments")
                }
                Some(_) => {}
            }
        }
        let strings = first.unwrap_or_default();
        if strings.len() != rest.len() {
            let msg = format!("the format asks for {} argument(s) but {} were given", strings.len(), rest.len());
            self.err(e.span, msg);
        }
        let string = Ty::Ptr(Box::new(Ty::Int(crate::ctypes::IntTy::Char)));
        for (k, a) in rest.iter().enumerate() {
            if strings.get(k) == Some(&true) {
                self.string_arg(a, &string);
            } else {
                let t = self.expr(a, true);
                self.assignable(&Ty::INT, &t, a, &format!("argument {}", k + 2));
            }
        }
    }

    /// A string argument: a literal (printed from the code) or a `char` pointer or array.
    fn string_arg(&mut self, a: &Expr, string: &Ty) {
        if !matches!(a.kind, ExprKind::Str(_)) {
            let t = self.rvalue(a);
            self.assignable(string, &t, a, "the string");
        }
    }
}

/// The formats a `?:` chooses between (its leaves, in order) and its conditions.
fn formats<'e>(f: &'e Expr, leaves: &mut Vec<&'e Expr>, conds: &mut Vec<&'e Expr>) {
    match &f.kind {
        ExprKind::Cond(c, a, b) => {
            conds.push(c);
            formats(a, leaves, conds);
            formats(b, leaves, conds);
        }
        _ => leaves.push(f),
    }
}
