//! Places and addresses. A variable, a constant-index element, and `*p` when
//! `p` is known to hold a fixed address are memory operands at compile time
//! ([`Place::Direct`]); anything reached through a computed index or a pointer
//! is a slot index held in a temporary ([`Place::Indirect`]), read with LOAD
//! and written with STORE (which fault when the index leaves memory). Memory
//! is word-addressed and every scalar is one word, so `p + k` adds `k` times
//! the words of what `p` points to (1, or a row's length in a 2-D array).

use super::{Gen, Mem};
use crate::compiler::ast::*;
use crate::compiler::resolved::{fn_value, Ty};
use crate::diag::{Diagnostic, Span};
use crate::isa::Opcode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Direct(Mem),
    /// The slot index of the place is in this operand.
    Indirect(Mem),
}

impl Gen<'_> {
    /// The words of what a pointer-typed (or array-typed) expression points to.
    pub(super) fn stride(&self, e: &Expr) -> usize {
        self.r.ty(e).pointee().map_or(1, Ty::words)
    }

    /// The memory operand `e` denotes when it needs no code: a variable, a string, an
    /// element at a constant index within its array, `*p` for a `p` holding a fixed address.
    pub(super) fn direct_place(&self, e: &Expr) -> Option<Mem> {
        match &e.kind {
            // `*f` of a function pointer is the function, no memory.
            ExprKind::Deref(_) if self.is_function(e) => None,
            ExprKind::Var(_) => Some(self.var_mem(self.r.var(e))),
            ExprKind::Str(_) => Some(Mem::Global(self.r.string_slot(e))),
            ExprKind::Index(b, i) => match self.r.ty(b) {
                Ty::Array(t, len) => {
                    let k = self.constant(i).filter(|k| (0..*len as i64).contains(k))?;
                    offset(self.direct_place(b)?, k as usize * t.words())
                }
                _ => (self.constant(i)? == 0).then(|| fixed(self.static_value(b)?)).flatten(),
            },
            ExprKind::Deref(x) => fixed(self.static_value(x)?),
            ExprKind::Member { base, arrow: false, .. } => offset(self.direct_place(base)?, self.r.member_offset(e)),
            ExprKind::Member { base, arrow: true, .. } => {
                offset(fixed(self.static_value(base)?)?, self.r.member_offset(e))
            }
            _ => None,
        }
    }

    /// The value of `e` when it needs no code: a constant, a scalar variable, a fixed address.
    pub(super) fn static_value(&self, e: &Expr) -> Option<Mem> {
        match &e.kind {
            ExprKind::Func(_) => return Some(self.konst(fn_value(self.r.func(e)))),
            ExprKind::Deref(x) if self.is_function(e) => return self.static_value(x),
            ExprKind::AddrOf(x) if self.is_function(x) => return self.static_value(x),
            _ => {}
        }
        if let Some(k) = self.constant(e) {
            return Some(self.konst(k));
        }
        match &e.kind {
            ExprKind::AddrOf(x) => address(self.direct_place(x)?),
            _ if self.r.ty(e).is_array() => address(self.direct_place(e)?),
            ExprKind::Var(_) => Some(self.var_mem(self.r.var(e))),
            _ => None,
        }
    }

    /// Whether `e` is a function (a function's name, `*f`): its value is a function pointer.
    pub(super) fn is_function(&self, e: &Expr) -> bool {
        matches!(self.r.ty(e), Ty::Func(_))
    }

    /// The place `e` denotes; a computed slot index goes into `scratch` when given (it must
    /// be safe to write before `e`'s parts are read), else into a fresh temporary.
    pub(super) fn place_in(&mut self, e: &Expr, scratch: Option<Mem>) -> Place {
        if let Some(m) = self.direct_place(e) {
            return Place::Direct(m);
        }
        match &e.kind {
            ExprKind::Index(b, i) => {
                let w = self.stride(b);
                let base = if self.r.ty(b).is_array() {
                    match self.place_in(b, None) {
                        Place::Direct(m) => self.address_of(m),
                        Place::Indirect(p) => p,
                    }
                } else {
                    self.value(b)
                };
                let p = scratch.unwrap_or_else(|| self.temp());
                let p = if p == base { self.temp() } else { p };
                self.into(p, i);
                if w > 1 {
                    self.mul_const(p, w as i64, None);
                }
                // A null base (`((int *)0)[i]`) adds nothing; no object is at slot 0.
                if base != Mem::Const(0) {
                    self.op2(Opcode::Add, p, base);
                }
                Place::Indirect(p)
            }
            ExprKind::Deref(x) => match self.static_value(x) {
                Some(v) => Place::Indirect(v),
                None => {
                    let p = scratch.unwrap_or_else(|| self.temp());
                    self.into(p, x);
                    Place::Indirect(p)
                }
            },
            ExprKind::Member { base, arrow, .. } => self.member_place(base, *arrow, self.r.member_offset(e), scratch),
            ExprKind::Call(_, args) if self.r.ty(e).is_struct() => {
                // A structure a function returns: its words in fresh temporaries.
                let Callee::User(f) = self.r.callee(e) else {
                    unreachable!("invariant: no builtin returns a structure")
                };
                let base = Mem::Stack(self.temps(self.r.ty(e).words()));
                self.call_user(f, args, Some(base), false);
                Place::Direct(base)
            }
            _ => unreachable!("invariant: the checker accepts only variables, elements, `*p` and members as places"),
        }
    }

    /// The operand holding the slot index of a direct place.
    pub(super) fn address_of(&mut self, m: Mem) -> Mem {
        address(m).expect("invariant: a direct place is a variable's slot")
    }

    /// `dst ← the address of e` (`&x`, `&a[i]`, an array or string decaying).
    pub(super) fn address_into(&mut self, dst: Mem, e: &Expr) {
        self.check_place_escape(e);
        match self.place_in(e, Some(dst)) {
            Place::Direct(m) => {
                let a = self.address_of(m);
                self.op2(Opcode::Mov, dst, a);
            }
            Place::Indirect(p) => self.op2(Opcode::Mov, dst, p),
        }
    }

    /// Checks a value that may be an address taken by the program (`&x`, an array decaying).
    pub(super) fn check_escape(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::AddrOf(x) => self.check_place_escape(x),
            _ if self.r.ty(e).is_array() => self.check_place_escape(e),
            _ => {}
        }
    }

    /// A local of a recursive function is saved and restored around its calls, so its
    /// address would not stay with its activation: taking it is an error. (Indexing its
    /// arrays is fine: the slot index is used at once, and a call in between restores the
    /// slots where they were.)
    fn check_place_escape(&mut self, place: &Expr) {
        let root = |g: &Self, mut e: &Expr| loop {
            match &e.kind {
                ExprKind::Var(_) => return Some(g.r.var(e)),
                ExprKind::Index(b, _) if g.r.ty(b).is_array() => e = b,
                ExprKind::Member { base, arrow: false, .. } => e = base,
                _ => return None,
            }
        };
        let region = self.outline.region;
        let local = !self.lend_addresses
            && root(self, place).is_some_and(|id| {
                self.r.vars[id].global_slot.is_none()
                    && matches!(self.env.get(&id), Some(Mem::Stack(d)) if region.is_some_and(|r| *d >= r))
            });
        if local {
            let span = self.loc.map_or(Span::new(1, 1, 2), |l| Span::new(l.line, l.col, l.end_col));
            let d = Diagnostic::error(span, "the address of a local of a recursive function cannot be taken")
                .with_note("each call of a recursive function saves its caller's locals and restores them after")
                .with_hint("make the variable global, or pass its value");
            if !self.errors.iter().any(|e| e.span == span) {
                self.errors.push(d);
            }
        }
    }

    /// `dst ← a op b` for `+` and `-` when a pointer's stride is more than one word: the
    /// `int` side is scaled, and a difference of pointers is divided by the stride.
    pub(super) fn pointer_arith(&mut self, dst: Mem, op: BinOp, a: &Expr, b: &Expr, e: &Expr) -> bool {
        let (pa, pb) = (self.r.ty(a).decayed().is_ptr(), self.r.ty(b).decayed().is_ptr());
        let w = if pa {
            self.stride(a)
        } else if pb {
            self.stride(b)
        } else {
            1
        };
        if w == 1 || !(pa || pb) {
            return false;
        }
        let m = self.mark();
        let (p, k) = if pa { (a, b) } else { (b, a) };
        if pa && pb {
            let y = self.value(b);
            let y = if y == dst { self.copy(y) } else { y };
            self.into(dst, a);
            self.op2(Opcode::Sub, dst, y);
            self.divide_const(dst, w as i64, false);
        } else {
            let t = self.temp();
            self.into(t, k);
            self.mul_const(t, w as i64, None);
            self.into(dst, p);
            self.apply(dst, op, t, e);
        }
        self.release(m);
        true
    }
}

/// The slot `k` words after a variable's slot.
pub(super) fn offset(m: Mem, k: usize) -> Option<Mem> {
    match m {
        Mem::Global(s) => Some(Mem::Global(s + k)),
        Mem::Stack(d) => Some(Mem::Stack(d + k)),
        _ => None,
    }
}

/// The place a fixed address names.
fn fixed(v: Mem) -> Option<Mem> {
    match v {
        Mem::GlobalAddr(s) => Some(Mem::Global(s)),
        Mem::StackAddr(d) => Some(Mem::Stack(d)),
        _ => None,
    }
}

/// The fixed address of a place.
fn address(m: Mem) -> Option<Mem> {
    match m {
        Mem::Global(s) => Some(Mem::GlobalAddr(s)),
        Mem::Stack(d) => Some(Mem::StackAddr(d)),
        _ => None,
    }
}
