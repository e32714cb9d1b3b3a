//! Expressions: names resolved, calls checked against their function, and a
//! type for each (recorded by node). Pointer arithmetic follows C: `p + k`,
//! `p - k`, `p - q`, comparisons of pointers, `p[i]` as `*(p + i)`; an array
//! used as a value decays to a pointer to its first element.

use super::Checker;
use crate::compiler::ast::*;
use crate::compiler::resolved::Ty;
use crate::ctypes::IntTy;
use crate::diag::Diagnostic;

impl Checker<'_> {
    /// Checks `e` and returns its type (an array is not decayed here); `value` says
    /// whether its result is used.
    pub(super) fn expr(&mut self, e: &Expr, value: bool) -> Ty {
        let t = self.expr_inner(e, value);
        self.types.insert(e.id, t.clone());
        t
    }

    /// The type of `e`'s value: arrays decay (and the array's variable is then exposed).
    pub(super) fn rvalue(&mut self, e: &Expr) -> Ty {
        let t = self.any_rvalue(e);
        if !self.not_struct(&t, e) {
            return Ty::Error;
        }
        t
    }

    /// The source of a `struct` copy (`b = a`, `struct p b = a;`): a structure of type `to`.
    pub(super) fn struct_source(&mut self, to: &Ty, e: &Expr) {
        let t = self.any_rvalue(e);
        self.assignable(to, &t, e, "this value");
        self.struct_place(e, &t);
    }

    /// A structure is copied from a place (a variable, an element, `*p` or a member) or from
    /// the result of a call.
    fn struct_place(&mut self, e: &Expr, t: &Ty) {
        let place = matches!(
            e.kind,
            ExprKind::Var(_) | ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::Member { .. } | ExprKind::Call(..)
        );
        if !place && *t != Ty::Error {
            self.err(e.span, "a `struct` is copied from a variable, an element, `*p`, a member or a call");
        }
    }

    /// Like [`Self::rvalue`], also for a `struct` (the right side of an assignment).
    fn any_rvalue(&mut self, e: &Expr) -> Ty {
        let t = self.expr(e, true);
        if t.is_array() {
            self.expose(e);
        }
        t.decayed()
    }

    /// Marks the variable an address is taken of: `x` in `&x`, `a` in `&a[i]` or `a + 1`.
    fn expose(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(_) => {
                if let Some(&v) = self.names.get(&e.id) {
                    self.exposed.insert(v);
                }
            }
            ExprKind::Index(b, _) if self.types.get(&b.id).is_some_and(Ty::is_array) => self.expose(b),
            ExprKind::Member { base, arrow: false, .. } => self.expose(base),
            _ => {}
        }
    }

    /// Notes that the current function reads or writes through a pointer.
    pub(super) fn through_pointer(&mut self) {
        if !self.func_name.is_empty() {
            self.derefs[self.current] = true;
        }
    }

    fn expr_inner(&mut self, e: &Expr, value: bool) -> Ty {
        let span = e.span;
        match &e.kind {
            ExprKind::Num(_, t) => Ty::Int(*t),
            ExprKind::Str(bytes) => {
                // A string's bytes are `char`s, which are signed (UTF-8 past ASCII is negative).
                let slot = self.data.len();
                self.data.extend(bytes.iter().map(|&b| i64::from(b as i8)).chain([0]));
                self.strings.insert(e.id, slot);
                Ty::Array(Box::new(Ty::Int(IntTy::Char)), bytes.len() + 1)
            }
            ExprKind::Var(name) => {
                let Some(id) = self.lookup(name, span) else { return Ty::Error };
                self.names.insert(e.id, id);
                if self.vars[id].global_slot.is_some() && !self.func_name.is_empty() {
                    self.globals[self.current].insert(id);
                }
                self.vars[id].ty.clone()
            }
            ExprKind::Func(name) => {
                let Some(&f) = self.funcs.get(name) else {
                    self.err(span, format!("`{name}` is declared but never defined"));
                    return Ty::Error;
                };
                self.callees.insert(e.id, Callee::User(f));
                self.address_taken[f] = true;
                Ty::Func(Box::new(self.sigs[f].clone()))
            }
            ExprKind::CallPtr(f, args) => self.call_ptr(e, f, args, value),
            ExprKind::Index(b, i) => {
                // Indexing an array names one of its elements: no address escapes.
                let bt = self.expr(b, true).decayed();
                if bt.fn_pointee().is_some() {
                    self.err(b.span, "a function pointer cannot be indexed: call it, `f(x)`");
                    return Ty::Error;
                }
                if self.types.get(&b.id).is_some_and(Ty::is_ptr) {
                    self.through_pointer();
                }
                self.int_operand(i, "an index");
                if bt.is_void_ptr() {
                    self.err(b.span, "a `void *` cannot be indexed: convert it to a typed pointer first");
                    return Ty::Error;
                }
                let Some(elem) = bt.pointee().cloned() else {
                    if bt == Ty::Error {
                        return Ty::Error;
                    }
                    let msg = format!("{} is not an array or a pointer", self.what(b));
                    self.sink
                        .push(Diagnostic::error(b.span, msg).with_note(format!("its type is `{}`", bt.describe())));
                    return Ty::INT;
                };
                if let Some(Ty::Array(_, len)) = self.types.get(&b.id).cloned() {
                    if let Some(k) = self.fold(i).filter(|k| !(0..len as i64).contains(k)) {
                        let msg = format!("index {k} is out of bounds for {}, which has {len} elements", self.what(b));
                        self.err(i.span, msg);
                    }
                }
                elem
            }
            ExprKind::Call(name, args) => self.call(e, name, args, value),
            ExprKind::Unary(op, x) => {
                let t = self.rvalue(x);
                match (op, t.int()) {
                    (UnOp::Not, _) => Ty::INT,
                    (_, Some(t)) => Ty::Int(t.promoted(self.cfg.word_bits)),
                    (_, None) => {
                        if t.is_ptr() {
                            self.err(x.span, format!("this operator needs an integer, not `{}`", t.describe()));
                        }
                        Ty::INT
                    }
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b),
            ExprKind::Assign(op, lhs, rhs) => {
                let lt = self.lvalue(lhs);
                let rt = if lt.is_struct() && op.is_none() { self.any_rvalue(rhs) } else { self.rvalue(rhs) };
                if lt.is_struct() && op.is_none() && !value {
                    self.struct_place(rhs, &rt);
                }
                if lt.is_struct() && (op.is_some() || value) {
                    let msg = if value {
                        "the value of a `struct` assignment is unsupported: assign, then use the variable"
                    } else {
                        "a `struct` takes `=` only"
                    };
                    self.err(span, msg);
                }
                match op {
                    None => self.assignable(&lt, &rt, rhs, "this value"),
                    Some(_) if lt.fn_pointee().is_some() || lt.is_void_ptr() => {
                        self.err(span, format!("a `{}` takes `=` only", lt.describe()));
                    }
                    Some(BinOp::Add | BinOp::Sub) if lt.is_ptr() => {
                        if rt.is_ptr() {
                            self.err(rhs.span, "a pointer moves by an integer");
                        }
                    }
                    Some(op) => {
                        if lt.is_ptr() || rt.is_ptr() {
                            self.err(span, format!("`{}=` needs integers", symbol(*op)));
                        }
                        self.zero_divisor(*op, rhs);
                    }
                }
                lt
            }
            ExprKind::IncDec { target, .. } => {
                let t = self.lvalue(target);
                self.not_struct(&t, target);
                if t.fn_pointee().is_some() {
                    self.err(span, "a function pointer does not move: assign it another function");
                }
                if t.is_void_ptr() {
                    self.err(span, "a `void *` does not move: convert it to a typed pointer first");
                }
                t
            }
            ExprKind::Cond(c, a, b) => {
                self.condition(c);
                let (ta, tb) = (self.expr(a, value).decayed(), self.expr(b, value).decayed());
                if !self.not_struct(&ta, a) || !self.not_struct(&tb, b) {
                    return Ty::Error;
                }
                match (ta.int(), tb.int()) {
                    // Integers meet in their common type (`c ? 1u : -1` is unsigned).
                    (Some(x), Some(y)) => Ty::Int(IntTy::common(x, y, self.cfg.word_bits)),
                    // A `void *` and an object pointer meet in `void *`, as C says.
                    _ if ta.pointee().zip(tb.pointee()).is_some_and(|(a, b)| void_meets(a, b)) => {
                        Ty::Ptr(Box::new(Ty::Void))
                    }
                    _ if ta == tb || !value || ta == Ty::Error || tb == Ty::Error => ta,
                    _ => {
                        let msg = format!("the two branches differ: `{}` and `{}`", ta.describe(), tb.describe());
                        self.err(span, msg);
                        ta
                    }
                }
            }
            ExprKind::AddrOf(x) if matches!(x.kind, ExprKind::Func(_)) => self.expr(x, true).decayed(),
            ExprKind::AddrOf(x) => {
                let t = match &x.kind {
                    ExprKind::Var(_) | ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::Member { .. } => {
                        self.expr(x, true)
                    }
                    _ => {
                        self.sink.push(
                            Diagnostic::error(x.span, "only a variable or an element has an address")
                                .with_hint("write `&x`, `&a[i]`"),
                        );
                        self.expr(x, true)
                    }
                };
                self.expose(x);
                Ty::Ptr(Box::new(t))
            }
            ExprKind::Deref(x) => {
                self.through_pointer();
                let t = self.rvalue(x);
                match t.pointee() {
                    Some(Ty::Void) => {
                        let msg = "a `void *` cannot be dereferenced: convert it to a typed pointer first";
                        self.sink.push(Diagnostic::error(x.span, msg).with_hint("`*(int *)p`, or `int *q = p;`"));
                        Ty::Error
                    }
                    Some(p) => p.clone(),
                    None if t == Ty::Error => Ty::Error,
                    None => {
                        let msg = format!("only a pointer can be dereferenced, not `{}`", t.describe());
                        self.err(x.span, msg);
                        Ty::INT
                    }
                }
            }
            ExprKind::Cast(spec, x) => {
                let to = self.type_name(spec);
                let from = self.rvalue(x);
                let between_pointers = match (&to, &from) {
                    (Ty::Ptr(a), Ty::Ptr(b)) => a == b || void_meets(a, b),
                    _ => false,
                };
                if !between_pointers && (to.is_ptr() || to.is_array() || (from.is_ptr() && to != Ty::Int(IntTy::Bool)))
                {
                    let d = Diagnostic::error(span, format!("a cast from `{}` to `{}` is unsupported", from.describe(), to.describe()))
                        .with_note("casts convert between integer types; memory holds one value per slot, not bytes, so pointers are not reinterpreted");
                    self.sink.push(d);
                    return Ty::Error;
                }
                to
            }
            ExprKind::SizeofType(spec) => {
                let t = self.type_name(spec);
                self.sizes.insert(e.id, t.size(self.cfg.word_bits));
                Ty::Int(IntTy::UInt)
            }
            ExprKind::Member { base, name, arrow } => self.member(e, base, name, *arrow),
            ExprKind::Comma(a, b) => {
                self.expr(a, false);
                if value {
                    self.rvalue(b)
                } else {
                    self.expr(b, false).decayed()
                }
            }
            ExprKind::SizeofExpr(x) => {
                // The operand's type, not decayed (`sizeof a` of an array is the whole array).
                let t = self.expr(x, true);
                self.sizes.insert(e.id, t.size(self.cfg.word_bits));
                Ty::Int(IntTy::UInt)
            }
        }
    }

    /// How a message names `e`: "`a`" for a name, "this" otherwise.
    fn what(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Var(n) => format!("`{n}`"),
            _ => "this".into(),
        }
    }

    fn int_operand(&mut self, e: &Expr, what: &str) {
        let t = self.rvalue(e);
        if t.is_ptr() {
            self.err(e.span, format!("{what} must be an integer, not `{}`", t.describe()));
        }
    }

    fn zero_divisor(&mut self, op: BinOp, b: &Expr) {
        if matches!(op, BinOp::Div | BinOp::Rem) && self.fold(b) == Some(0) {
            self.sink.push(
                Diagnostic::warning(b.span, "division by zero")
                    .with_note("reaching this stops the program with a \"division by zero\" fault"),
            );
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Ty {
        let (ta, tb) = (self.rvalue(a), self.rvalue(b));
        self.zero_divisor(op, b);
        let null = |ck: &Self, e: &Expr| ck.fold(e) == Some(0);
        let span = crate::compiler::parser::join(a.span, b.span);
        let word = self.cfg.word_bits;
        match (op, ta.is_ptr(), tb.is_ptr()) {
            _ if ta == Ty::Error || tb == Ty::Error => Ty::Error,
            (BinOp::LogAnd | BinOp::LogOr, ..) => Ty::INT,
            _ if (ta.is_void_ptr() || tb.is_void_ptr()) && !op.is_compare() => {
                let msg = format!("`{}` cannot compute with a `void *`", symbol(op));
                self.sink
                    .push(Diagnostic::error(span, msg).with_hint("convert it to a typed pointer first: `(int *)p`"));
                Ty::Error
            }
            (_, true, true)
                if op.is_compare() && ta.pointee().zip(tb.pointee()).is_some_and(|(a, b)| void_meets(a, b)) =>
            {
                Ty::INT
            }
            _ if (ta.fn_pointee().is_some() || tb.fn_pointee().is_some()) && !op.is_compare() => {
                let msg = format!("`{}` cannot compute with a function pointer", symbol(op));
                self.sink.push(Diagnostic::error(span, msg).with_note("a function pointer is compared or called"));
                Ty::Error
            }
            (_, false, false) => match (ta.int(), tb.int()) {
                _ if op.is_compare() => Ty::INT,
                (Some(x), _) if matches!(op, BinOp::Shl | BinOp::Shr) => Ty::Int(x.promoted(word)),
                (Some(x), Some(y)) => Ty::Int(IntTy::common(x, y, word)),
                _ => Ty::INT,
            },
            (BinOp::Add, true, false) | (BinOp::Sub, true, false) if tb.int().is_some() => ta,
            (BinOp::Add, false, true) if ta.int().is_some() => tb,
            (BinOp::Sub, true, true) if ta == tb => Ty::INT,
            (_, true, true) if op.is_compare() && ta == tb => Ty::INT,
            (BinOp::Eq | BinOp::Ne, true, false) if null(self, b) => Ty::INT,
            (BinOp::Eq | BinOp::Ne, false, true) if null(self, a) => Ty::INT,
            _ => {
                let msg = format!("`{}` cannot combine `{}` and `{}`", symbol(op), ta.describe(), tb.describe());
                let note = "pointers take `+`/`-` with an integer, `-` and comparisons with a pointer of the same type";
                self.sink.push(Diagnostic::error(span, msg).with_note(note));
                Ty::INT
            }
        }
    }

    /// Checks an assignment target: a variable that is not an array, an element, `*p`.
    pub(super) fn lvalue(&mut self, e: &Expr) -> Ty {
        let t = self.expr(e, true);
        self.not_const(e);
        match &e.kind {
            ExprKind::Var(..) | ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::Member { .. } if t.is_array() => {
                let msg = format!("the array {} cannot be assigned as a whole", self.what(e));
                self.sink.push(Diagnostic::error(e.span, msg).with_hint("assign its elements one by one"));
            }
            ExprKind::Var(..) | ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::Member { .. } => {}
            _ => self.sink.push(
                Diagnostic::error(e.span, "this cannot be assigned to")
                    .with_note("only variables, array elements and `*p` can be assigned"),
            ),
        }
        t
    }

    /// Checks that a value of type `from` (decayed) may be stored where `to` is expected.
    pub(super) fn assignable(&mut self, to: &Ty, from: &Ty, e: &Expr, what: &str) {
        let from = from.decayed();
        let ok = match (to, &from) {
            (Ty::Error, _) | (_, Ty::Error) | (Ty::Int(_), Ty::Int(_)) => true,
            (Ty::Ptr(_), Ty::Int(_)) => self.fold(e) == Some(0),
            // Any pointer converts to `_Bool`: 1 unless it is null.
            (Ty::Int(IntTy::Bool), Ty::Ptr(_)) => true,
            // Characters of either sign are interchangeable strings (gcc only warns); a `void *`
            // converts to and from a pointer to any object.
            (Ty::Ptr(a), Ty::Ptr(b)) => a == b || a.is_char() && b.is_char() || void_meets(a, b),
            (Ty::Struct(a), Ty::Struct(b)) => a.id == b.id,
            _ => false,
        };
        if !ok {
            let msg = format!("{what} is `{}` but `{}` is expected", from.describe(), to.describe());
            let mut d = Diagnostic::error(e.span, msg);
            if to.is_ptr() && from.int().is_some() {
                d = d.with_hint("take an address with `&x`, or pass an array by its name");
            } else if to.int().is_some() && from.is_ptr() {
                d = d.with_hint("dereference it: `*p`, `p[i]`");
            }
            self.sink.push(d);
        }
    }

    /// A call through a function pointer: `f(x)`, `(*f)(x)`, `ops[i](a, b)`.
    fn call_ptr(&mut self, e: &Expr, f: &Expr, args: &[Expr], value: bool) -> Ty {
        let t = self.rvalue(f);
        let Some(sig) = t.fn_pointee().cloned() else {
            args.iter().for_each(|a| {
                self.expr(a, true);
            });
            if t != Ty::Error {
                let msg = format!("{} is not a function or a function pointer", self.what(f));
                self.sink.push(Diagnostic::error(f.span, msg).with_note(format!("its type is `{}`", t.describe())));
            }
            return Ty::Error;
        };
        if !self.func_name.is_empty() {
            self.indirect_calls.push((e.id, sig.clone(), self.current, e.span));
        }
        self.check_args(e, "this function pointer", &sig.params, args);
        if value && sig.ret.is_none() {
            self.err(e.span, "this function returns no value");
        }
        sig.ret.unwrap_or(Ty::INT)
    }

    fn call(&mut self, e: &Expr, name: &str, args: &[Expr], value: bool) -> Ty {
        let span = e.span;
        let (params, returns) = if let Some(b) = Builtin::lookup(name) {
            self.callees.insert(e.id, Callee::Builtin(b));
            let Some(arity) = b.arity() else {
                self.output_call(e, b, name, args, value);
                return Ty::INT;
            };
            (vec![Ty::INT; arity], b.returns_value().then_some(Ty::INT))
        } else if let Some(&f) = self.funcs.get(name) {
            self.callees.insert(e.id, Callee::User(f));
            // A call outside any function (a global's initializer) is reported as not constant.
            if !self.func_name.is_empty() && !self.calls[self.current].iter().any(|c| c.0 == f) {
                self.calls[self.current].push((f, span));
            }
            (self.sigs[f].params.clone(), self.sigs[f].ret.clone())
        } else {
            args.iter().for_each(|a| {
                self.expr(a, true);
            });
            // `scanf` stands for the steps `<stdio.h>` defines (`scan`): name it, once.
            let shown = if name.starts_with(crate::compiler::scan::STEP_PREFIX) { "scanf" } else { name };
            let mut d = Diagnostic::error(span, format!("undefined function `{shown}`"));
            if let Some(header) = crate::compiler::preprocess::declaring(shown) {
                d = d.with_hint(format!("`{shown}` is in <{header}>: add `#include <{header}>`"));
            } else if matches!(name, "malloc" | "calloc" | "realloc" | "free") {
                d = d
                    .with_note("there is no heap: the library is listed in the Help panel (BUILTINS.md)")
                    .with_hint("use fixed-size arrays");
            }
            self.sink.push(d);
            return Ty::Error;
        };
        self.check_args(e, &format!("`{name}`"), &params, args);
        if value && returns.is_none() {
            self.err(span, format!("`{name}` returns no value"));
        }
        returns.unwrap_or(Ty::INT)
    }

    /// A call's arguments against its parameters' types.
    fn check_args(&mut self, e: &Expr, callee: &str, params: &[Ty], args: &[Expr]) {
        if args.len() != params.len() {
            let msg = format!("{callee} takes {} argument(s) but {} were given", params.len(), args.len());
            self.err(e.span, msg);
        }
        let name = match &e.kind {
            ExprKind::Call(name, _) => name.as_str(),
            _ => "",
        };
        for (k, a) in args.iter().enumerate() {
            let t = if params.get(k).is_some_and(Ty::is_struct) { self.any_rvalue(a) } else { self.expr(a, true) };
            if params.get(k).is_some_and(Ty::is_struct) {
                self.struct_place(a, &t);
            }
            if let Some(p) = params.get(k) {
                // A `scanf` step's pointer is the user's argument for a conversion.
                let what = if name.starts_with(crate::compiler::scan::STEP_PREFIX) {
                    "scanf's argument for this conversion".to_string()
                } else {
                    format!("argument {}", k + 1)
                };
                self.assignable(p, &t, a, &what);
            }
        }
    }
}

/// An operator's C spelling, for messages.
fn symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::LogAnd => "&&",
        BinOp::LogOr => "||",
    }
}

/// Whether one of two pointed-to types is `void` and the other an object type (not a function).
fn void_meets(a: &Ty, b: &Ty) -> bool {
    (*a == Ty::Void && !matches!(b, Ty::Func(_))) || (*b == Ty::Void && !matches!(a, Ty::Func(_)))
}
