//! Lowering of the checked tree to instructions over symbolic operands
//! (variables, pooled constants, stack slots, labels); [`super::layout`]
//! later fixes addresses.
//!
//! Every call is inlined. Locals, parameters and temporaries live on a
//! compile-time stack: a callee's frame sits above its caller's live slots,
//! so frames of functions never live together share memory, and no callee
//! local aliases a caller variable. Results are built in place
//! (`dst op= operand`), which fits the machine's two-operand instructions.

mod arith;
mod calls;
mod expr;

use super::ast::*;
use super::checker::Checked;
use super::fold;
use crate::config::Config;
use crate::image::SrcLoc;
use crate::isa::Opcode;
use std::collections::{HashMap, HashSet};

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
    /// Code generation stopped early because the program is far larger than the machine.
    pub truncated: bool,
    pub stack_slots: usize,
    pub traps: Vec<(Label, String)>,
    pub frames: Vec<Label>,
    /// Locals and parameters with the stack slot of their first instance.
    pub locals: Vec<(VarId, usize)>,
}

/// Where an inlined function's `return` delivers its value.
#[derive(Clone, Copy)]
pub struct Ret {
    /// The caller's destination (`None` when the result is unused or the function is `void`).
    slot: Option<Mem>,
    exit: Label,
    /// The slot is a variable of the caller: the returned expression must not write it before
    /// it can no longer fault (see [`Gen::set_var`]).
    guard: bool,
}

pub struct Gen<'a> {
    cfg: Config,
    ck: &'a Checked,
    items: Vec<Item>,
    labels: usize,
    depth: usize,
    max_depth: usize,
    env: HashMap<VarId, Mem>,
    /// Innermost function being inlined: where its result goes and its exit.
    rets: Vec<Ret>,
    /// Innermost loops of the current function: (break, continue).
    loops: Vec<(Label, Label)>,
    traps: Vec<(Label, String, Option<SrcLoc>)>,
    frames: Vec<Label>,
    locals: Vec<(VarId, usize)>,
    loc: Option<SrcLoc>,
    /// Items beyond which generation stops (inlining can grow code exponentially).
    limit: usize,
    /// Value ranges known for some slots (counters of simple `for` loops), used to drop sign checks.
    ranges: HashMap<Mem, (i64, i64)>,
    /// Globals each function reads or writes, directly or through its calls.
    uses: Vec<HashSet<VarId>>,
    /// Temporaries holding comparison operands that are dead afterwards, so a test may consume them.
    consumable: Vec<Mem>,
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
        limit: 4 * cfg.instr_slots() + 1000,
        ranges: HashMap::new(),
        consumable: Vec::new(),
        uses: globals_used(ck),
    };
    let end = g.label();
    g.rets.push(Ret { slot: None, exit: end, guard: false });
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
    let truncated = g.items.len() > g.limit;
    Lowered { truncated, items: g.items, stack_slots: g.max_depth, traps, frames: g.frames, locals: g.locals }
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
        if self.items.len() > self.limit {
            return;
        }
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

    /// A constant index within the bounds of array `id`. Out-of-bounds constants that only
    /// appear after inlining (the checker rejects literal ones) go through a run-time pointer,
    /// like any computed index.
    fn const_index(&self, id: VarId, idx: &Expr) -> Option<i64> {
        let len = self.ck.vars[id].len.unwrap_or(1) as i64;
        self.constant(idx).filter(|k| (0..len).contains(k))
    }

    /// The global variable occupying memory slot `slot`.
    fn global_at(&self, slot: usize) -> Option<VarId> {
        self.ck.vars.iter().position(|v| v.global_slot.is_some_and(|s| (s..s + v.len.unwrap_or(1)).contains(&slot)))
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
                let callee_uses = match c {
                    Some(Callee::User(f)) => global && self.uses[*f].contains(&id),
                    _ => false,
                };
                callee_uses || args.iter().any(|a| self.touches(a, id))
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
                let ret = *self.rets.last().expect("invariant: a return is inside a function");
                let m = self.mark();
                match (e, ret.slot) {
                    (Some(e), Some(slot)) if ret.guard => self.set_var(slot, e),
                    (Some(e), Some(slot)) => self.into(slot, e),
                    (Some(e), None) => self.effect(e),
                    _ => {}
                }
                self.release(m);
                self.jump(Opcode::Jmp, None, ret.exit);
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
        let counter = self.counter(init, c, step, body);
        if let Some((m, lo, hi, _)) = counter {
            self.ranges.insert(m, (lo, hi));
        }
        let enters = counter.is_some_and(|k| k.3);
        if !do_while && !always && !enters {
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
        if let Some((m, ..)) = counter {
            self.ranges.remove(&m);
        }
    }

    /// Recognises `for (int i = A; i < B; i++)` (also `<=`, `i += s` with s > 0) whose body
    /// never assigns `i`: returns i's slot, the range it stays in while the loop runs,
    /// and whether the first test is known to pass.
    fn counter(
        &self,
        init: Option<&Stmt>,
        c: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> Option<(Mem, i64, i64, bool)> {
        let Some(Stmt::Decl(ds)) = init else { return None };
        let [d] = ds.as_slice() else { return None };
        let (id, Some(Init::Scalar(a))) = (d.id?, &d.init) else { return None };
        let a = self.constant(a)?;
        let ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le), x, b) = &c?.kind else { return None };
        let b = self.constant(b)?;
        let s = match &step?.kind {
            ExprKind::IncDec { inc: true, target, .. } if is_var_id(target, id) => 1,
            ExprKind::Assign(Some(BinOp::Add), target, s) if is_var_id(target, id) => self.constant(s)?,
            _ => return None,
        };
        let last = if *op == BinOp::Lt { b - 1 } else { b };
        let hi = a.max(last + s);
        let ok =
            is_var_id(x, id) && s > 0 && hi <= self.cfg.word_max() as i64 && !assigns(std::slice::from_ref(body), id);
        ok.then(|| (self.var_mem(id), a, hi, a <= last))
    }

    /// The range a memory operand's value is known to lie in.
    pub fn range(&self, m: Mem) -> Option<(i64, i64)> {
        match m {
            Mem::Const(k) => Some((k, k)),
            _ => self.ranges.get(&m).copied(),
        }
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

    pub fn copy(&mut self, m: Mem) -> Mem {
        let t = self.temp();
        self.op2(Opcode::Mov, t, m);
        t
    }
}

/// For each function, the globals it reads or writes, including through the functions it calls
/// (the call graph is acyclic: the checker rejects recursion).
fn globals_used(ck: &Checked) -> Vec<HashSet<VarId>> {
    fn expr(e: &Expr, ck: &Checked, out: &mut HashSet<VarId>, calls: &mut Vec<usize>) {
        let mut var = |v: &Option<VarId>| {
            if let Some(v) = v.filter(|&v| ck.vars[v].global_slot.is_some()) {
                out.insert(v);
            }
        };
        match &e.kind {
            ExprKind::Num(_) => {}
            ExprKind::Var(_, v) => var(v),
            ExprKind::Index(_, v, i) => {
                var(v);
                expr(i, ck, out, calls);
            }
            ExprKind::Call(_, args, c) => {
                if let Some(Callee::User(f)) = c {
                    calls.push(*f);
                }
                args.iter().for_each(|a| expr(a, ck, out, calls));
            }
            ExprKind::Unary(_, x) | ExprKind::IncDec { target: x, .. } => expr(x, ck, out, calls),
            ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
                expr(a, ck, out, calls);
                expr(b, ck, out, calls);
            }
            ExprKind::Cond(c, a, b) => [c, a, b].iter().for_each(|x| expr(x, ck, out, calls)),
        }
    }
    fn stmt(s: &Stmt, ck: &Checked, out: &mut HashSet<VarId>, calls: &mut Vec<usize>) {
        let mut exprs: Vec<&Expr> = Vec::new();
        let mut stmts: Vec<&Stmt> = Vec::new();
        match s {
            Stmt::Decl(ds) => {
                for d in ds {
                    match &d.init {
                        Some(Init::Scalar(x)) => exprs.push(x),
                        Some(Init::List(items, _)) => exprs.extend(items),
                        None => {}
                    }
                }
            }
            Stmt::Expr(x) | Stmt::Return(Some(x), _) => exprs.push(x),
            Stmt::If(c, a, b) => {
                exprs.push(c);
                stmts.push(a);
                stmts.extend(b.as_deref());
            }
            Stmt::While(c, b) | Stmt::DoWhile(b, c) => {
                exprs.push(c);
                stmts.push(b);
            }
            Stmt::For { init, cond, step, body } => {
                exprs.extend(cond.iter().chain(step.iter()));
                stmts.extend(init.as_deref());
                stmts.push(body);
            }
            Stmt::Block(b) => stmts.extend(b),
            Stmt::Return(None, _) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::Empty => {}
        }
        exprs.into_iter().for_each(|x| expr(x, ck, out, calls));
        stmts.into_iter().for_each(|x| stmt(x, ck, out, calls));
    }
    let funcs = &ck.unit.funcs;
    let direct: Vec<(HashSet<VarId>, Vec<usize>)> = funcs
        .iter()
        .map(|f| {
            let (mut out, mut calls) = (HashSet::new(), Vec::new());
            f.body.iter().for_each(|s| stmt(s, ck, &mut out, &mut calls));
            (out, calls)
        })
        .collect();
    (0..funcs.len())
        .map(|f| {
            let (mut all, mut todo, mut seen) = (HashSet::new(), vec![f], HashSet::new());
            while let Some(g) = todo.pop() {
                if seen.insert(g) {
                    all.extend(direct[g].0.iter().copied());
                    todo.extend(direct[g].1.iter().copied());
                }
            }
            all
        })
        .collect()
}

fn is_var_id(e: &Expr, id: VarId) -> bool {
    matches!(e.kind, ExprKind::Var(_, Some(v)) if v == id)
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
