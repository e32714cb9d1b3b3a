//! Calls: user functions are inlined into fresh stack frames; builtins expand in place.

use super::{assigns, Gen, Mem, Ret};
use crate::compiler::ast::*;
use crate::isa::Opcode;

impl Gen<'_> {
    /// `dst ← callee(args)`. With `guard`, `dst` is a variable that must keep its value
    /// when the call faults (see [`Gen::set_var`]).
    pub(super) fn call_into(&mut self, dst: Mem, callee: Callee, args: &[Expr], e: &Expr, guard: bool) {
        match callee {
            Callee::User(f) => {
                // The callee writes its result straight into `dst` unless it could see `dst`
                // (only globals are visible to a callee, and only those it uses matter).
                let visible = match dst {
                    Mem::Global(s) => self.global_at(s).is_none_or(|g| self.uses[f].contains(&g)),
                    _ => false,
                };
                if !visible {
                    self.inline(f, args, Some(dst), guard);
                } else {
                    let m = self.mark();
                    let t = self.temp();
                    self.inline(f, args, Some(t), false);
                    self.op2(Opcode::Mov, dst, t);
                    self.release(m);
                }
            }
            Callee::Builtin(b) => self.builtin_into(dst, b, args, e),
        }
    }

    /// Inlines a call: arguments into fresh parameter slots, then the body.
    pub(super) fn inline(&mut self, f: usize, args: &[Expr], ret: Option<Mem>, guard: bool) {
        if self.items.len() > self.limit {
            return;
        }
        let func = &self.ck.unit.funcs[f];
        let m = self.mark();
        let saved_loc = self.loc;
        let mut bound = Vec::new();
        for (p, a) in func.params.iter().zip(args) {
            let id = p.id.expect("checked");
            // A constant argument to a parameter the callee never assigns is substituted.
            // A parameter the callee never assigns can share the argument's storage when that is
            // a constant or a caller local (the callee cannot reach the caller's locals).
            if !assigns(&func.body, id) {
                if let Some(k) = self.constant(a) {
                    bound.push((id, self.konst(k)));
                    continue;
                }
                if let ExprKind::Var(_, Some(v)) = a.kind {
                    if let m @ Mem::Stack(_) = self.var_mem(v) {
                        bound.push((id, m));
                        continue;
                    }
                }
            }
            let slot = self.temp();
            let inner = self.mark();
            self.into(slot, a);
            self.release(inner);
            bound.push((id, slot));
        }
        for (id, slot) in bound {
            self.env.insert(id, slot);
            if let Mem::Stack(d) = slot {
                if !self.locals.iter().any(|l| l.0 == id) {
                    self.locals.push((id, d));
                }
            }
        }
        let exit = self.label();
        let loops = std::mem::take(&mut self.loops);
        self.rets.push(Ret { slot: ret, exit, guard });
        for s in &func.body {
            self.stmt(s);
        }
        self.rets.pop();
        self.loops = loops;
        self.place(exit);
        self.loc = saved_loc;
        self.release(m);
    }

    pub(super) fn builtin_effect(&mut self, b: Builtin, args: &[Expr]) {
        match b {
            Builtin::Assert => {
                let Some(c) = args.first() else { return };
                let fail = self.trap("assertion failed");
                let m = self.mark();
                self.cond(c, false, fail);
                self.release(m);
            }
            Builtin::Frame => {
                // A real no-op instruction, so the pause point is reached only from here.
                let l = self.label();
                self.place(l);
                self.frames.push(l);
                let z = self.konst(0);
                self.op2(Opcode::Add, z, z);
            }
            _ => {}
        }
    }

    pub(super) fn builtin_into(&mut self, dst: Mem, b: Builtin, args: &[Expr], e: &Expr) {
        let m = self.mark();
        match (b, args) {
            (Builtin::Abs, [x]) => {
                // Branch-free: t = −x; if x < 0 then x ← t.
                self.into(dst, x);
                let t = self.temp();
                self.op2(Opcode::Xor, t, t);
                self.op2(Opcode::Sub, t, dst);
                self.op2(Opcode::Cmov, dst, t);
            }
            (Builtin::Min | Builtin::Max, [x, y]) => {
                let keep = self.label();
                self.into(dst, x);
                let r = self.value(y);
                let r = if r == dst { self.copy(r) } else { r };
                if b == Builtin::Min {
                    self.rel_jump(dst, r, BinOp::Le, keep);
                } else {
                    self.rel_jump(r, dst, BinOp::Le, keep);
                }
                self.op2(Opcode::Mov, dst, r);
                self.place(keep);
            }
            _ => {
                self.effect(e);
                self.op2(Opcode::Xor, dst, dst);
            }
        }
        self.release(m);
    }
}
