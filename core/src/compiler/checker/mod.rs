//! Name resolution and semantic checks: every name is bound to a variable or
//! function, every expression gets a type (`int`, pointers, arrays), loops and
//! `switch`es enclose `break`, global data is constant and fits memory. The
//! result is a [`Resolved`] program: side tables keyed by node, and the call
//! graph (recursive functions are marked, not rejected).

mod expr;
mod init;
mod output;
mod storage;
mod structs;

pub use structs::Member;

use super::ast::*;
use super::resolved::{CallGraph, FnTy, Resolved, Ty, VarInfo};
use super::{fold, Sink};
use crate::config::Config;
use crate::ctypes::IntTy;
use crate::diag::{Diagnostic, Span};
use std::collections::{HashMap, HashSet};

/// The `switch` being checked: its case values so far and whether it has a `default`.
#[derive(Default)]
struct SwitchScope {
    values: HashMap<i64, u32>,
    default: Option<u32>,
}

struct Checker<'a> {
    cfg: Config,
    sink: &'a mut Sink,
    vars: Vec<VarInfo>,
    scopes: Vec<HashMap<String, VarId>>,
    funcs: HashMap<String, usize>,
    /// Each function's type (its signature).
    sigs: Vec<FnTy>,
    /// Functions whose address the program takes (their name used as a value).
    address_taken: Vec<bool>,
    /// Calls through a pointer: the call's node, the pointer's function type, the calling
    /// function and the call's span.
    indirect_calls: Vec<(NodeId, FnTy, usize, Span)>,
    /// Calls made by each function: (callee, span of the first call).
    calls: Vec<Vec<(usize, Span)>>,
    /// Globals each function names directly.
    globals: Vec<HashSet<VarId>>,
    /// Functions that read or write through a pointer themselves.
    derefs: Vec<bool>,
    exposed: HashSet<VarId>,
    current: usize,
    func_name: String,
    ret: Option<Ty>,
    loops: u32,
    switches: Vec<SwitchScope>,
    /// The current function's labels (where each is defined) and its `goto`s.
    labels: HashMap<String, Span>,
    gotos: Vec<(String, Span)>,
    data: Vec<i64>,
    names: HashMap<NodeId, VarId>,
    callees: HashMap<NodeId, Callee>,
    types: HashMap<NodeId, Ty>,
    strings: HashMap<NodeId, usize>,
    cases: HashMap<NodeId, i64>,
    sizes: HashMap<NodeId, i64>,
    inits: HashMap<NodeId, Vec<init::Word>>,
    struct_defs: Vec<StructDef>,
    layouts: HashMap<usize, structs::Layout>,
    member_offsets: HashMap<NodeId, usize>,
}

pub fn check(unit: Unit, cfg: Config, sink: &mut Sink) -> Option<Resolved> {
    let n = unit.funcs.len();
    let mut ck = Checker {
        cfg,
        sink,
        vars: Vec::new(),
        scopes: vec![HashMap::new()],
        funcs: HashMap::new(),
        sigs: Vec::new(),
        address_taken: vec![false; n],
        indirect_calls: Vec::new(),
        calls: vec![Vec::new(); n],
        globals: vec![HashSet::new(); n],
        derefs: vec![false; n],
        exposed: HashSet::new(),
        current: 0,
        func_name: String::new(),
        ret: None,
        loops: 0,
        switches: Vec::new(),
        labels: HashMap::new(),
        gotos: Vec::new(),
        // Slot 0 is NULL's: no object lives there, so no valid pointer compares equal to NULL.
        data: vec![0],
        names: HashMap::new(),
        callees: HashMap::new(),
        types: HashMap::new(),
        strings: HashMap::new(),
        cases: HashMap::new(),
        sizes: HashMap::new(),
        inits: HashMap::new(),
        struct_defs: unit.structs.clone(),
        layouts: HashMap::new(),
        member_offsets: HashMap::new(),
    };
    for (i, f) in unit.funcs.iter().enumerate() {
        let params = f.params.iter().map(|p| ck.param_type(p)).collect();
        let ret = f.ret.as_ref().map(|r| ck.scalar(r));
        ck.sigs.push(FnTy { params, ret });
        if Builtin::lookup(&f.name).is_some() {
            ck.sink.push(Diagnostic::error(f.span, format!("`{}` is a builtin and cannot be redefined", f.name)));
        } else if let Some(&prev) = ck.funcs.get(&f.name) {
            let first = unit.funcs[prev].span;
            ck.sink.push(
                Diagnostic::error(f.span, format!("function `{}` is defined twice", f.name))
                    .with_note(format!("first defined on line {}", first.line)),
            );
        } else {
            ck.funcs.insert(f.name.clone(), i);
        }
    }
    // After the functions: a global's initializer may name one (`binop ops[] = {add, sub};`).
    for g in &unit.globals {
        if storage::declares_only(g) {
            ck.extern_global(g, &unit.globals);
        } else {
            ck.global(g);
        }
    }
    for f in &unit.funcs {
        if ck.scopes[0].contains_key(&f.name) && ck.funcs.contains_key(&f.name) {
            ck.funcs.remove(&f.name);
            ck.sink.push(Diagnostic::error(f.span, format!("`{}` is already a global variable", f.name)));
        }
    }
    for (i, f) in unit.funcs.iter().enumerate() {
        ck.current = i;
        ck.function(f);
    }
    let main = match ck.funcs.get("main") {
        Some(&m) => {
            if !unit.funcs[m].params.is_empty() {
                ck.sink.push(Diagnostic::error(unit.funcs[m].span, "`main` must not take parameters"));
            }
            m
        }
        None if ck.sink.iter().any(Diagnostic::is_error) => return None,
        None => {
            ck.sink.push(
                Diagnostic::error(Span::new(1, 1, 2), "the program has no `main` function")
                    .with_hint("add `int main() { … }`: execution starts there"),
            );
            return None;
        }
    };
    let indirect = ck.indirect_targets(main);
    let structs = ck.struct_members();
    let calls = CallGraph::new(ck.calls, ck.globals, ck.derefs);
    for (f, func) in unit.funcs.iter().enumerate() {
        let sig = &ck.sigs[f];
        if calls.recursive[f] && (sig.params.iter().any(Ty::is_struct) || sig.ret.as_ref().is_some_and(Ty::is_struct)) {
            ck.sink.push(
                Diagnostic::error(
                    func.span,
                    format!("the recursive function `{}` passes a `struct` by value", func.name),
                )
                .with_note("a recursive call saves one word per parameter and result")
                .with_hint("pass a pointer: `struct NAME *p`, and use `p->member`"),
            );
        }
    }
    if calls.recursive[main] {
        let span = calls.callees.iter().flatten().find(|c| c.0 == main).map_or(unit.funcs[main].span, |c| c.1);
        ck.sink.push(
            Diagnostic::error(span, "`main` cannot be called")
                .with_note("`main` runs once, when the program starts; it is not recursive"),
        );
    }
    let Checker {
        sigs, vars, data, names, callees, types, strings, cases, sizes, exposed, inits, member_offsets, ..
    } = ck;
    let indirect = indirect.into_iter().collect();
    let members = member_offsets;
    Some(Resolved {
        unit,
        sigs,
        vars,
        main,
        data,
        calls,
        names,
        callees,
        types,
        strings,
        cases,
        sizes,
        indirect,
        members,
        exposed,
        inits,
        structs,
    })
}

impl Checker<'_> {
    /// The functions each call through a pointer may reach: those whose address is taken,
    /// of the pointer's type (`main` is never called). They join the call graph as callees
    /// of the calling function, so a cycle through a pointer is recursion.
    fn indirect_targets(&mut self, main: usize) -> Vec<(NodeId, Vec<usize>)> {
        let mut out = Vec::new();
        for (node, sig, caller, span) in std::mem::take(&mut self.indirect_calls) {
            let targets: Vec<usize> =
                (0..self.sigs.len()).filter(|&g| g != main && self.address_taken[g] && self.sigs[g] == sig).collect();
            for &g in &targets {
                if !self.calls[caller].iter().any(|c| c.0 == g) {
                    self.calls[caller].push((g, span));
                }
            }
            out.push((node, targets));
        }
        out
    }

    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.sink.push(Diagnostic::error(span, msg));
    }

    /// What constant folding reads: the types and sizes found so far.
    fn facts(&self) -> fold::Facts<'_> {
        fold::Facts { cfg: &self.cfg, types: &self.types, sizes: &self.sizes }
    }

    /// The value of `e`, when it is constant (`e` is checked already).
    fn fold(&self, e: &Expr) -> Option<i64> {
        fold::eval(self.facts(), e)
    }

    /// Checks `e`, which must be constant, and returns its value.
    fn const_value(&mut self, e: &Expr, what: &str) -> Option<i64> {
        let t = self.expr(e, true);
        if t.is_ptr() || t.is_array() {
            self.err(e.span, format!("{what} must be an integer, not `{}`", t.describe()));
            return None;
        }
        self.must_fold(e, what)
    }

    /// The value of `e` (checked already), or an error saying it must be constant.
    fn must_fold(&mut self, e: &Expr, what: &str) -> Option<i64> {
        let v = self.fold(e);
        if v.is_none() {
            self.sink.push(
                Diagnostic::error(e.span, format!("{what} must be a constant expression"))
                    .with_note("only numbers, `#define` names and operators on them are allowed here"),
            );
        }
        v
    }

    /// Whether an error was already reported inside `span` (on its line, within its columns).
    fn reported_within(&self, span: Span) -> bool {
        self.sink.iter().any(|d| {
            d.is_error() && d.span.line == span.line && d.span.col >= span.col && d.span.end_col <= span.end_col
        })
    }

    /// The length of one array dimension (`None` for `[]`).
    fn dim(&mut self, d: &VarDecl, e: &Option<Expr>) -> Option<usize> {
        let e = e.as_ref()?;
        let v = self.const_value(e, "an array size")?;
        if v <= 0 {
            // A size literal too wide for a word was reported where it was read
            // (and read as 0): one error, one cause.
            if !self.reported_within(e.span) {
                self.err(e.span, format!("the array `{}` must have a positive size, not {v}", d.name));
            }
            return Some(1);
        }
        let m = self.cfg.mem_slots as i64;
        if v > m {
            let mut d = Diagnostic::error(e.span, format!("the array `{}` needs {v} slots but memory has {m}", d.name));
            if let Some(c) = Config::smallest_fitting(0, v.min(1 << 20) as usize, self.cfg.word_bits) {
                d = d.with_hint(format!("the `{}` configuration has {} memory slots", c.name, c.mem_slots));
            }
            self.sink.push(d);
            return Some(1);
        }
        Some(v as usize)
    }

    /// The element type of a declaration: the base with its `*`s (the parser refused `void`).
    fn scalar(&mut self, spec: &TypeSpec) -> Ty {
        let base = match spec.base {
            Base::Int(t) => Ty::Int(t),
            Base::Void if spec.pointers > 0 => Ty::Void,
            Base::Void => Ty::Error,
            Base::Struct(id) => Ty::Struct(self.struct_ty(id)),
        };
        let ty = (0..spec.pointers).fold(base, |t, _| Ty::Ptr(Box::new(t)));
        let Some(f) = &spec.func else { return ty };
        let ret = match (spec.base, spec.pointers) {
            (Base::Void, 0) => None,
            _ => Some(ty),
        };
        let params = f.params.iter().map(|p| self.param_spec(p)).collect();
        (0..f.ptrs).fold(Ty::Func(Box::new(FnTy { params, ret })), |t, _| Ty::Ptr(Box::new(t)))
    }

    /// The type of a parameter of a function-pointer type (`int (*f)(int v[], int)`).
    fn param_spec(&mut self, spec: &TypeSpec) -> Ty {
        let d = VarDecl {
            id: NodeId::MAX,
            name: "this parameter".into(),
            span: crate::diag::Span::new(1, 1, 2),
            ty: spec.clone(),
            init: None,
            storage: None,
            konst: false,
        };
        self.param_type(&d)
    }

    /// The type a cast or `sizeof` names (`int[4]`, `char *`).
    pub(super) fn type_name(&mut self, spec: &TypeSpec) -> Ty {
        let d = VarDecl {
            id: NodeId::MAX,
            name: "this type".into(),
            span: crate::diag::Span::new(1, 1, 2),
            ty: spec.clone(),
            init: None,
            storage: None,
            konst: false,
        };
        let mut ty = self.scalar(spec);
        for e in spec.dims.iter().rev() {
            let n = self.dim(&d, e).unwrap_or(1);
            ty = Ty::Array(Box::new(ty), n);
        }
        ty
    }

    /// The type a declaration declares; an unsized first dimension takes its length from
    /// the initializer (`int a[] = {1, 2}`, `char s[] = "hi"`).
    fn decl_type(&mut self, d: &VarDecl) -> Ty {
        let mut ty = self.scalar(&d.ty);
        for (k, e) in d.ty.dims.iter().enumerate().rev() {
            let n = match self.dim(d, e) {
                Some(n) => n,
                None if k == 0 => match init::inferred_len(&ty, d.init.as_ref()) {
                    Some(n) => n,
                    None => {
                        self.err(d.span, format!("the array `{}` needs a size: `{}[10]`", d.name, d.name));
                        1
                    }
                },
                None => {
                    self.err(d.span, "only the first dimension of an array may be left out");
                    1
                }
            };
            ty = Ty::Array(Box::new(ty), n);
        }
        if ty.words() > self.cfg.mem_slots {
            let m = self.cfg.mem_slots;
            self.err(d.span, format!("the array `{}` needs {} slots but memory has {m}", d.name, ty.words()));
        }
        self.complete_object(&ty, d.span, &d.name);
        ty
    }

    /// A parameter's type: an array parameter is a pointer to its element (`int v[]` is `int *v`).
    fn param_type(&mut self, p: &VarDecl) -> Ty {
        let mut ty = self.scalar(&p.ty);
        for (k, e) in p.ty.dims.iter().enumerate().rev() {
            if k == 0 {
                ty = Ty::Ptr(Box::new(ty));
            } else {
                let n = self.dim(p, e).unwrap_or_else(|| {
                    self.err(p.span, "only the first dimension of an array parameter may be left out");
                    1
                });
                ty = Ty::Array(Box::new(ty), n);
            }
        }
        ty
    }

    fn declare(&mut self, d: &VarDecl, ty: Ty, global_slot: Option<usize>) -> VarId {
        let id = self.vars.len();
        if let Some(&prev) = self.scopes.last().and_then(|s| s.get(&d.name)) {
            let line = self.vars[prev].span.line;
            self.sink.push(
                Diagnostic::error(d.span, format!("`{}` is already declared in this scope", d.name))
                    .with_note(format!("the first declaration is on line {line}")),
            );
        }
        // A `static` local has a global's slot and its function's scope.
        let scope = if self.func_name.is_empty() { "global".to_string() } else { self.func_name.clone() };
        self.vars.push(VarInfo { name: d.name.clone(), span: d.span, ty, global_slot, scope, konst: d.konst });
        self.scopes.last_mut().expect("invariant: there is always a scope").insert(d.name.clone(), id);
        self.names.insert(d.id, id);
        id
    }

    fn global(&mut self, d: &VarDecl) {
        let ty = self.decl_type(d);
        let mut words = vec![0; ty.words()];
        if let Some(init) = &d.init {
            for (k, w) in self.flatten(d, &ty, init).into_iter().enumerate() {
                words[k] = match w {
                    init::Word::Zero => 0,
                    init::Word::Value(v) => v,
                    init::Word::Expr(e, elem) => self.global_word(&e, &elem),
                };
            }
        }
        // Placed after its initializer, whose string literals take slots of their own.
        let slot = self.data.len();
        self.data.extend(words);
        self.declare(d, ty, Some(slot));
    }

    /// A global's initial word: a constant converted to the element's type, or the address of
    /// a global (`int *p = &g;`).
    fn global_word(&mut self, e: &Expr, elem: &Ty) -> i64 {
        let t = self.expr(e, true);
        self.assignable(elem, &t, e, "this initializer");
        if let Some(v) = self.fold(e) {
            return elem.int().map_or(v, |to| to.convert(v, self.cfg.word_bits));
        }
        let addr = match &e.kind {
            ExprKind::Str(_) => self.strings.get(&e.id).copied(),
            ExprKind::Func(_) => self.fn_address(e),
            ExprKind::AddrOf(x) if matches!(x.kind, ExprKind::Func(_)) => self.fn_address(x),
            ExprKind::AddrOf(x) => self.static_address(x),
            ExprKind::Var(_) => self.static_address(e).filter(|_| self.global_is_array(e)),
            _ => None,
        };
        let what = if self.func_name.is_empty() { "a global initializer" } else { "a `static` local's initializer" };
        addr.map(|a| a as i64).unwrap_or_else(|| self.must_fold(e, what).unwrap_or(0))
    }

    /// A function pointer's value for a function's name (`ops[] = {add, &sub}`).
    fn fn_address(&self, e: &Expr) -> Option<usize> {
        match self.callees.get(&e.id) {
            Some(Callee::User(f)) => Some(super::resolved::fn_value(*f) as usize),
            _ => None,
        }
    }

    fn global_is_array(&self, e: &Expr) -> bool {
        let ExprKind::Var(name) = &e.kind else { return false };
        self.scopes[0].get(name).is_some_and(|&v| self.vars[v].ty.is_array())
    }

    /// The slot of a global named by `e` (`g`, `a[3]`), when known before the program runs.
    fn static_address(&mut self, e: &Expr) -> Option<usize> {
        match &e.kind {
            ExprKind::Var(name) => {
                let &v = self.scopes[0].get(name)?;
                self.types.insert(e.id, self.vars[v].ty.clone());
                self.names.insert(e.id, v);
                self.vars[v].global_slot
            }
            ExprKind::Index(b, i) => {
                let base = self.static_address(b)?;
                let elem = self.types.get(&b.id)?.pointee()?.clone();
                let k = self.fold(i)?;
                let len = match self.types.get(&b.id)? {
                    Ty::Array(_, n) => *n as i64,
                    _ => return None,
                };
                ((0..len).contains(&k)).then(|| base + k as usize * elem.words())
            }
            _ => None,
        }
    }

    fn function(&mut self, f: &Func) {
        self.scopes.push(HashMap::new());
        self.func_name = f.name.clone();
        self.ret = self.sigs[self.current].ret.clone();
        let params = self.sigs[self.current].params.clone();
        for (p, ty) in f.params.iter().zip(params) {
            self.declare(p, ty, None);
        }
        self.loops = 0;
        self.switches.clear();
        for s in &f.body {
            self.stmt(s);
        }
        self.scopes.pop();
        for (label, span) in std::mem::take(&mut self.gotos) {
            if !self.labels.contains_key(&label) {
                self.err(span, format!("the label `{label}` is not defined in `{}`", f.name));
            }
        }
        self.labels.clear();
    }

    fn local(&mut self, d: &VarDecl) {
        match d.storage {
            Some((Storage::Static, _)) => return self.global(d),
            Some((Storage::Extern, span)) => return self.extern_local(d, span),
            _ => {}
        }
        let ty = self.decl_type(d);
        // In scope from the end of its declarator (C11 6.2.1p7), so in its own initializer:
        // `struct node n = {1, &n};` points at itself, and `short s = f(s);` names the new `s`.
        self.declare(d, ty.clone(), None);
        if let (Some(Init::Scalar(e)), true) = (&d.init, ty.is_struct()) {
            // `struct point b = a;`: a copy, as an assignment makes (code generation copies).
            self.struct_source(&ty, e);
            self.inits.insert(d.id, Vec::new());
        } else if let Some(init) = &d.init {
            let words = self.flatten(d, &ty, init);
            for w in &words {
                if let init::Word::Expr(e, elem) = w {
                    let t = self.expr(e, true);
                    self.assignable(elem, &t, e, "this initializer");
                }
            }
            self.inits.insert(d.id, words);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Decl(ds) => ds.iter().for_each(|d| self.local(d)),
            Stmt::Expr(e) => {
                self.expr(e, false);
            }
            Stmt::If(c, a, b) => {
                self.condition(c);
                self.scoped(a);
                if let Some(b) = b {
                    self.scoped(b);
                }
            }
            Stmt::While(c, body) | Stmt::DoWhile(body, c) => {
                self.condition(c);
                self.loops += 1;
                self.scoped(body);
                self.loops -= 1;
            }
            Stmt::For { init, cond, step, body } => {
                self.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.condition(c);
                }
                if let Some(st) = step {
                    self.expr(st, false);
                }
                self.loops += 1;
                self.scoped(body);
                self.loops -= 1;
                self.scopes.pop();
            }
            Stmt::Switch(e, body) => self.switch(e, body),
            Stmt::Case(_, span) => {
                self.sink.push(
                    Diagnostic::error(*span, "a `case` or `default` label must be directly inside a `switch`")
                        .with_note("labels inside nested blocks or outside any `switch` are not supported"),
                );
            }
            Stmt::Break(span) if self.loops == 0 && self.switches.is_empty() => {
                self.err(*span, "`break` outside of a loop or `switch`")
            }
            Stmt::Continue(span) if self.loops == 0 => self.err(*span, "`continue` outside of a loop"),
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Empty => {}
            Stmt::Return(e, span) => self.ret(e.as_ref(), *span),
            Stmt::Goto(label, span) => self.gotos.push((label.clone(), *span)),
            Stmt::Labeled(label, span, s) => {
                if let Some(first) = self.labels.insert(label.clone(), *span) {
                    self.sink.push(
                        Diagnostic::error(*span, format!("the label `{label}` is defined twice"))
                            .with_note(format!("the first is on line {}", first.line)),
                    );
                }
                self.stmt(s);
            }
            Stmt::Block(b) => {
                self.scopes.push(HashMap::new());
                b.iter().for_each(|s| self.stmt(s));
                self.scopes.pop();
            }
        }
    }

    fn ret(&mut self, e: Option<&Expr>, span: Span) {
        let func = self.func_name.clone();
        match (e, self.ret.clone()) {
            (Some(e), Some(ret)) if ret.is_struct() => self.struct_source(&ret, e),
            (Some(e), Some(ret)) => {
                let t = self.expr(e, true);
                self.assignable(&ret, &t, e, "the returned value");
            }
            (Some(e), None) => {
                self.sink.push(
                    Diagnostic::error(e.span, format!("`{func}` is `void` and cannot return a value"))
                        .with_hint("declare it `int` or write `return;`"),
                );
            }
            (None, Some(ret)) if func != "main" => self.sink.push(
                Diagnostic::error(span, format!("`{func}` returns `{}`: `return` needs a value", ret.describe()))
                    .with_hint("write `return 0;` or declare the function `void`"),
            ),
            (None, _) => {}
        }
    }

    /// `switch (e) { case …: … }`: the labels sit directly in the body; their values are
    /// constants, each once.
    fn switch(&mut self, e: &Expr, body: &[Stmt]) {
        let t = self.rvalue(e);
        if t.is_ptr() {
            self.err(e.span, format!("`switch` needs an integer, not `{}`", t.describe()));
        }
        // Each label is converted to the promoted type of the value switched on.
        let promoted = t.int().unwrap_or(IntTy::Int).promoted(self.cfg.word_bits);
        self.switches.push(SwitchScope::default());
        self.scopes.push(HashMap::new());
        for s in body {
            match s {
                Stmt::Case(Some(k), span) => {
                    let Some(v) = self.const_value(k, "a `case` label") else { continue };
                    let v = promoted.convert(v, self.cfg.word_bits);
                    self.cases.insert(k.id, v);
                    let sw = self.switches.last_mut().expect("invariant: inside a switch");
                    if let Some(line) = sw.values.insert(v, span.line) {
                        self.sink.push(
                            Diagnostic::error(*span, format!("the value {v} already has a `case`"))
                                .with_note(format!("the first is on line {line}")),
                        );
                    }
                }
                Stmt::Case(None, span) => {
                    let sw = self.switches.last_mut().expect("invariant: inside a switch");
                    if let Some(line) = sw.default.replace(span.line) {
                        self.sink.push(
                            Diagnostic::error(*span, "this `switch` already has a `default`")
                                .with_note(format!("the first is on line {line}")),
                        );
                    }
                }
                s => self.stmt(s),
            }
        }
        self.scopes.pop();
        self.switches.pop();
    }

    fn scoped(&mut self, s: &Stmt) {
        self.scopes.push(HashMap::new());
        self.stmt(s);
        self.scopes.pop();
    }

    /// A condition: an `int` or a pointer (`while (p)`).
    fn condition(&mut self, c: &Expr) {
        let t = self.expr(c, true);
        if self.not_struct(&t, c) && t.is_array() {
            self.err(c.span, "an array is always true here: compare one of its elements");
        }
    }

    fn lookup(&mut self, name: &str, span: Span) -> Option<VarId> {
        if let Some(id) = self.scopes.iter().rev().find_map(|s| s.get(name).copied()) {
            return Some(id);
        }
        let mut d = Diagnostic::error(span, format!("undefined variable `{name}`"));
        d = if self.funcs.contains_key(name) || Builtin::lookup(name).is_some() {
            d.with_note(format!("`{name}` is a function: call it with `{name}(…)`"))
        } else {
            d.with_hint(format!("declare it first: `int {name};`"))
        };
        self.sink.push(d);
        None
    }
}
