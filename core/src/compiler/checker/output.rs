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
                let usage = if b == Builtin::Printf { "`printf(\"format\", …)`" } else { "one argument" };
                self.err(e.span, format!("`{name}` takes {usage} but {} were given", args.len()));
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
