//! Name resolution and semantic checks: every name is bound to a variable or
//! function, arrays and scalars are used as such, loops enclose `break`, the
//! call graph has no cycle, and global data is constant and fits memory.

use super::ast::*;
use super::{fold, Sink};
use crate::config::Config;
use crate::diag::{Diagnostic, Span};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub span: Span,
    /// `Some(len)` for arrays.
    pub len: Option<usize>,
    /// Memory slot of a global; locals are placed by code generation.
    pub global_slot: Option<usize>,
    /// `"global"` or the declaring function's name.
    pub scope: String,
}

pub struct Checked {
    pub unit: Unit,
    pub vars: Vec<VarInfo>,
    pub main: usize,
    /// Initial words of the globals, by slot.
    pub data: Vec<i64>,
}

struct Checker<'a> {
    cfg: Config,
    sink: &'a mut Sink,
    vars: Vec<VarInfo>,
    scopes: Vec<HashMap<String, VarId>>,
    funcs: HashMap<String, usize>,
    arity: Vec<(usize, bool)>,
    /// Calls made by each function: (callee, span of the first call).
    calls: Vec<Vec<(usize, Span)>>,
    current: usize,
    loops: u32,
    data: Vec<i64>,
}

pub fn check(mut unit: Unit, cfg: Config, sink: &mut Sink) -> Option<Checked> {
    let mut ck = Checker {
        cfg,
        sink,
        vars: Vec::new(),
        scopes: vec![HashMap::new()],
        funcs: HashMap::new(),
        arity: Vec::new(),
        calls: vec![Vec::new(); unit.funcs.len()],
        current: 0,
        loops: 0,
        data: Vec::new(),
    };
    for g in &mut unit.globals {
        ck.global(g);
    }
    for (i, f) in unit.funcs.iter().enumerate() {
        ck.arity.push((f.params.len(), f.returns_int));
        if Builtin::lookup(&f.name).is_some() {
            ck.sink.push(Diagnostic::error(f.span, format!("`{}` is a builtin and cannot be redefined", f.name)));
        } else if let Some(&prev) = ck.funcs.get(&f.name) {
            let first = unit.funcs[prev].span;
            ck.sink.push(
                Diagnostic::error(f.span, format!("function `{}` is defined twice", f.name))
                    .with_note(format!("first defined on line {}", first.line)),
            );
        } else if ck.scopes[0].contains_key(&f.name) {
            ck.sink.push(Diagnostic::error(f.span, format!("`{}` is already a global variable", f.name)));
        } else {
            ck.funcs.insert(f.name.clone(), i);
        }
    }
    for (i, f) in unit.funcs.iter_mut().enumerate() {
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
    ck.recursion(&unit);
    let Checker { vars, data, .. } = ck;
    Some(Checked { unit, vars, main, data })
}

impl Checker<'_> {
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.sink.push(Diagnostic::error(span, msg));
    }

    fn const_value(&mut self, e: &Expr, what: &str) -> Option<i64> {
        let v = fold::eval(&self.cfg, e);
        if v.is_none() {
            self.sink.push(
                Diagnostic::error(e.span, format!("{what} must be a constant expression"))
                    .with_note("only numbers, `#define` names and operators on them are allowed here"),
            );
        }
        v
    }

    fn array_len(&mut self, d: &VarDecl) -> Option<usize> {
        let e = d.len.as_ref()?;
        let v = self.const_value(e, "an array size")?;
        if v <= 0 {
            self.err(e.span, format!("the array `{}` must have a positive size, not {v}", d.name));
            return Some(1);
        }
        let m = self.cfg.mem_slots as i64;
        if v > m {
            let mut d = Diagnostic::error(e.span, format!("the array `{}` needs {v} slots but memory has {m}", d.name));
            if let Some(c) = Config::smallest_fitting(0, v as usize, self.cfg.word_bits) {
                d = d.with_hint(format!("the `{}` configuration has {} memory slots", c.name, c.mem_slots));
            }
            self.sink.push(d);
            return Some(1);
        }
        Some(v as usize)
    }

    fn declare(&mut self, d: &mut VarDecl, scope: String, global_slot: Option<usize>, len: Option<usize>) -> VarId {
        let id = self.vars.len();
        if let Some(&prev) = self.scopes.last().and_then(|s| s.get(&d.name)) {
            let line = self.vars[prev].span.line;
            self.sink.push(
                Diagnostic::error(d.span, format!("`{}` is already declared in this scope", d.name))
                    .with_note(format!("the first declaration is on line {line}")),
            );
        }
        self.vars.push(VarInfo { name: d.name.clone(), span: d.span, len, global_slot, scope });
        self.scopes.last_mut().expect("a scope").insert(d.name.clone(), id);
        d.id = Some(id);
        id
    }

    fn global(&mut self, d: &mut VarDecl) {
        let len = self.array_len(d);
        let slot = self.data.len();
        let words = len.unwrap_or(1);
        let mut init = vec![0; words];
        match (&d.init, len) {
            (Some(Init::Scalar(e)), None) => init[0] = self.const_value(e, "a global initializer").unwrap_or(0),
            (Some(Init::List(items, span)), Some(n)) => {
                if items.len() > n {
                    let msg = format!("{} initializers for `{}`, which has {n} elements", items.len(), d.name);
                    self.err(*span, msg);
                }
                for (k, e) in items.iter().enumerate().take(n) {
                    init[k] = self.const_value(e, "a global initializer").unwrap_or(0);
                }
            }
            (Some(Init::List(_, span)), None) => self.err(*span, format!("`{}` is not an array", d.name)),
            (Some(Init::Scalar(e)), Some(_)) => {
                self.err(e.span, format!("initialize the array `{}` with a list: `{{1, 2, 3}}`", d.name))
            }
            (None, _) => {}
        }
        self.data.extend(init);
        self.declare(d, "global".into(), Some(slot), len);
    }

    fn function(&mut self, f: &mut Func) {
        self.scopes.push(HashMap::new());
        for p in &mut f.params {
            self.declare(p, f.name.clone(), None, None);
        }
        self.loops = 0;
        let returns_int = f.returns_int;
        for s in &mut f.body {
            self.stmt(s, &f.name, returns_int);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &mut Stmt, func: &str, returns_int: bool) {
        match s {
            Stmt::Decl(ds) => {
                for d in ds {
                    let len = self.array_len(d);
                    match &mut d.init {
                        Some(Init::Scalar(e)) if len.is_none() => self.expr(e, true),
                        Some(Init::List(items, span)) if len.is_some() => {
                            if items.len() > len.unwrap_or(0) {
                                self.err(*span, format!("too many initializers for `{}`", d.name));
                            }
                            items.iter_mut().for_each(|e| self.expr(e, true));
                        }
                        Some(Init::Scalar(e)) => self.err(e.span, "initialize an array with a list: `{1, 2, 3}`"),
                        Some(Init::List(_, span)) => self.err(*span, format!("`{}` is not an array", d.name)),
                        None => {}
                    }
                    self.declare(d, func.to_string(), None, len);
                }
            }
            Stmt::Expr(e) => self.expr(e, false),
            Stmt::If(c, a, b) => {
                self.expr(c, true);
                self.scoped(a, func, returns_int);
                if let Some(b) = b {
                    self.scoped(b, func, returns_int);
                }
            }
            Stmt::While(c, body) | Stmt::DoWhile(body, c) => {
                self.expr(c, true);
                self.loops += 1;
                self.scoped(body, func, returns_int);
                self.loops -= 1;
            }
            Stmt::For { init, cond, step, body } => {
                self.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i, func, returns_int);
                }
                if let Some(c) = cond {
                    self.expr(c, true);
                }
                if let Some(st) = step {
                    self.expr(st, false);
                }
                self.loops += 1;
                self.scoped(body, func, returns_int);
                self.loops -= 1;
                self.scopes.pop();
            }
            Stmt::Break(span) if self.loops == 0 => self.err(*span, "`break` outside of a loop"),
            Stmt::Continue(span) if self.loops == 0 => self.err(*span, "`continue` outside of a loop"),
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Empty => {}
            Stmt::Return(e, span) => match (e, returns_int) {
                (Some(e), true) => self.expr(e, true),
                (Some(e), false) => {
                    self.sink.push(
                        Diagnostic::error(e.span, format!("`{func}` is `void` and cannot return a value"))
                            .with_hint("declare it `int` or write `return;`"),
                    );
                }
                (None, true) if func != "main" => self.sink.push(
                    Diagnostic::error(*span, format!("`{func}` returns `int`: `return` needs a value"))
                        .with_hint("write `return 0;` or declare the function `void`"),
                ),
                (None, _) => {}
            },
            Stmt::Block(b) => {
                self.scopes.push(HashMap::new());
                for s in b {
                    self.stmt(s, func, returns_int);
                }
                self.scopes.pop();
            }
        }
    }

    fn scoped(&mut self, s: &mut Stmt, func: &str, returns_int: bool) {
        self.scopes.push(HashMap::new());
        self.stmt(s, func, returns_int);
        self.scopes.pop();
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

    /// Resolves names in `e`; `value` says whether its result is used.
    fn expr(&mut self, e: &mut Expr, value: bool) {
        let span = e.span;
        match &mut e.kind {
            ExprKind::Num(_) => {}
            ExprKind::Var(name, id) => {
                *id = self.lookup(name, span);
                if let Some(v) = id.map(|i| &self.vars[i]) {
                    if v.len.is_some() {
                        let msg = format!("the array `{name}` cannot be used as a value");
                        let hint = format!("index it: `{name}[i]`");
                        self.sink.push(Diagnostic::error(span, msg).with_hint(hint));
                    }
                }
            }
            ExprKind::Index(name, id, idx) => {
                *id = self.lookup(name, span);
                self.expr(idx, true);
                if let Some(v) = id.map(|i| self.vars[i].clone()) {
                    match v.len {
                        None => self.sink.push(Diagnostic::error(span, format!("`{name}` is not an array")).with_note(
                            format!(
                                "`{name}` here is the {} declared on line {}",
                                if v.scope == "global" { "global" } else { "local" },
                                v.span.line
                            ),
                        )),
                        Some(len) => {
                            if let Some(k) = fold::eval(&self.cfg, idx).filter(|k| !(0..len as i64).contains(k)) {
                                let msg = format!("index {k} is out of bounds for `{name}`, which has {len} elements");
                                self.err(idx.span, msg);
                            }
                        }
                    }
                }
            }
            ExprKind::Call(name, args, callee) => {
                args.iter_mut().for_each(|a| self.expr(a, true));
                let (arity, returns) = if let Some(b) = Builtin::lookup(name) {
                    *callee = Some(Callee::Builtin(b));
                    (b.arity(), b.returns_value())
                } else if let Some(&f) = self.funcs.get(name.as_str()) {
                    *callee = Some(Callee::User(f));
                    if !self.calls[self.current].iter().any(|c| c.0 == f) {
                        self.calls[self.current].push((f, span));
                    }
                    self.arity[f]
                } else {
                    let mut d = Diagnostic::error(span, format!("undefined function `{name}`"));
                    if matches!(name.as_str(), "printf" | "puts" | "putchar" | "scanf" | "malloc" | "free" | "exit") {
                        d = d
                            .with_note("there is no C library: the builtins are abs, min, max, assert and frame")
                            .with_hint("keep results in global variables: the page shows them and can write them");
                    }
                    self.sink.push(d);
                    return;
                };
                if args.len() != arity {
                    let msg = format!("`{name}` takes {arity} argument(s) but {} were given", args.len());
                    self.err(span, msg);
                }
                if value && !returns {
                    self.err(span, format!("`{name}` returns no value"));
                }
            }
            ExprKind::Unary(_, x) => self.expr(x, true),
            ExprKind::Binary(op, a, b) => {
                self.expr(a, true);
                self.expr(b, true);
                if matches!(op, BinOp::Div | BinOp::Rem) && fold::eval(&self.cfg, b) == Some(0) {
                    self.sink.push(
                        Diagnostic::warning(b.span, "division by zero")
                            .with_note("reaching this stops the program with a \"division by zero\" fault"),
                    );
                }
            }
            ExprKind::Assign(_, lhs, rhs) => {
                self.lvalue(lhs);
                self.expr(rhs, true);
            }
            ExprKind::IncDec { target, .. } => self.lvalue(target),
            ExprKind::Cond(c, a, b) => {
                self.expr(c, true);
                self.expr(a, value);
                self.expr(b, value);
            }
        }
    }

    fn lvalue(&mut self, e: &mut Expr) {
        match e.kind {
            ExprKind::Var(..) | ExprKind::Index(..) => self.expr(e, true),
            _ => {
                self.sink.push(
                    Diagnostic::error(e.span, "this cannot be assigned to")
                        .with_note("only variables and array elements can be assigned"),
                );
                self.expr(e, true);
            }
        }
    }

    /// Calls are inlined, so a cycle in the call graph can never be compiled.
    fn recursion(&mut self, unit: &Unit) {
        let n = unit.funcs.len();
        let mut state = vec![0u8; n];
        let mut reported = vec![false; n];
        for start in 0..n {
            let mut path = Vec::new();
            self.visit(start, unit, &mut state, &mut path, &mut reported);
        }
    }

    fn visit(&mut self, f: usize, unit: &Unit, state: &mut [u8], path: &mut Vec<usize>, reported: &mut [bool]) {
        if state[f] == 2 {
            return;
        }
        state[f] = 1;
        path.push(f);
        for (g, span) in self.calls[f].clone() {
            if state[g] == 1 {
                let pos = path.iter().position(|&p| p == g).unwrap_or(0);
                let cycle: Vec<&str> = path[pos..].iter().chain([&g]).map(|&i| unit.funcs[i].name.as_str()).collect();
                if !reported[g] {
                    reported[g] = true;
                    self.sink.push(
                        Diagnostic::error(span, format!("recursion is not supported: {}", cycle.join(" → ")))
                            .with_note("every call is inlined, so a function cannot call itself, even indirectly")
                            .with_hint("rewrite the recursion as a loop"),
                    );
                }
            } else {
                self.visit(g, unit, state, path, reported);
            }
        }
        path.pop();
        state[f] = 2;
    }
}
