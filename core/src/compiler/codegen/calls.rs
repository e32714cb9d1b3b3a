//! Calls: user functions that do not recurse are inlined into fresh stack frames
//! (recursive ones are called out of line, see `outline`); builtins expand in place.

use super::{Gen, Label, Mem, Opd, Ret};
use crate::compiler::ast::*;
use crate::compiler::resolved::{fn_value, Ty};
use crate::isa::Opcode;
use std::collections::HashMap;

impl Gen<'_> {
    /// `dst ← callee(args)`. With `guard`, `dst` is a variable that must keep its value
    /// when the call faults (see [`Gen::set_var`]).
    pub(super) fn call_into(&mut self, dst: Mem, callee: Callee, args: &[Expr], e: &Expr, guard: bool) {
        match callee {
            Callee::User(f) => {
                // The callee writes its result straight into `dst` unless it could see `dst`:
                // a global it uses, or any variable when it reads through pointers.
                let visible = self.r.calls.through_pointers[f]
                    || match dst {
                        Mem::Global(s) => self.global_at(s).is_none_or(|g| self.r.calls.globals_used[f].contains(&g)),
                        _ => false,
                    };
                if !visible {
                    self.call_user(f, args, Some(dst), guard);
                } else {
                    let m = self.mark();
                    let t = self.temp();
                    self.call_user(f, args, Some(t), false);
                    self.op2(Opcode::Mov, dst, t);
                    self.release(m);
                }
            }
            Callee::Builtin(b) => self.builtin_into(dst, b, args, e),
        }
    }

    /// `dst ← (*f)(args)`: a call through a function pointer. The machine has no indirect
    /// jump, so the pointer's value (a function's number, see `fn_value`) is compared with
    /// each function the program takes the address of, of the pointer's type, and the match
    /// is called as by name; any other value (`NULL`) stops the program with a fault. A
    /// pointer known when compiling (a function's name, or a constant argument of an inlined
    /// call such as a callback) calls its function directly.
    pub(super) fn call_ptr_into(&mut self, dst: Mem, f: &Expr, args: &[Expr], e: &Expr) {
        let targets = self.r.candidates(e).to_vec();
        if let Some(Mem::Const(k)) = self.static_value(f) {
            if let Some(&g) = targets.iter().find(|&&g| self.konst(fn_value(g)) == Mem::Const(k)) {
                return self.call_into(dst, Callee::User(g), args, e, false);
            }
        }
        let m = self.mark();
        let t = self.temp();
        self.into(t, f);
        let fail = self.trap("call through a pointer that holds no function");
        let end = self.label();
        let labels: Vec<Label> = targets.iter().map(|_| self.label()).collect();
        let mut prev = 0;
        for (&g, &l) in targets.iter().zip(&labels) {
            let v = fn_value(g);
            self.op2(Opcode::Sub, t, self.konst(v - prev));
            self.jump(Opcode::Jz, Some(t), l);
            prev = v;
        }
        self.jump(Opcode::Jmp, None, fail);
        for (&g, &l) in targets.iter().zip(&labels) {
            self.place(l);
            self.call_into(dst, Callee::User(g), args, e, false);
            self.jump(Opcode::Jmp, None, end);
        }
        self.place(end);
        self.release(m);
    }

    /// A call of user function `f` whose result goes to `ret`.
    pub(super) fn call_user(&mut self, f: usize, args: &[Expr], ret: Option<Mem>, guard: bool) {
        if self.r.calls.recursive[f] {
            self.call_outlined(f, args, ret);
        } else {
            self.inline(f, args, ret, guard);
        }
    }

    /// The global variable occupying memory slot `slot`.
    fn global_at(&self, slot: usize) -> Option<VarId> {
        self.r.vars.iter().position(|v| v.global_slot.is_some_and(|s| (s..s + v.ty.words()).contains(&slot)))
    }

    /// Inlines a call: arguments into fresh parameter slots, then the body.
    fn inline(&mut self, f: usize, args: &[Expr], ret: Option<Mem>, guard: bool) {
        if self.items.len() > self.limit {
            return;
        }
        let func = &self.r.unit.funcs[f];
        let m = self.mark();
        let saved_loc = self.loc;
        let mut bound = Vec::new();
        let lend = std::mem::replace(&mut self.lend_addresses, !self.r.calls.reaches_recursion[f]);
        for (p, a) in func.params.iter().zip(args) {
            let id = self.r.decl(p);
            let pt = self.r.vars[id].ty.clone();
            // A constant argument (a number, or a fixed address such as `&x` or an array) to a
            // parameter the callee never assigns is substituted. Such a parameter can also
            // share the argument's storage when that is a caller local whose address is never
            // taken (then the callee cannot reach it) and whose value needs no conversion.
            if pt.is_struct() {
                // A structure is copied into the callee's own words.
                let base = Mem::Stack(self.temps(pt.words()));
                let inner = self.mark();
                let src = self.place_in(a, None);
                self.copy_words(src, super::place::Place::Direct(base), pt.words());
                self.release(inner);
                bound.push((id, base));
                continue;
            }
            if !self.body_assigns(&func.body, id) && !self.r.exposed.contains(&id) {
                let same = !self.converts(self.r.ty(a), &pt);
                match self.static_value(a) {
                    Some(Mem::Const(_)) => {
                        bound.push((id, self.value_as(a, &pt)));
                        continue;
                    }
                    Some(k @ (Mem::GlobalAddr(_) | Mem::StackAddr(_))) => {
                        self.check_escape(a);
                        bound.push((id, k));
                        continue;
                    }
                    Some(m @ Mem::Stack(_))
                        if same && self.r.var_of(a).is_some_and(|v| !self.r.exposed.contains(&v)) =>
                    {
                        bound.push((id, m));
                        continue;
                    }
                    _ => {}
                }
            }
            let slot = self.temp();
            let inner = self.mark();
            self.into(slot, a);
            self.convert(slot, self.r.ty(a), &pt);
            self.release(inner);
            bound.push((id, slot));
        }
        let caller = self.debug_inline(f, ret, saved_loc.map_or(0, |l| l.line));
        for (id, slot) in bound {
            self.env.insert(id, slot);
            self.debug_var(id, slot);
            if let Mem::Stack(d) = slot {
                if !self.locals.iter().any(|l| l.0 == id) {
                    self.locals.push((id, d));
                }
            }
        }
        let exit = self.label();
        let loops = std::mem::take(&mut self.loops);
        let ty = self.r.sigs[f].ret.clone().unwrap_or(Ty::INT);
        self.rets.push(Ret { slot: ret, exit, guard, ty });
        self.gotos.push(HashMap::new());
        for s in &func.body {
            self.stmt(s);
        }
        self.gotos.pop();
        self.rets.pop();
        self.loops = loops;
        self.place(exit);
        self.debug_leave(caller);
        self.loc = saved_loc;
        self.lend_addresses = lend;
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
            Builtin::InputNext => self.advance_input(),
            Builtin::Exit => {
                // The status is evaluated (it may have effects) but goes nowhere: the host
                // sees a halted machine, as after `main` returns.
                if let Some(status) = args.first() {
                    self.effect(status);
                }
                self.emit(Opcode::Halt, Opd::Nil, Opd::Nil);
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
            (Builtin::Getchar | Builtin::InputPeek, []) => self.read_input(dst, b == Builtin::Getchar),
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
