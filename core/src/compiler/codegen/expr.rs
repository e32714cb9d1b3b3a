//! Expressions: values into memory operands, assignments, and conditions as jumps.

use super::place::Place;
use super::{Gen, Label, Mem};
use crate::compiler::ast::*;
use crate::compiler::resolved::Ty;
use crate::ctypes::IntTy;
use crate::isa::Opcode;

impl Gen<'_> {
    /// A memory operand holding the value of `e` (a variable's own slot when possible).
    pub fn value(&mut self, e: &Expr) -> Mem {
        if let Some(v) = self.static_value(e) {
            self.check_escape(e);
            return v;
        }
        if !self.r.ty(e).is_array() {
            if let Some(m) = self.direct_place(e) {
                return m;
            }
        }
        let t = self.temp();
        self.into(t, e);
        t
    }

    pub(super) fn is_simple(&self, e: &Expr) -> bool {
        self.constant(e).is_some() || matches!(e.kind, ExprKind::Var(..))
    }

    /// Computes `e` into `dst`. `dst` is a fresh temporary or a variable `e` does not touch.
    pub fn into(&mut self, dst: Mem, e: &Expr) {
        if let Some(k) = self.constant(e) {
            return self.op2(Opcode::Mov, dst, self.konst(k));
        }
        if let (ExprKind::Func(_), Some(v)) = (&e.kind, self.static_value(e)) {
            return self.op2(Opcode::Mov, dst, v);
        }
        if self.r.ty(e).is_array() {
            // An array (or a string) used as a value is the address of its first element.
            return self.address_into(dst, e);
        }
        match &e.kind {
            ExprKind::Num(..)
            | ExprKind::Str(_)
            | ExprKind::SizeofType(_)
            | ExprKind::SizeofExpr(_)
            | ExprKind::Func(_) => {
                unreachable!("invariant: literals and `sizeof` fold, strings are arrays, functions are static values")
            }
            ExprKind::Cast(_, x) => {
                self.into(dst, x);
                self.convert(dst, self.r.ty(x), self.r.ty(e));
            }
            ExprKind::Deref(x) if self.is_function(e) => self.into(dst, x),
            ExprKind::AddrOf(x) if self.is_function(x) => self.into(dst, x),
            ExprKind::CallPtr(f, args) => self.call_ptr_into(dst, f, args, e),
            ExprKind::Var(..) | ExprKind::Index(..) | ExprKind::Deref(_) | ExprKind::Member { .. } => {
                match self.place_in(e, Some(dst)) {
                    Place::Direct(m) => self.op2(Opcode::Mov, dst, m),
                    Place::Indirect(p) => self.op2(Opcode::Load, dst, p),
                }
            }
            ExprKind::AddrOf(x) => self.address_into(dst, x),
            ExprKind::Comma(a, b) => {
                let m = self.mark();
                self.effect(a);
                self.release(m);
                self.into(dst, b);
            }
            ExprKind::Unary(UnOp::Neg, x) if self.is_simple(x) => {
                let src = self.value(x);
                self.op2(Opcode::Xor, dst, dst);
                self.op2(Opcode::Sub, dst, src);
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                self.into(dst, x);
                self.negate(dst);
            }
            ExprKind::Unary(UnOp::BitNot, x) => {
                self.into(dst, x);
                self.op2(Opcode::Xor, dst, self.konst(-1));
            }
            ExprKind::Unary(UnOp::Not, _) => self.boolean(dst, e),
            ExprKind::Binary(op, _, _) if !op.is_arith() => self.boolean(dst, e),
            ExprKind::Binary(op, a, b) if self.pointer_arith(dst, *op, a, b, e) => {}
            ExprKind::Binary(op, a, b) => {
                let m = self.mark();
                let t = self.r.ty(e).int();
                // A constant goes on the right of a commutative operator (`3 * x` shifts and adds).
                let (a, b) =
                    if op.commutes() && (self.constant(a).is_some() || self.is_var(b, dst)) { (b, a) } else { (a, b) };
                if self.is_var(a, dst) {
                    let r = self.value(b);
                    self.apply_in(dst, *op, r, e, t);
                } else if let (BinOp::Mul, Some(k), ExprKind::Var(..)) = (op, self.constant(b), &a.kind) {
                    let x = self.value(a);
                    self.op2(Opcode::Mov, dst, x);
                    self.mul_const(dst, k, Some(x));
                } else if op.commutes() && self.is_simple(a) && !self.is_simple(b) {
                    self.into(dst, b);
                    let r = self.value(a);
                    self.apply_in(dst, *op, r, e, t);
                } else {
                    self.into(dst, a);
                    let r = self.value(b);
                    self.apply_in(dst, *op, r, e, t);
                }
                self.release(m);
            }
            ExprKind::Assign(op, lhs, rhs) => {
                let m = self.mark();
                let v = self.assign(*op, lhs, rhs);
                self.op2(Opcode::Mov, dst, v);
                self.release(m);
            }
            ExprKind::IncDec { inc, post, target } => {
                let m = self.mark();
                let v = self.incdec(*inc, *post, target, true);
                self.op2(Opcode::Mov, dst, v);
                self.release(m);
            }
            ExprKind::Call(_, args) => self.call_into(dst, self.r.callee(e), args, e, false),
            ExprKind::Cond(c, a, b) => {
                let (els, end) = (self.label(), self.label());
                self.cond(c, false, els);
                self.into(dst, a);
                self.jump(Opcode::Jmp, None, end);
                self.place(els);
                self.into(dst, b);
                self.place(end);
            }
        }
    }

    /// Computes `e` into the slot of a variable `e` does not touch, as an assignment: C
    /// performs no assignment whose right side faults, so when evaluating `e` in place could
    /// write `dst` before a fault (a division by zero, an index outside memory, a failed assert
    /// in a call) the value is built in a temporary and moved. A load through a computed index
    /// writes only when it succeeds, and a call writes only at its `return`, which is guarded
    /// the same way.
    pub(super) fn set_var(&mut self, dst: Mem, e: &Expr) {
        if self.constant(e).is_some() || self.r.ty(e).is_array() {
            return self.into(dst, e);
        }
        match &e.kind {
            ExprKind::Index(..) | ExprKind::Deref(_) if self.direct_place(e).is_none() && !self.is_function(e) => {
                let m = self.mark();
                match self.place_in(e, None) {
                    Place::Direct(src) => self.op2(Opcode::Mov, dst, src),
                    Place::Indirect(p) => self.op2(Opcode::Load, dst, p),
                }
                self.release(m);
            }
            ExprKind::Call(_, args) if matches!(self.r.callee(e), Callee::User(_)) => {
                self.call_into(dst, self.r.callee(e), args, e, true)
            }
            ExprKind::Num(..) | ExprKind::Var(..) | ExprKind::Assign(..) | ExprKind::IncDec { .. } => self.into(dst, e),
            _ if !self.may_fault(e) => self.into(dst, e),
            _ => {
                let m = self.mark();
                let t = self.temp();
                self.into(t, e);
                self.op2(Opcode::Mov, dst, t);
                self.release(m);
            }
        }
    }

    /// Whether evaluating `e` can stop the machine with a fault: a division by anything but a
    /// nonzero constant, a memory access at a computed slot, or a call.
    fn may_fault(&self, e: &Expr) -> bool {
        e.any(&mut |x| match &x.kind {
            ExprKind::Index(..) | ExprKind::Deref(_) => self.direct_place(x).is_none(),
            ExprKind::Call(..) | ExprKind::CallPtr(..) => true,
            ExprKind::Binary(BinOp::Div | BinOp::Rem, _, b) => self.constant(b).is_none_or(|k| k == 0),
            _ => false,
        })
    }

    pub(super) fn is_var(&self, e: &Expr, m: Mem) -> bool {
        matches!(e.kind, ExprKind::Var(_)) && !self.r.ty(e).is_array() && self.var_mem(self.r.var(e)) == m
    }

    /// `dst ← 0 or 1` from a condition.
    pub(super) fn boolean(&mut self, dst: Mem, e: &Expr) {
        let end = self.label();
        self.op2(Opcode::Xor, dst, dst);
        self.cond(e, false, end);
        self.op1(Opcode::Inc, dst);
        self.place(end);
    }

    pub fn negate(&mut self, dst: Mem) {
        self.op2(Opcode::Xor, dst, self.konst(-1));
        self.op1(Opcode::Inc, dst);
    }

    /// Evaluates `e` for its side effects only.
    pub(super) fn effect(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Assign(op, lhs, rhs) => {
                self.assign(*op, lhs, rhs);
            }
            ExprKind::IncDec { inc, target, .. } => {
                self.incdec(*inc, false, target, false);
            }
            ExprKind::Call(_, args) => match self.r.callee(e) {
                Callee::Builtin(b @ (Builtin::Assert | Builtin::Frame | Builtin::InputNext | Builtin::Exit)) => {
                    self.builtin_effect(b, args)
                }
                Callee::Builtin(
                    b @ (Builtin::Putchar | Builtin::Puts | Builtin::Printf | Builtin::Sprintf | Builtin::Snprintf),
                ) => self.print(b, args),
                Callee::User(f) => {
                    let words = self.r.sigs[f].ret.as_ref().map(Ty::words);
                    let ret = words.map(|w| Mem::Stack(self.temps(w)));
                    self.call_user(f, args, ret, false);
                }
                Callee::Builtin(_) => {
                    self.value(e);
                }
            },
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
                let end = self.label();
                self.cond(a, *op == BinOp::LogOr, end);
                self.effect(b);
                self.place(end);
            }
            ExprKind::Comma(a, b) => {
                self.effect(a);
                self.effect(b);
            }
            ExprKind::Cond(c, a, b) => {
                let (els, end) = (self.label(), self.label());
                self.cond(c, false, els);
                self.effect(a);
                self.jump(Opcode::Jmp, None, end);
                self.place(els);
                self.effect(b);
                self.place(end);
            }
            _ => {
                self.value(e);
            }
        }
    }

    /// The variable whose storage a place belongs to, when it is reached by name (not
    /// through a pointer): `x`, `a[2]`, `m[1][0]`.
    fn root_var(&self, e: &Expr) -> Option<VarId> {
        match &e.kind {
            ExprKind::Var(_) => Some(self.r.var(e)),
            ExprKind::Index(b, _) if self.r.ty(b).is_array() => self.root_var(b),
            ExprKind::Member { base, arrow: false, .. } => self.root_var(base),
            _ => None,
        }
    }

    /// The right operand of `p += k` / `p -= k`, scaled by the stride of `p`.
    fn step_operand(&mut self, lhs: &Expr, rhs: &Expr) -> Mem {
        let w = if self.r.ty(lhs).is_ptr() { self.stride(lhs) } else { 1 };
        if w == 1 {
            return self.value(rhs);
        }
        let t = self.temp();
        self.into(t, rhs);
        self.mul_const(t, w as i64, None);
        t
    }

    /// Performs an assignment; returns where the assigned value can be read.
    pub(super) fn assign(&mut self, op: Option<BinOp>, lhs: &Expr, rhs: &Expr) -> Mem {
        if let Ty::Struct(s) = self.r.ty(lhs) {
            self.struct_copy(lhs, rhs, s.words);
            // Never read: the checker refuses to use the value of a `struct` assignment.
            return self.konst(0);
        }
        match self.root_var(lhs).map(|id| self.var_mem(id)).or_else(|| self.direct_place(lhs)) {
            Some(target) => self.assigning(target, |g| g.assign_in(op, lhs, rhs)),
            None => self.assign_in(op, lhs, rhs),
        }
    }

    fn assign_in(&mut self, op: Option<BinOp>, lhs: &Expr, rhs: &Expr) -> Mem {
        let lt = self.r.ty(lhs).clone();
        // The type `lhs op= rhs` is computed in, and what it converts from.
        let (t, from) = match op {
            Some(op) => {
                let t = self.compound_type(op, &lt, rhs);
                (t, t.map_or(lt.clone(), Ty::Int))
            }
            None => (None, self.r.ty(rhs).clone()),
        };
        if let Some(m) = self.direct_place(lhs) {
            match op {
                Some(op) => {
                    let r = self.step_operand(lhs, rhs);
                    self.apply_in(m, op, r, rhs, t);
                }
                None => match self.root_var(lhs) {
                    Some(id) if !self.touches(rhs, id) => self.set_var(m, rhs),
                    Some(id) => match &rhs.kind {
                        // `x = x op b` in place: `b` is read before `x` is written, and `apply`
                        // checks a divisor before it writes. `&&`, `||` and comparisons are no
                        // `apply` operators: they take the general path below.
                        ExprKind::Binary(op, a, b)
                            if op.is_arith() && self.is_var(a, m) && !self.touches(b, id) && !self.r.ty(a).is_ptr() =>
                        {
                            let r = self.value(b);
                            self.apply_in(m, *op, r, rhs, self.r.ty(rhs).int());
                        }
                        _ => self.through_temp(m, rhs),
                    },
                    // `*p` at a fixed address: a right side that reads one word moves at once;
                    // any other may read the target through another name, so it is built apart.
                    None if self.static_value(rhs).is_some() || self.direct_place(rhs).is_some() => self.into(m, rhs),
                    None => self.through_temp(m, rhs),
                },
            }
            self.convert(m, &from, &lt);
            return m;
        }
        let Place::Indirect(p) = self.place_in(lhs, None) else {
            unreachable!("invariant: a place that is not direct is indirect")
        };
        match op {
            None => {
                let r = self.value_as(rhs, &lt);
                self.op2(Opcode::Store, r, p);
                r
            }
            Some(op) => {
                let tmp = self.temp();
                self.op2(Opcode::Load, tmp, p);
                let r = self.step_operand(lhs, rhs);
                self.apply_in(tmp, op, r, rhs, t);
                self.convert(tmp, &from, &lt);
                self.op2(Opcode::Store, tmp, p);
                tmp
            }
        }
    }

    /// The type `lhs op= rhs` computes in: the promoted `lhs` for a shift, the common type of
    /// both otherwise; `None` when `lhs` is a pointer (`p += k`).
    fn compound_type(&self, op: BinOp, lt: &Ty, rhs: &Expr) -> Option<IntTy> {
        let word = self.cfg.word_bits;
        let l = lt.int()?;
        Some(match (op, self.r.ty(rhs).int()) {
            (BinOp::Shl | BinOp::Shr, _) | (_, None) => l.promoted(word),
            (_, Some(r)) => IntTy::common(l, r, word),
        })
    }

    fn through_temp(&mut self, m: Mem, rhs: &Expr) {
        let t = self.temp();
        self.into(t, rhs);
        self.op2(Opcode::Mov, m, t);
    }

    /// `++x` / `x--`…; returns where the expression's value can be read when `want` is set.
    /// A pointer moves by its stride.
    pub(super) fn incdec(&mut self, inc: bool, post: bool, target: &Expr, want: bool) -> Mem {
        let ty = self.r.ty(target).clone();
        let w = if ty.is_ptr() { self.stride(target) } else { 1 };
        // `c++` on a narrow type is `c = c + 1`: computed in `int`, converted back.
        let computed = ty.int().map_or(ty.clone(), |t| Ty::Int(t.promoted(self.cfg.word_bits)));
        let step = |g: &mut Self, m: Mem| {
            match (w, inc) {
                (1, true) => g.op1(Opcode::Inc, m),
                (1, false) => g.op1(Opcode::Dec, m),
                (_, true) => g.op2(Opcode::Add, m, g.konst(w as i64)),
                (_, false) => g.op2(Opcode::Sub, m, g.konst(w as i64)),
            }
            g.convert(m, &computed, &ty);
        };
        if let Some(m) = self.direct_place(target) {
            if post && want {
                let t = self.temp();
                self.op2(Opcode::Mov, t, m);
                step(self, m);
                return t;
            }
            step(self, m);
            return m;
        }
        let Place::Indirect(p) = self.place_in(target, None) else {
            unreachable!("invariant: a place that is not direct is indirect")
        };
        let t = self.temp();
        self.op2(Opcode::Load, t, p);
        let old = if post && want {
            let o = self.temp();
            self.op2(Opcode::Mov, o, t);
            Some(o)
        } else {
            None
        };
        step(self, t);
        self.op2(Opcode::Store, t, p);
        old.unwrap_or(t)
    }

    // ---- conditions ----

    /// Jumps to `target` when the truth of `e` equals `sense`; falls through otherwise.
    pub fn cond(&mut self, e: &Expr, sense: bool, target: Label) {
        if let Some(k) = self.constant(e) {
            if (k != 0) == sense {
                self.jump(Opcode::Jmp, None, target);
            }
            return;
        }
        match &e.kind {
            ExprKind::Unary(UnOp::Not, x) => self.cond(x, !sense, target),
            ExprKind::Comma(a, b) => {
                let m = self.mark();
                self.effect(a);
                self.release(m);
                self.cond(b, sense, target);
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
                // `a && b` jumps on true only if both hold; on false if either fails.
                let short = (*op == BinOp::LogAnd) != sense;
                if short {
                    self.cond(a, sense, target);
                    self.cond(b, sense, target);
                } else {
                    let skip = self.label();
                    self.cond(a, !sense, skip);
                    self.cond(b, sense, target);
                    self.place(skip);
                }
            }
            ExprKind::Binary(op, a, b) if op.is_compare() => {
                let m = self.mark();
                let mut x = self.value(a);
                let mut y = self.value(b);
                if !matches!(op, BinOp::Eq | BinOp::Ne) && self.unsigned_order(a, b) {
                    // Flipping the sign bit orders unsigned words as signed ones.
                    x = self.flipped(x);
                    y = self.flipped(y);
                }
                let rel = if sense { *op } else { negate_rel(*op) };
                self.consumable = [x, y].into_iter().filter(|t| matches!(t, Mem::Stack(d) if *d >= m)).collect();
                self.rel_jump(x, y, rel, target);
                self.consumable.clear();
                self.release(m);
            }
            _ => {
                let m = self.mark();
                let v = self.value(e);
                self.jump(if sense { Opcode::Jnz } else { Opcode::Jz }, Some(v), target);
                self.release(m);
            }
        }
    }
}

impl Gen<'_> {
    /// Whether `a` and `b` are compared as unsigned words: pointers (slot indices), and
    /// integers whose common type is unsigned (`-1 < 0u` is false).
    fn unsigned_order(&self, a: &Expr, b: &Expr) -> bool {
        let (ta, tb) = (self.r.ty(a).decayed(), self.r.ty(b).decayed());
        match (ta.int(), tb.int()) {
            (Some(x), Some(y)) => !IntTy::common(x, y, self.cfg.word_bits).signed(),
            _ => ta.is_ptr(),
        }
    }
}

fn negate_rel(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        BinOp::Eq => BinOp::Ne,
        _ => BinOp::Eq,
    }
}
