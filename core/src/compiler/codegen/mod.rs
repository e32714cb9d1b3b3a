//! Lowering of the resolved program to instructions over symbolic operands
//! (variables, pooled constants, stack slots, registers, labels);
//! [`super::layout`] later fixes addresses.
//!
//! Calls to functions that do not recurse are inlined. Locals, parameters and
//! temporaries live on a compile-time stack: a callee's frame sits above its
//! caller's live slots, so frames of functions never live together share
//! memory, and no callee local aliases a caller variable. Results are built in
//! place (`dst op= operand`), which fits the machine's two-operand
//! instructions.
//!
//! Recursive functions (`outline`) are compiled once, above everything else on
//! the compile-time stack, and called through a run-time stack in memory: the
//! caller pushes its live frame and a return-site number, the callee ends with
//! a dispatch over the numbers of its call sites (the machine has no indirect
//! jump), and the caller pops its frame back.

mod arith;
mod calls;
mod debug;
mod expr;
mod input;
mod outline;
mod place;
mod print;
mod structs;
mod unsigned;

use super::ast::*;
use super::fold;
use super::resolved::{InitWord, Resolved, Ty};
use crate::config::Config;
use crate::ctypes::IntTy;
use crate::debuginfo::At;
use crate::diag::Diagnostic;
use crate::image::SrcLoc;
use crate::isa::Opcode;
pub use debug::{ctype, CallGen, Tracker};
use std::collections::HashMap;

pub type Label = usize;

/// A memory operand before layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mem {
    Global(usize),
    Stack(usize),
    /// A pooled constant (already wrapped to N bits).
    Const(i64),
    /// A pooled constant holding the slot index of stack slot `d` (the address of a local).
    StackAddr(usize),
    /// A pooled constant holding slot index `s` (the address of a global).
    GlobalAddr(usize),
    /// Word `i` of the frame of the recursive functions (their parameters), before the
    /// frame's base is known; becomes a `Stack` slot at the end of code generation.
    Frame(usize),
    /// A register of the run-time call stack.
    Reg(Reg),
    /// The console: the slot every printed character is written to (see `print`).
    Console,
    /// The input: the slot the host writes the next unread byte to before an instruction
    /// reads it; an instruction that writes it tells the host the byte is consumed (see `input`).
    Input,
    /// MULSTEP's operand pair: word 0 the multiplicand, word 1 the multiplier, in the two
    /// slots of one even/odd pair (`Config::partner`), placed by layout after the stack.
    Mul(usize),
    /// Parameter `i` of the number-printing routines, before their slots are known;
    /// becomes a `Stack` slot at the end of code generation (see `print`).
    Num(usize),
}

/// The registers recursive calls use (hidden compiler slots, placed by layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg {
    /// The run-time stack pointer: the slot the next push writes.
    Sp,
    /// Words still free on the run-time stack (a push that would make it negative overflows).
    Room,
    /// A recursive function's result.
    Ret,
    /// The return-site number a recursive function dispatches on.
    Site,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opd {
    Nil,
    M(Mem),
    L(Label),
}

#[derive(Clone, Debug)]
pub enum Item {
    Ins { op: Opcode, a: Opd, b: Opd, c: Opd, loc: Option<SrcLoc>, dbg: At },
    Label(Label),
}

/// What code generation hands to layout.
pub struct Lowered {
    pub items: Vec<Item>,
    /// Code generation stopped early because the program is far larger than the machine.
    pub truncated: bool,
    pub stack_slots: usize,
    /// Each trap's label, message, and the storage of the variable the statement it guards
    /// assigns (that variable keeps its old value: C performs no assignment that faults).
    pub traps: Vec<(Label, String, Option<Mem>)>,
    pub frames: Vec<Label>,
    /// Locals and parameters with the stack slot of their first instance.
    pub locals: Vec<(VarId, usize)>,
    /// Problems only code generation sees (the address of a recursive function's local).
    pub errors: Vec<Diagnostic>,
    /// Scopes, variables and return sites for the debugger (see `debug`).
    pub debug: Tracker,
}

/// Where an inlined function's `return` delivers its value.
#[derive(Clone)]
pub struct Ret {
    /// The caller's destination (`None` when the result is unused or the function is `void`).
    slot: Option<Mem>,
    exit: Label,
    /// The slot is a variable of the caller: the returned expression must not write it before
    /// it can no longer fault (see [`Gen::set_var`]).
    guard: bool,
    /// The function's result type (the returned value is converted to it).
    ty: Ty,
}

pub struct Gen<'a> {
    cfg: Config,
    /// Long divisions as a loop (4N + 1 steps, 5 instructions) instead of unrolled
    /// (2N steps, 2N instructions): the form a program takes when unrolled ones do not fit.
    looped: bool,
    r: &'a Resolved,
    items: Vec<Item>,
    labels: usize,
    depth: usize,
    max_depth: usize,
    env: HashMap<VarId, Mem>,
    /// Innermost function being inlined: where its result goes and its exit.
    rets: Vec<Ret>,
    /// The labels of the function being generated, by name: one set per inlined instance.
    gotos: Vec<HashMap<String, Label>>,
    /// Innermost loops and `switch`es of the current function: (break, continue); a
    /// `switch` has no `continue` of its own.
    loops: Vec<(Label, Option<Label>)>,
    traps: Vec<(Label, String, Option<SrcLoc>, Option<Mem>)>,
    /// The storage of the variables whose assignments are being generated, innermost last: a
    /// trap raised while computing a right side names the innermost as the one left unwritten.
    assigning: Vec<Mem>,
    frames: Vec<Label>,
    locals: Vec<(VarId, usize)>,
    loc: Option<SrcLoc>,
    /// Items beyond which generation stops (inlining can grow code exponentially).
    limit: usize,
    /// Value ranges known for some slots (counters of simple `for` loops), used to drop sign checks.
    ranges: HashMap<Mem, (i64, i64)>,
    /// Temporaries holding comparison operands that are dead afterwards, so a test may consume them.
    consumable: Vec<Mem>,
    /// Recursive functions: their entry labels and return sites (see `outline`).
    outline: outline::Outlined,
    /// Set while an inlined call that reaches no recursive function is generated (its
    /// arguments and body): the address of a recursive function's local may be lent to it,
    /// since no call saves and restores that local while the callee holds the address.
    lend_addresses: bool,
    /// The number-printing routines called so far (see `print`).
    printers: print::Routines,
    /// While a `sprintf` is generated: the slots holding the buffer's next slot and the
    /// characters it still takes (see `print`).
    out: Option<(Mem, Mem)>,
    errors: Vec<Diagnostic>,
    debug: debug::Tracker,
}

pub fn lower(r: &Resolved, cfg: Config, looped: bool) -> Lowered {
    let mut g = Gen {
        cfg,
        looped,
        r,
        items: Vec::new(),
        labels: 0,
        depth: 0,
        max_depth: 0,
        env: HashMap::new(),
        rets: Vec::new(),
        gotos: vec![HashMap::new()],
        loops: Vec::new(),
        traps: Vec::new(),
        assigning: Vec::new(),
        frames: Vec::new(),
        locals: Vec::new(),
        loc: None,
        limit: 4 * cfg.instr_slots() + 1000,
        ranges: HashMap::new(),
        consumable: Vec::new(),
        outline: outline::Outlined::default(),
        lend_addresses: false,
        printers: print::Routines::default(),
        out: None,
        errors: Vec::new(),
        debug: debug::Tracker::default(),
    };
    g.debug_main();
    let end = g.label();
    g.rets.push(Ret { slot: None, exit: end, guard: false, ty: Ty::INT });
    for s in &r.unit.funcs[r.main].body {
        g.stmt(s);
    }
    g.place(end);
    g.loc = None;
    g.emit(Opcode::Halt, Opd::Nil, Opd::Nil);
    g.outlined_bodies();
    g.print_routines();
    let traps = std::mem::take(&mut g.traps);
    let trap_ats = std::mem::take(&mut g.debug.traps);
    for ((l, _, loc, _), at) in traps.iter().zip(trap_ats) {
        g.place(*l);
        g.loc = *loc;
        g.items.push(Item::Ins { op: Opcode::Halt, a: Opd::Nil, b: Opd::Nil, c: Opd::Nil, loc: *loc, dbg: at });
    }
    let traps = traps.into_iter().map(|(l, msg, _, writes)| (l, msg, writes)).collect();
    let truncated = g.items.len() > g.limit;
    Lowered {
        truncated,
        items: g.items,
        stack_slots: g.max_depth,
        traps,
        frames: g.frames,
        locals: g.locals,
        errors: g.errors,
        debug: g.debug,
    }
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
        self.items.push(Item::Ins { op, a: Opd::Nil, b, c, loc: self.loc, dbg: self.debug.at() });
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
        let (a, b, c, loc, dbg) = (Opd::M(a), Opd::M(b), Opd::L(l), self.loc, self.debug.at());
        self.items.push(Item::Ins { op: Opcode::Subleq, a, b, c, loc, dbg });
    }

    pub fn konst(&self, v: i64) -> Mem {
        Mem::Const(self.cfg.wrap(v) as i64)
    }

    pub fn temp(&mut self) -> Mem {
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        Mem::Stack(self.depth - 1)
    }

    /// `n` consecutive fresh stack slots; returns the first.
    pub fn temps(&mut self, n: usize) -> usize {
        let base = self.depth;
        self.depth += n;
        self.max_depth = self.max_depth.max(self.depth);
        base
    }

    pub fn mark(&self) -> usize {
        self.depth
    }

    pub fn release(&mut self, mark: usize) {
        self.depth = mark;
    }

    /// A return-site dispatch (there is no indirect jump): `site` holds the number of the
    /// call site to go back to, counted down to zero against the sites in order; the last
    /// site needs no test.
    pub fn dispatch(&mut self, site: Mem, sites: &[Label]) {
        for (k, &l) in sites.iter().enumerate() {
            if k + 1 == sites.len() {
                self.jump(Opcode::Jmp, None, l);
            } else {
                self.op1(Opcode::Dec, site);
                self.jump(Opcode::Jz, Some(site), l);
            }
        }
    }

    /// A jump to a new trap instruction that stops the run with `message` at the current location.
    pub fn trap(&mut self, message: &str) -> Label {
        let l = self.label();
        self.traps.push((l, message.to_string(), self.loc, self.assigning.last().copied()));
        self.debug.traps.push(self.debug.at());
        l
    }

    /// Generates `body`, the code of an assignment to the variable stored at `target`: a trap
    /// it raises names that variable (see [`Lowered::traps`]).
    pub fn assigning<T>(&mut self, target: Mem, body: impl FnOnce(&mut Self) -> T) -> T {
        self.assigning.push(target);
        let out = body(self);
        self.assigning.pop();
        out
    }

    pub fn set_loc(&mut self, span: crate::diag::Span) {
        self.loc = Some(SrcLoc { line: span.line, col: span.col, end_col: span.end_col });
    }

    // ---- variables ----

    fn var_mem(&self, id: VarId) -> Mem {
        match self.r.vars[id].global_slot {
            Some(s) => Mem::Global(s),
            None => *self.env.get(&id).expect("invariant: a local is bound before it is used"),
        }
    }

    /// Whether evaluating `e` may read or write variable `id`: by name, through a pointer
    /// when its address is taken, or in a call that uses it.
    fn touches(&self, e: &Expr, id: VarId) -> bool {
        let global = self.r.vars[id].global_slot.is_some();
        let exposed = self.r.exposed.contains(&id);
        e.any(&mut |x| match &x.kind {
            ExprKind::Var(_) => self.r.var(x) == id,
            ExprKind::Deref(_) | ExprKind::Member { arrow: true, .. } => exposed,
            ExprKind::Index(b, _) => exposed && !self.r.ty(b).is_array(),
            ExprKind::Call(..) => match self.r.callee(x) {
                Callee::User(f) => {
                    (global && self.r.calls.globals_used[f].contains(&id))
                        || (exposed && self.r.calls.through_pointers[f])
                }
                Callee::Builtin(_) => false,
            },
            ExprKind::CallPtr(..) => self.r.candidates(x).iter().any(|&f| {
                (global && self.r.calls.globals_used[f].contains(&id)) || (exposed && self.r.calls.through_pointers[f])
            }),
            _ => false,
        })
    }

    fn constant(&self, e: &Expr) -> Option<i64> {
        let known = |x: &Expr| match self.env.get(&self.r.var(x)) {
            Some(Mem::Const(k)) => Some(*k),
            _ => None,
        };
        fold::eval_with(self.r.facts(&self.cfg), e, &known)
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
            Stmt::For { init, cond, step, body } => self.in_block(|g| {
                let m = g.mark();
                g.looped(init.as_deref(), cond.as_ref(), step.as_ref(), body, false);
                g.release(m);
            }),
            Stmt::Switch(e, body) => self.switch(e, body),
            Stmt::Case(..) => unreachable!("invariant: the checker keeps case labels directly in their switch"),
            Stmt::Break(span) => {
                self.set_loc(*span);
                let brk = self.loops.last().expect("invariant: the checker keeps break in a loop or switch").0;
                self.jump(Opcode::Jmp, None, brk);
            }
            Stmt::Continue(span) => {
                self.set_loc(*span);
                let cont = self.loops.iter().rev().find_map(|l| l.1);
                self.jump(Opcode::Jmp, None, cont.expect("invariant: the checker keeps continue in a loop"));
            }
            Stmt::Return(e, span) => {
                self.set_loc(*span);
                let ret = self.rets.last().expect("invariant: a return is inside a function").clone();
                let m = self.mark();
                match (e, ret.slot) {
                    (Some(e), Some(slot)) if ret.ty.is_struct() => {
                        let src = self.place_in(e, None);
                        self.copy_words(src, place::Place::Direct(slot), ret.ty.words());
                    }
                    (Some(e), Some(slot)) => {
                        if ret.guard {
                            self.set_var(slot, e);
                        } else {
                            self.into(slot, e);
                        }
                        self.convert(slot, self.r.ty(e), &ret.ty);
                    }
                    (Some(e), None) => self.effect(e),
                    _ => {}
                }
                self.release(m);
                self.jump(Opcode::Jmp, None, ret.exit);
            }
            Stmt::Block(b) => self.in_block(|g| {
                let m = g.mark();
                b.iter().for_each(|s| g.stmt(s));
                g.release(m);
            }),
            Stmt::Goto(label, span) => {
                self.set_loc(*span);
                let l = self.goto_label(label);
                self.jump(Opcode::Jmp, None, l);
            }
            Stmt::Labeled(label, _, s) => {
                let l = self.goto_label(label);
                self.place(l);
                self.stmt(s);
            }
            Stmt::Empty => {}
        }
    }

    /// The code label of a C label in the function instance being generated.
    fn goto_label(&mut self, name: &str) -> Label {
        if let Some(&l) = self.gotos.last().and_then(|m| m.get(name)) {
            return l;
        }
        let l = self.label();
        self.gotos.last_mut().expect("invariant: a function instance is being generated").insert(name.to_string(), l);
        l
    }

    fn scoped(&mut self, s: &Stmt) {
        let m = self.mark();
        self.stmt(s);
        self.release(m);
    }

    /// `switch`: the value is compared with each `case` in turn by subtracting the
    /// difference to the previous one (two instructions a case), then the body runs from
    /// the matching label; `break` leaves it, and cases fall through as in C.
    fn switch(&mut self, e: &Expr, body: &[Stmt]) {
        self.set_loc(e.span);
        let m = self.mark();
        let t = self.temp();
        self.into(t, e);
        let end = self.label();
        let mut default = None;
        let mut labels = Vec::new();
        let mut prev = 0;
        for s in body {
            if let Stmt::Case(k, _) = s {
                let l = self.label();
                labels.push(l);
                match k {
                    Some(k) => {
                        let v = self.r.case_value(k);
                        if v != prev {
                            self.op2(Opcode::Sub, t, self.konst(v - prev));
                        }
                        self.jump(Opcode::Jz, Some(t), l);
                        prev = v;
                    }
                    None => default = Some(l),
                }
            }
        }
        self.jump(Opcode::Jmp, None, default.unwrap_or(end));
        self.loops.push((end, None));
        let mut labels = labels.into_iter();
        for s in body {
            match s {
                Stmt::Case(..) => self.place(labels.next().expect("invariant: one label per case")),
                s => self.stmt(s),
            }
        }
        self.loops.pop();
        self.place(end);
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
        self.loops.push((brk, Some(cont)));
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
    /// never assigns `i` (by name, or through a pointer: its address is never taken):
    /// returns i's slot, the range it stays in while the loop runs, and whether the first
    /// test is known to pass.
    fn counter(
        &self,
        init: Option<&Stmt>,
        c: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> Option<(Mem, i64, i64, bool)> {
        let Some(Stmt::Decl(ds)) = init else { return None };
        let [d] = ds.as_slice() else { return None };
        let Some(Init::Scalar(a)) = &d.init else { return None };
        let id = self.r.decl(d);
        let t = self.r.vars[id].ty.int()?;
        if self.r.exposed.contains(&id) {
            return None;
        }
        let a = self.constant(a)?;
        let ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le), x, bound) = &c?.kind else { return None };
        // Compared as signed numbers, the counter staying within its type's range.
        let word = self.cfg.word_bits;
        if !IntTy::common(t, self.r.ty(bound).int()?, word).signed() {
            return None;
        }
        let b = self.constant(bound)?;
        let s = match &step?.kind {
            ExprKind::IncDec { inc: true, target, .. } if self.is_var_id(target, id) => 1,
            ExprKind::Assign(Some(BinOp::Add), target, s) if self.is_var_id(target, id) => self.constant(s)?,
            _ => return None,
        };
        let last = if *op == BinOp::Lt { b - 1 } else { b };
        let hi = a.max(last + s);
        let ok = self.is_var_id(x, id) && s > 0 && hi <= t.range(word).1 && !self.assigns(body, id);
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
        if matches!(d.storage, Some((Storage::Static | Storage::Extern, _))) {
            return; // a global slot, initialised before the program starts
        }
        let id = self.r.decl(d);
        let base = self.temps(self.r.vars[id].ty.words());
        if !self.locals.iter().any(|l| l.0 == id) {
            self.locals.push((id, base));
        }
        self.set_loc(d.span);
        // Bound before its initializer, as the checker resolved it (in scope from its declarator).
        self.env.insert(id, Mem::Stack(base));
        if let (Some(Init::Scalar(e)), Ty::Struct(s)) = (&d.init, &self.r.vars[id].ty) {
            // `struct point b = a;` copies `a`.
            let m = self.mark();
            let src = self.place_in(e, None);
            self.copy_words(src, place::Place::Direct(Mem::Stack(base)), s.words);
            self.release(m);
        } else if d.init.is_some() {
            // An initializer's fault leaves the new variable indeterminate, as C allows:
            // the words are computed in place.
            self.assigning(Mem::Stack(base), |g| {
                for (k, w) in g.r.init_words(d).iter().enumerate() {
                    let m = g.mark();
                    let slot = Mem::Stack(base + k);
                    match w {
                        InitWord::Zero => g.op2(Opcode::Xor, slot, slot),
                        InitWord::Value(v) => g.op2(Opcode::Mov, slot, g.konst(*v)),
                        InitWord::Expr(e, elem) => {
                            g.into(slot, e);
                            g.convert(slot, g.r.ty(e), elem);
                        }
                    }
                    g.release(m);
                }
            });
        }
        self.debug_var(id, Mem::Stack(base));
    }

    pub fn copy(&mut self, m: Mem) -> Mem {
        let t = self.temp();
        self.op2(Opcode::Mov, t, m);
        t
    }

    fn is_var_id(&self, e: &Expr, id: VarId) -> bool {
        self.r.var_of(e) == Some(id)
    }

    /// Whether a statement assigns (or increments) variable `id` by name.
    fn assigns(&self, s: &Stmt, id: VarId) -> bool {
        s.any_expr(&mut |e| match &e.kind {
            ExprKind::Assign(_, t, _) | ExprKind::IncDec { target: t, .. } => self.is_var_id(t, id),
            _ => false,
        })
    }

    /// Whether a function's body assigns its parameter `id` by name.
    fn body_assigns(&self, body: &[Stmt], id: VarId) -> bool {
        body.iter().any(|s| self.assigns(s, id))
    }
}
