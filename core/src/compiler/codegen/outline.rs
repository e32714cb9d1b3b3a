//! Recursive functions: compiled once, out of line, and called through a
//! run-time stack in memory. The machine has no indirect jump, so a function
//! returns by a dispatch over the numbers of its call sites.
//!
//! Every out-of-line body keeps its parameters, locals and temporaries in one
//! region of the compile-time stack, above all of `main`'s (inlined) code. A
//! call from inside that region first pushes the caller's live slots of it,
//! then the call site's number; the arguments go into the callee's parameter
//! slots; the callee's `return` leaves its value in the register `Ret`, pops
//! the site number and jumps back by comparing it with each site's; the caller
//! pops its slots back. Each activation so has its own locals, as in C. A push
//! that would leave the stack's memory stops the machine with the fault
//! "stack overflow" at the call's line, before anything is written.

use super::debug::CallGen;
use super::{Gen, Item, Label, Mem, Opd, Reg, Ret};
use crate::compiler::ast::Expr;
use crate::compiler::resolved::Ty;
use crate::isa::Opcode;
use std::collections::HashMap;

#[derive(Default)]
pub struct Outlined {
    /// Where the out-of-line frames begin on the compile-time stack, while they are generated.
    pub region: Option<usize>,
    /// Entry and exit labels of each function called out of line.
    labels: HashMap<usize, (Label, Label)>,
    /// Return sites of each, numbered from 1 in this order.
    sites: HashMap<usize, Vec<Label>>,
    /// Functions whose bodies are still to generate, in order of first call.
    queue: Vec<usize>,
}

impl Gen<'_> {
    fn outlined_labels(&mut self, f: usize) -> (Label, Label) {
        if let Some(&l) = self.outline.labels.get(&f) {
            return l;
        }
        let l = (self.label(), self.label());
        let func = &self.r.unit.funcs[f];
        let result = func.ret.is_some().then_some(Mem::Reg(Reg::Ret));
        self.debug_root(l.0, &func.name.clone(), CallGen::Outlined, result);
        self.outline.labels.insert(f, l);
        self.outline.queue.push(f);
        l
    }

    /// A call of recursive function `f`; its result goes to `ret`.
    pub(super) fn call_outlined(&mut self, f: usize, args: &[Expr], ret: Option<Mem>) {
        let (entry, _) = self.outlined_labels(f);
        let m = self.mark();
        let lend = std::mem::replace(&mut self.lend_addresses, false);
        let mut vals = Vec::new();
        let params: Vec<Ty> =
            self.r.unit.funcs[f].params.iter().map(|p| self.r.vars[self.r.decl(p)].ty.clone()).collect();
        for (a, pt) in args.iter().zip(&params) {
            let v = match self.static_value(a) {
                Some(Mem::Const(_)) => self.value_as(a, pt),
                Some(v @ (Mem::GlobalAddr(_) | Mem::StackAddr(_))) => {
                    self.check_escape(a);
                    v
                }
                Some(v @ Mem::Global(_)) if !self.converts(self.r.ty(a), pt) => v,
                _ => {
                    let t = self.temp();
                    self.into(t, a);
                    self.convert(t, self.r.ty(a), pt);
                    t
                }
            };
            vals.push(v);
        }
        self.lend_addresses = lend;
        // The caller's own out-of-line slots (none from `main`'s code) are saved.
        let saved: Vec<Mem> = self.outline.region.map_or(Vec::new(), |r| (r..m).map(Mem::Stack).collect());
        let words = self.konst(saved.len() as i64 + 1);
        let (sp, room) = (Mem::Reg(Reg::Sp), Mem::Reg(Reg::Room));
        let overflow = self.trap("stack overflow");
        self.op2(Opcode::Sub, room, words);
        self.jump(Opcode::Cmp, Some(room), overflow);
        for &s in &saved {
            self.op2(Opcode::Store, s, sp);
            self.op1(Opcode::Inc, sp);
            self.debug_push(1);
        }
        let site = self.label();
        let sites = self.outline.sites.entry(f).or_default();
        sites.push(site);
        let number = sites.len();
        let callee = self.debug_root(entry, "", CallGen::Outlined, None);
        let from = self.outline.region.map(Mem::Stack);
        let site_index = self.debug_site(callee, number, saved.len(), from);
        self.debug_call(Some(site_index));
        let number = self.konst(number as i64);
        self.op2(Opcode::Store, number, sp);
        self.op1(Opcode::Inc, sp);
        self.debug_push(1);
        for (i, v) in vals.into_iter().enumerate() {
            self.op2(Opcode::Mov, Mem::Frame(i), v);
        }
        self.jump(Opcode::Jmp, None, entry);
        self.place(site);
        self.debug_push(-1);
        for &s in saved.iter().rev() {
            self.op1(Opcode::Dec, sp);
            self.debug_push(-1);
            self.op2(Opcode::Load, s, sp);
        }
        self.debug_call(None);
        self.op2(Opcode::Add, room, words);
        if let Some(dst) = ret {
            self.op2(Opcode::Mov, dst, Mem::Reg(Reg::Ret));
        }
        self.release(m);
    }

    /// Generates the bodies of the functions called out of line (after `main`'s code, whose
    /// deepest slot starts their region), then each one's return dispatch, then gives the
    /// frame's parameter slots their place.
    pub(super) fn outlined_bodies(&mut self) {
        if self.outline.queue.is_empty() {
            return;
        }
        let region = self.max_depth;
        self.outline.region = Some(region);
        let mut next = 0;
        while let Some(&f) = self.outline.queue.get(next) {
            next += 1;
            self.outlined_body(f, region);
        }
        let mut done: Vec<usize> = self.outline.labels.keys().copied().collect();
        done.sort_unstable();
        for f in done {
            let (entry, exit) = self.outline.labels[&f];
            let sites = self.outline.sites.get(&f).cloned().unwrap_or_default();
            self.place(exit);
            self.loc = None;
            let root = self.debug_root(entry, "", CallGen::Outlined, None);
            self.debug_enter_root(root);
            let (sp, site) = (Mem::Reg(Reg::Sp), Mem::Reg(Reg::Site));
            self.op1(Opcode::Dec, sp);
            self.debug_set_pushed(-1);
            self.op2(Opcode::Load, site, sp);
            self.dispatch(site, &sites);
        }
        for it in &mut self.items {
            if let Item::Ins { a, b, c, .. } = it {
                for o in [a, b, c] {
                    if let Opd::M(Mem::Frame(i)) = *o {
                        *o = Opd::M(Mem::Stack(region + i));
                    }
                }
            }
        }
    }

    fn outlined_body(&mut self, f: usize, region: usize) {
        let (entry, exit) = self.outlined_labels(f);
        let func = &self.r.unit.funcs[f];
        self.place(entry);
        let root = self.debug_root(entry, "", CallGen::Outlined, None);
        self.debug_enter_root(root);
        self.release(region);
        let base = self.temps(func.params.len());
        for (i, p) in func.params.iter().enumerate() {
            let id = self.r.decl(p);
            self.env.insert(id, Mem::Stack(base + i));
            self.debug_var(id, Mem::Stack(base + i));
            if !self.locals.iter().any(|l| l.0 == id) {
                self.locals.push((id, base + i));
            }
        }
        // Guarded: a returned expression that calls (itself, say) is built in a frame slot,
        // since each nested call leaves its own result in `Ret`.
        let slot = func.ret.is_some().then_some(Mem::Reg(Reg::Ret));
        self.rets.push(Ret { slot, exit, guard: true, ty: self.r.sigs[f].ret.clone().unwrap_or(Ty::INT) });
        self.loops.clear();
        self.ranges.clear();
        self.gotos.push(HashMap::new());
        for s in &func.body {
            self.stmt(s);
        }
        self.gotos.pop();
        self.rets.pop();
        self.jump(Opcode::Jmp, None, exit);
    }
}
