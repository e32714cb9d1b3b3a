//! Lowering of the checked tree to instructions over symbolic operands
//! (variables, pooled constants, stack slots, labels); [`super::layout`]
//! later fixes addresses.
//!
//! Every call is inlined. Locals, parameters and temporaries live on a
//! compile-time stack: a callee's frame sits above its caller's live slots,
//! so frames of functions never live together share memory, and no callee
//! local aliases a caller variable. Results are built in place
//! (`dst op= operand`), which fits the machine's two-operand instructions.

use super::ast::*;
use super::checker::Checked;
use super::fold;
use crate::config::Config;
use crate::image::SrcLoc;
use crate::isa::Opcode;
use std::collections::HashMap;

pub type Label = usize;

/// A memory operand before layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mem {
    Global(usize),
    Stack(usize),
    /// A pooled constant (already wrapped to N bits).
    Const(i64),
    /// A pooled constant holding the slot index of stack slot `d` (the base of a local array).
    StackAddr(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opd {
    Nil,
    M(Mem),
    L(Label),
}

#[derive(Clone, Debug)]
pub enum Item {
    Ins { op: Opcode, a: Opd, b: Opd, c: Opd, loc: Option<SrcLoc> },
    Label(Label),
}

/// What code generation hands to layout.
pub struct Lowered {
    pub items: Vec<Item>,
    pub stack_slots: usize,
    pub traps: Vec<(Label, String)>,
    pub frames: Vec<Label>,
    /// Locals and parameters with the stack slot of their first instance.
    pub locals: Vec<(VarId, usize)>,
}

pub struct Gen<'a> {
    pub cfg: Config,
    ck: &'a Checked,
    items: Vec<Item>,
    labels: usize,
    depth: usize,
    max_depth: usize,
    env: HashMap<VarId, Mem>,
    /// Innermost function being inlined: where its result goes and its exit.
    rets: Vec<(Option<Mem>, Label)>,
    /// Innermost loops of the current function: (break, continue).
    loops: Vec<(Label, Label)>,
    traps: Vec<(Label, String, Option<SrcLoc>)>,
    frames: Vec<Label>,
    locals: Vec<(VarId, usize)>,
    pub loc: Option<SrcLoc>,
}

pub fn lower(ck: &Checked, cfg: Config) -> Lowered {
    let mut g = Gen {
        cfg,
        ck,
        items: Vec::new(),
        labels: 0,
        depth: 0,
        max_depth: 0,
        env: HashMap::new(),
        rets: Vec::new(),
        loops: Vec::new(),
        traps: Vec::new(),
        frames: Vec::new(),
        locals: Vec::new(),
        loc: None,
    };
    let end = g.label();
    g.rets.push((None, end));
    for s in &ck.unit.funcs[ck.main].body {
        g.stmt(s);
    }
    g.place(end);
    g.loc = None;
    g.emit(Opcode::Halt, Opd::Nil, Opd::Nil);
    let traps = std::mem::take(&mut g.traps);
    for (l, _, loc) in &traps {
        g.place(*l);
        g.loc = *loc;
        g.emit(Opcode::Halt, Opd::Nil, Opd::Nil);
    }
    let traps = traps.into_iter().map(|(l, msg, _)| (l, msg)).collect();
    Lowered { items: g.items, stack_slots: g.max_depth, traps, frames: g.frames, locals: g.locals }
}

impl Gen<'_> {
    // ---- emission helpers ----

    pub fn label(&mut self) -> Label {
        self.labels += 1;
        self.labels - 1
    }

    pub fn place(&mut self, l: Label) {
        self.items.push(Item::Label(l));
    }

    pub fn emit(&mut self, op: Opcode, b: Opd, c: Opd) {
        self.items.push(Item::Ins { op, a: Opd::Nil, b, c, loc: self.loc });
    }

    /// `op b, c` on two memory operands.
    pub fn op2(&mut self, op: Opcode, b: Mem, c: Mem) {
        if op == Opcode::Mov && b == c {
            return;
        }
        self.emit(op, Opd::M(b), Opd::M(c));
    }

    pub fn op1(&mut self, op: Opcode, b: Mem) {
        self.emit(op, Opd::M(b), Opd::Nil);
    }

    pub fn jump(&mut self, op: Opcode, b: Option<Mem>, l: Label) {
        self.emit(op, b.map_or(Opd::Nil, Opd::M), Opd::L(l));
    }

    /// SUBLEQ: `b -= a; if b ≤ 0 goto l`.
    pub fn subleq(&mut self, a: Mem, b: Mem, l: Label) {
        self.items.push(Item::Ins { op: Opcode::Subleq, a: Opd::M(a), b: Opd::M(b), c: Opd::L(l), loc: self.loc });
    }

    pub fn konst(&self, v: i64) -> Mem {
        Mem::Const(self.cfg.wrap(v) as i64)
    }

    pub fn temp(&mut self) -> Mem {
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        Mem::Stack(self.depth - 1)
    }

    pub fn mark(&self) -> usize {
        self.depth
    }

    pub fn release(&mut self, mark: usize) {
        self.depth = mark;
    }

    /// A jump to a new trap instruction that stops the run with `message` at the current location.
    pub fn trap(&mut self, message: &str) -> Label {
        let l = self.label();
        self.traps.push((l, message.to_string(), self.loc));
        l
    }

    pub fn set_loc(&mut self, span: crate::diag::Span) {
        self.loc = Some(SrcLoc { line: span.line, col: span.col, end_col: span.end_col });
    }

    // ---- variables ----

    fn var_mem(&self, id: VarId) -> Mem {
        match self.ck.vars[id].global_slot {
            Some(s) => Mem::Global(s),
            None => self.env.get(&id).copied().unwrap_or(Mem::Stack(0)),
        }
    }

    fn elem_mem(&self, id: VarId, k: i64) -> Mem {
        match self.var_mem(id) {
            Mem::Global(s) => Mem::Global(s + k as usize),
            Mem::Stack(s) => Mem::Stack(s + k as usize),
            m => m,
        }
    }

    /// The constant holding the slot index of `a[0]`, or `None` when it is slot 0.
    fn base_addr(&self, id: VarId) -> Option<Mem> {
        match self.var_mem(id) {
            Mem::Global(0) => None,
            Mem::Global(s) => Some(self.konst(s as i64)),
            Mem::Stack(d) => Some(Mem::StackAddr(d)),
            _ => None,
        }
    }

    /// `dst ← slot index of a[idx]` (dst must be safe to write before `idx` is read).
    fn pointer(&mut self, dst: Mem, id: VarId, idx: &Expr) {
        self.into(dst, idx);
        if let Some(b) = self.base_addr(id) {
            self.op2(Opcode::Add, dst, b);
        }
    }

    /// Whether evaluating `e` may read or write variable `id` (calls may touch any global).
    fn touches(&self, e: &Expr, id: VarId) -> bool {
        let global = self.ck.vars[id].global_slot.is_some();
        match &e.kind {
            ExprKind::Num(_) => false,
            ExprKind::Var(_, v) => *v == Some(id),
            ExprKind::Index(_, v, i) => *v == Some(id) || self.touches(i, id),
            ExprKind::Call(_, args, c) => {
                (global && matches!(c, Some(Callee::User(_)))) || args.iter().any(|a| self.touches(a, id))
            }
            ExprKind::Unary(_, x) => self.touches(x, id),
            ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => self.touches(a, id) || self.touches(b, id),
            ExprKind::IncDec { target, .. } => self.touches(target, id),
            ExprKind::Cond(c, a, b) => self.touches(c, id) || self.touches(a, id) || self.touches(b, id),
        }
    }

    fn constant(&self, e: &Expr) -> Option<i64> {
        let known = |id: VarId| match self.env.get(&id) {
            Some(Mem::Const(k)) => Some(*k),
            _ => None,
        };
        fold::eval_with(&self.cfg, e, &known)
    }

    // ---- statements ----

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Decl(ds) => ds.iter().for_each(|d| self.local(d)),
            Stmt::Expr(e) => {
                self.set_loc(e.span);
                let m = self.mark();
                self.effect(e);
                self.release(m);
            }
            Stmt::If(c, a, b) => {
                self.set_loc(c.span);
                let (els, end) = (self.label(), self.label());
                self.cond(c, false, els);
                self.scoped(a);
                if let Some(b) = b {
                    self.jump(Opcode::Jmp, None, end);
                    self.place(els);
                    self.scoped(b);
                } else {
                    self.place(els);
                }
                self.place(end);
            }
            Stmt::While(c, body) => self.looped(None, Some(c), None, body, false),
            Stmt::DoWhile(body, c) => self.looped(None, Some(c), None, body, true),
            Stmt::For { init, cond, step, body } => {
                let m = self.mark();
                self.looped(init.as_deref(), cond.as_ref(), step.as_ref(), body, false);
                self.release(m);
            }
            Stmt::Break(span) | Stmt::Continue(span) => {
                self.set_loc(*span);
                let (brk, cont) = *self.loops.last().expect("checked: inside a loop");
                self.jump(Opcode::Jmp, None, if matches!(s, Stmt::Break(_)) { brk } else { cont });
            }
            Stmt::Return(e, span) => {
                self.set_loc(*span);
                let (slot, exit) = *self.rets.last().expect("inside a function");
                let m = self.mark();
                match (e, slot) {
                    (Some(e), Some(slot)) => self.into(slot, e),
                    (Some(e), None) => self.effect(e),
                    _ => {}
                }
                self.release(m);
                self.jump(Opcode::Jmp, None, exit);
            }
            Stmt::Block(b) => {
                let m = self.mark();
                b.iter().for_each(|s| self.stmt(s));
                self.release(m);
            }
            Stmt::Empty => {}
        }
    }

    fn scoped(&mut self, s: &Stmt) {
        let m = self.mark();
        self.stmt(s);
        self.release(m);
    }

    /// Loops are rotated: the test sits at the bottom, so each iteration runs one jump fewer.
    fn looped(&mut self, init: Option<&Stmt>, c: Option<&Expr>, step: Option<&Expr>, body: &Stmt, do_while: bool) {
        if let Some(i) = init {
            self.stmt(i);
        }
        let (top, cont, test, brk) = (self.label(), self.label(), self.label(), self.label());
        let always = c.is_none_or(|c| self.constant(c).is_some_and(|v| v != 0));
        if !do_while && !always {
            if let Some(c) = c {
                self.set_loc(c.span);
            }
            self.jump(Opcode::Jmp, None, test);
        }
        self.place(top);
        self.loops.push((brk, cont));
        self.scoped(body);
        self.loops.pop();
        self.place(cont);
        if let Some(st) = step {
            self.set_loc(st.span);
            let m = self.mark();
            self.effect(st);
            self.release(m);
        }
        self.place(test);
        match c {
            Some(c) => {
                self.set_loc(c.span);
                let m = self.mark();
                self.cond(c, true, top);
                self.release(m);
            }
            None => self.jump(Opcode::Jmp, None, top),
        }
        self.place(brk);
    }

    fn local(&mut self, d: &VarDecl) {
        let id = d.id.expect("checked");
        let len = self.ck.vars[id].len;
        let base = self.depth;
        for _ in 0..len.unwrap_or(1) {
            self.temp();
        }
        if !self.locals.iter().any(|l| l.0 == id) {
            self.locals.push((id, base));
        }
        self.set_loc(d.span);
        match &d.init {
            Some(Init::Scalar(e)) => {
                let m = self.mark();
                self.into(Mem::Stack(base), e);
                self.release(m);
            }
            Some(Init::List(items, _)) => {
                for k in 0..len.unwrap_or(0) {
                    let m = self.mark();
                    match items.get(k) {
                        Some(e) => self.into(Mem::Stack(base + k), e),
                        None => self.op2(Opcode::Xor, Mem::Stack(base + k), Mem::Stack(base + k)),
                    }
                    self.release(m);
                }
            }
            None => {}
        }
        // Bound after the initializer: `int x = x;` reads the outer `x`, as the checker resolved it.
        self.env.insert(id, Mem::Stack(base));
    }

    // ---- expressions ----

    /// A memory operand holding the value of `e` (a variable's own slot when possible).
    pub fn value(&mut self, e: &Expr) -> Mem {
        if let Some(k) = self.constant(e) {
            return self.konst(k);
        }
        match &e.kind {
            ExprKind::Var(_, Some(id)) => self.var_mem(*id),
            ExprKind::Index(_, Some(id), idx) if self.constant(idx).is_some() => {
                self.elem_mem(*id, self.constant(idx).unwrap_or(0))
            }
            _ => {
                let t = self.temp();
                self.into(t, e);
                t
            }
        }
    }

    fn is_simple(&self, e: &Expr) -> bool {
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
                if let Some(k) = self.constant(idx) {
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
                if self.is_var(a, dst) {
                    let r = self.value(b);
                    self.apply(dst, *op, r, e);
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
            ExprKind::Call(_, args, callee) => self.call_into(dst, callee.expect("checked"), args, e),
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

    fn is_var(&self, e: &Expr, m: Mem) -> bool {
        matches!(e.kind, ExprKind::Var(_, Some(id)) if self.var_mem(id) == m)
    }

    /// `dst ← 0 or 1` from a condition.
    fn boolean(&mut self, dst: Mem, e: &Expr) {
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
    fn effect(&mut self, e: &Expr) {
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
                self.inline(*f, args, ret);
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
    fn assign(&mut self, op: Option<BinOp>, lhs: &Expr, rhs: &Expr) -> Mem {
        let (id, idx) = match &lhs.kind {
            ExprKind::Var(_, Some(id)) => (*id, None),
            ExprKind::Index(_, Some(id), idx) => (*id, Some(idx.as_ref())),
            _ => return self.value(rhs),
        };
        let scalar = match idx {
            None => Some(self.var_mem(id)),
            Some(i) => self.constant(i).map(|k| self.elem_mem(id, k)),
        };
        if let Some(m) = scalar {
            match op {
                Some(op) => {
                    let r = self.value(rhs);
                    self.apply(m, op, r, rhs);
                }
                None if !self.touches(rhs, id) => self.into(m, rhs),
                None => match &rhs.kind {
                    ExprKind::Binary(op, a, b)
                        if !op.is_compare() && self.is_var(a, m) && idx.is_none() && !self.touches(b, id) =>
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
    fn incdec(&mut self, inc: bool, post: bool, target: &Expr, want: bool) -> Mem {
        let op = if inc { Opcode::Inc } else { Opcode::Dec };
        let (id, idx) = match &target.kind {
            ExprKind::Var(_, Some(id)) => (*id, None),
            ExprKind::Index(_, Some(id), idx) => (*id, Some(idx.as_ref())),
            _ => return self.konst(0),
        };
        let scalar = match idx {
            None => Some(self.var_mem(id)),
            Some(i) => self.constant(i).map(|k| self.elem_mem(id, k)),
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

    fn call_into(&mut self, dst: Mem, callee: Callee, args: &[Expr], e: &Expr) {
        match callee {
            Callee::User(f) => {
                // A stack slot cannot be seen by the callee; a global might be, so go through a temporary.
                if matches!(dst, Mem::Stack(_)) {
                    self.inline(f, args, Some(dst));
                } else {
                    let m = self.mark();
                    let t = self.temp();
                    self.inline(f, args, Some(t));
                    self.op2(Opcode::Mov, dst, t);
                    self.release(m);
                }
            }
            Callee::Builtin(b) => self.builtin_into(dst, b, args, e),
        }
    }

    /// Inlines a call: arguments into fresh parameter slots, then the body.
    fn inline(&mut self, f: usize, args: &[Expr], ret: Option<Mem>) {
        let func = &self.ck.unit.funcs[f];
        let m = self.mark();
        let saved_loc = self.loc;
        let mut bound = Vec::new();
        for (p, a) in func.params.iter().zip(args) {
            let id = p.id.expect("checked");
            // A constant argument to a parameter the callee never assigns is substituted.
            if let Some(k) = self.constant(a).filter(|_| !assigns(&func.body, id)) {
                bound.push((id, self.konst(k)));
                continue;
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
        self.rets.push((ret, exit));
        for s in &func.body {
            self.stmt(s);
        }
        self.rets.pop();
        self.loops = loops;
        self.place(exit);
        self.loc = saved_loc;
        self.release(m);
    }

    fn builtin_effect(&mut self, b: Builtin, args: &[Expr]) {
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

    fn builtin_into(&mut self, dst: Mem, b: Builtin, args: &[Expr], e: &Expr) {
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

    pub fn copy(&mut self, m: Mem) -> Mem {
        let t = self.temp();
        self.op2(Opcode::Mov, t, m);
        t
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
                self.rel_jump(x, y, rel, target);
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

/// Whether any statement assigns (or increments) variable `id`.
fn assigns(body: &[Stmt], id: VarId) -> bool {
    fn e_assigns(e: &Expr, id: VarId) -> bool {
        let target = |t: &Expr| matches!(t.kind, ExprKind::Var(_, Some(v)) if v == id);
        match &e.kind {
            ExprKind::Num(_) | ExprKind::Var(..) => false,
            ExprKind::Index(_, _, i) | ExprKind::Unary(_, i) => e_assigns(i, id),
            ExprKind::Call(_, args, _) => args.iter().any(|a| e_assigns(a, id)),
            ExprKind::Binary(_, a, b) => e_assigns(a, id) || e_assigns(b, id),
            ExprKind::Assign(_, a, b) => target(a) || e_assigns(a, id) || e_assigns(b, id),
            ExprKind::IncDec { target: t, .. } => target(t) || e_assigns(t, id),
            ExprKind::Cond(c, a, b) => e_assigns(c, id) || e_assigns(a, id) || e_assigns(b, id),
        }
    }
    fn s_assigns(s: &Stmt, id: VarId) -> bool {
        let opt = |e: &Option<Expr>| e.as_ref().is_some_and(|e| e_assigns(e, id));
        match s {
            Stmt::Decl(ds) => ds.iter().any(|d| match &d.init {
                Some(Init::Scalar(e)) => e_assigns(e, id),
                Some(Init::List(items, _)) => items.iter().any(|e| e_assigns(e, id)),
                None => false,
            }),
            Stmt::Expr(e) => e_assigns(e, id),
            Stmt::If(c, a, b) => e_assigns(c, id) || s_assigns(a, id) || b.as_ref().is_some_and(|b| s_assigns(b, id)),
            Stmt::While(c, b) | Stmt::DoWhile(b, c) => e_assigns(c, id) || s_assigns(b, id),
            Stmt::For { init, cond, step, body } => {
                init.as_ref().is_some_and(|i| s_assigns(i, id)) || opt(cond) || opt(step) || s_assigns(body, id)
            }
            Stmt::Return(e, _) => opt(e),
            Stmt::Block(b) => b.iter().any(|s| s_assigns(s, id)),
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Empty => false,
        }
    }
    body.iter().any(|s| s_assigns(s, id))
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
