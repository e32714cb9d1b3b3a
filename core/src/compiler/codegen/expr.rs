//! Expressions: values into memory operands, assignments, and conditions as jumps.

use super::{Gen, Label, Mem};
use crate::compiler::ast::*;
use crate::isa::Opcode;

impl Gen<'_> {
    /// A memory operand holding the value of `e` (a variable's own slot when possible).
    pub fn value(&mut self, e: &Expr) -> Mem {
        if let Some(k) = self.constant(e) {
            return self.konst(k);
        }
        match &e.kind {
            ExprKind::Var(_, Some(id)) => self.var_mem(*id),
            ExprKind::Index(_, Some(id), idx) if self.const_index(*id, idx).is_some() => {
                self.elem_mem(*id, self.const_index(*id, idx).unwrap_or(0))
            }
            _ => {
                let t = self.temp();
                self.into(t, e);
                t
            }
        }
    }

    pub(super) fn is_simple(&self, e: &Expr) -> bool {
        self.constant(e).is_some() || matches!(e.kind, ExprKind::Var(..))
    }

    /// Computes `e` into `dst`. `dst` is a fresh temporary or a variable `e` does not touch.
    pub fn into(&mut self, dst: Mem, e: &Expr) {
        if let Some(k) = self.constant(e) {
            return self.op2(Opcode::Mov, dst, self.konst(k));
        }
        match &e.kind {
            ExprKind::Num(_) => {}
            ExprKind::Var(..) => {
                let src = self.value(e);
                self.op2(Opcode::Mov, dst, src);
            }
            ExprKind::Index(_, id, idx) => {
                let id = id.expect("checked");
                if let Some(k) = self.const_index(id, idx) {
                    return self.op2(Opcode::Mov, dst, self.elem_mem(id, k));
                }
                self.pointer(dst, id, idx);
                self.op2(Opcode::Load, dst, dst);
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
            ExprKind::Binary(op, _, _) if op.is_compare() || matches!(op, BinOp::LogAnd | BinOp::LogOr) => {
                self.boolean(dst, e)
            }
            ExprKind::Binary(op, a, b) => {
                let m = self.mark();
                // A constant goes on the right of a commutative operator (`3 * x` shifts and adds).
                let (a, b) =
                    if op.commutes() && (self.constant(a).is_some() || self.is_var(b, dst)) { (b, a) } else { (a, b) };
                if self.is_var(a, dst) {
                    let r = self.value(b);
                    self.apply(dst, *op, r, e);
                } else if let (BinOp::Mul, Some(k), ExprKind::Var(..)) = (op, self.constant(b), &a.kind) {
                    let x = self.value(a);
                    self.op2(Opcode::Mov, dst, x);
                    self.mul_const(dst, k, Some(x));
                } else if op.commutes() && self.is_simple(a) && !self.is_simple(b) {
                    self.into(dst, b);
                    let r = self.value(a);
                    self.apply(dst, *op, r, e);
                } else {
                    self.into(dst, a);
                    let r = self.value(b);
                    self.apply(dst, *op, r, e);
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
            ExprKind::Call(_, args, callee) => self.call_into(dst, callee.expect("checked"), args, e, false),
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
        if self.constant(e).is_some() {
            return self.into(dst, e);
        }
        match &e.kind {
            ExprKind::Index(_, Some(id), idx) if self.const_index(*id, idx).is_none() => {
                let m = self.mark();
                let p = self.temp();
                self.pointer(p, *id, idx);
                self.op2(Opcode::Load, dst, p);
                self.release(m);
            }
            ExprKind::Call(_, args, Some(c @ Callee::User(_))) => self.call_into(dst, *c, args, e, true),
            ExprKind::Num(_) | ExprKind::Var(..) | ExprKind::Assign(..) | ExprKind::IncDec { .. } => self.into(dst, e),
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
    /// nonzero constant, an index computed at run time, or a call.
    fn may_fault(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Num(_) | ExprKind::Var(..) => false,
            ExprKind::Index(_, id, idx) => {
                id.is_none_or(|id| self.const_index(id, idx).is_none()) || self.may_fault(idx)
            }
            ExprKind::Call(..) => true,
            ExprKind::Binary(BinOp::Div | BinOp::Rem, a, b) => {
                self.constant(b).is_none_or(|k| k == 0) || self.may_fault(a) || self.may_fault(b)
            }
            ExprKind::Unary(_, x) | ExprKind::IncDec { target: x, .. } => self.may_fault(x),
            ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => self.may_fault(a) || self.may_fault(b),
            ExprKind::Cond(c, a, b) => self.may_fault(c) || self.may_fault(a) || self.may_fault(b),
        }
    }

    pub(super) fn is_var(&self, e: &Expr, m: Mem) -> bool {
        matches!(e.kind, ExprKind::Var(_, Some(id)) if self.var_mem(id) == m)
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
            ExprKind::Call(_, args, Some(Callee::Builtin(b @ (Builtin::Assert | Builtin::Frame)))) => {
                self.builtin_effect(*b, args)
            }
            ExprKind::Call(_, args, Some(Callee::User(f))) => {
                let ret = self.ck.unit.funcs[*f].returns_int.then(|| self.temp());
                self.inline(*f, args, ret, false);
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
                let end = self.label();
                self.cond(a, *op == BinOp::LogOr, end);
                self.effect(b);
                self.place(end);
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

    /// Performs an assignment; returns where the assigned value can be read.
    pub(super) fn assign(&mut self, op: Option<BinOp>, lhs: &Expr, rhs: &Expr) -> Mem {
        let (id, idx) = match &lhs.kind {
            ExprKind::Var(_, Some(id)) => (*id, None),
            ExprKind::Index(_, Some(id), idx) => (*id, Some(idx.as_ref())),
            _ => return self.value(rhs),
        };
        let scalar = match idx {
            None => Some(self.var_mem(id)),
            Some(i) => self.const_index(id, i).map(|k| self.elem_mem(id, k)),
        };
        if let Some(m) = scalar {
            match op {
                Some(op) => {
                    let r = self.value(rhs);
                    self.apply(m, op, r, rhs);
                }
                None if !self.touches(rhs, id) => self.set_var(m, rhs),
                None => match &rhs.kind {
                    // `x = x op b` in place: `b` is read before `x` is written, and `apply`
                    // checks a divisor before it writes. `&&`, `||` and comparisons are no
                    // `apply` operators: they take the general path below.
                    ExprKind::Binary(op, a, b)
                        if op.is_arith() && self.is_var(a, m) && idx.is_none() && !self.touches(b, id) =>
                    {
                        let r = self.value(b);
                        self.apply(m, *op, r, rhs);
                    }
                    _ => {
                        let t = self.temp();
                        self.into(t, rhs);
                        self.op2(Opcode::Mov, m, t);
                    }
                },
            }
            return m;
        }
        let p = self.temp();
        self.pointer(p, id, idx.expect("indexed"));
        match op {
            None => {
                let r = self.value(rhs);
                self.op2(Opcode::Store, r, p);
                r
            }
            Some(op) => {
                let t = self.temp();
                self.op2(Opcode::Load, t, p);
                let r = self.value(rhs);
                self.apply(t, op, r, rhs);
                self.op2(Opcode::Store, t, p);
                t
            }
        }
    }

    /// `++x` / `x--`…; returns where the expression's value can be read when `want` is set.
    pub(super) fn incdec(&mut self, inc: bool, post: bool, target: &Expr, want: bool) -> Mem {
        let op = if inc { Opcode::Inc } else { Opcode::Dec };
        let (id, idx) = match &target.kind {
            ExprKind::Var(_, Some(id)) => (*id, None),
            ExprKind::Index(_, Some(id), idx) => (*id, Some(idx.as_ref())),
            _ => return self.konst(0),
        };
        let scalar = match idx {
            None => Some(self.var_mem(id)),
            Some(i) => self.const_index(id, i).map(|k| self.elem_mem(id, k)),
        };
        if let Some(m) = scalar {
            if post && want {
                let t = self.temp();
                self.op2(Opcode::Mov, t, m);
                self.op1(op, m);
                return t;
            }
            self.op1(op, m);
            return m;
        }
        let p = self.temp();
        self.pointer(p, id, idx.expect("indexed"));
        let t = self.temp();
        self.op2(Opcode::Load, t, p);
        let old = if post && want {
            let o = self.temp();
            self.op2(Opcode::Mov, o, t);
            Some(o)
        } else {
            None
        };
        self.op1(op, t);
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
                let x = self.value(a);
                let y = self.value(b);
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
