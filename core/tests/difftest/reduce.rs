//! Shrinks a diverging program: greedily deletes statements, globals and
//! functions, unwraps compound statements and replaces expressions by a
//! child or a small literal, keeping each change that still diverges.

use super::program::*;

/// The smallest program reachable from `p` for which `diverges` still holds.
pub fn reduce(p: &Program, mut diverges: impl FnMut(&Program) -> bool) -> Program {
    let mut best = p.clone();
    loop {
        let before = best.clone();
        let mut n = 0;
        while let Some(c) = mutate(&best, n) {
            if c != best && diverges(&c) {
                best = c; // the same index now names the next site
            } else {
                n += 1;
            }
        }
        if best == before {
            return best;
        }
    }
}

/// The program with its `n`th possible change applied, or `None` past the last one.
fn mutate(p: &Program, n: usize) -> Option<Program> {
    let mut q = p.clone();
    let mut m = Mutator { target: n, seen: 0, done: false };
    let mut k = 0;
    while k < q.defines.len() && !m.done {
        if m.hit() {
            q.defines.remove(k);
        }
        k += 1;
    }
    let mut k = 0;
    while k < q.globals.len() && !m.done {
        if m.hit() {
            q.globals.remove(k);
        }
        k += 1;
    }
    let mut k = 0;
    while k + 1 < q.funcs.len() && !m.done {
        if m.hit() {
            q.funcs.remove(k);
        }
        k += 1;
    }
    for g in &mut q.globals {
        g.init.iter_mut().for_each(|e| m.expr(e));
    }
    for f in &mut q.funcs {
        m.stmts(&mut f.body);
    }
    m.done.then_some(q)
}

struct Mutator {
    target: usize,
    seen: usize,
    done: bool,
}

impl Mutator {
    fn hit(&mut self) -> bool {
        let h = !self.done && self.seen == self.target;
        self.seen += 1;
        self.done |= h;
        h
    }

    fn stmts(&mut self, v: &mut Vec<Stmt>) {
        let mut i = 0;
        while i < v.len() && !self.done {
            if self.hit() {
                v.remove(i);
                return;
            }
            for inner in unwraps(&v[i]) {
                if self.hit() {
                    v.splice(i..=i, inner);
                    return;
                }
            }
            self.stmt(&mut v[i]);
            i += 1;
        }
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match s {
            Stmt::Decl(locals) => locals.iter_mut().flat_map(|l| &mut l.init).for_each(|e| self.expr(e)),
            Stmt::Expr(e) | Stmt::Return(Some(e)) | Stmt::Assert(e) | Stmt::Putchar(e) => self.expr(e),
            Stmt::Printf(_, args) => args.iter_mut().for_each(|a| self.expr(a)),
            Stmt::Static(l) => l.init.iter_mut().for_each(|e| self.expr(e)),
            Stmt::Goto { cond, skipped, .. } => {
                self.expr(cond);
                self.stmts(skipped);
            }
            Stmt::If(c, a, b) => {
                self.expr(c);
                self.stmts(a);
                if let Some(b) = b {
                    if self.hit() {
                        *s = Stmt::If(c.clone(), a.clone(), None);
                        return;
                    }
                    self.stmts(b);
                }
            }
            Stmt::For { from, to, body, .. } => {
                self.expr(from);
                self.expr(to);
                self.stmts(body);
            }
            Stmt::While { cond, body, .. } => {
                self.expr(cond);
                self.stmts(body);
            }
            Stmt::Block(b) => self.stmts(b),
            Stmt::Switch(c, arms) => {
                self.expr(c);
                let mut k = 0;
                while k < arms.len() && !self.done {
                    if self.hit() {
                        arms.remove(k);
                        return;
                    }
                    self.stmts(&mut arms[k].body);
                    k += 1;
                }
            }
            Stmt::Break
            | Stmt::Continue
            | Stmt::Return(None)
            | Stmt::Frame
            | Stmt::Scan(_)
            | Stmt::GetChar(_)
            | Stmt::StructCopy { .. } => {}
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        if self.done {
            return;
        }
        for r in replacements(e) {
            if self.hit() {
                *e = r;
                return;
            }
        }
        match e {
            Expr::Num(..)
            | Expr::Macro(..)
            | Expr::Var(_)
            | Expr::Deref(_)
            | Expr::AddrOf(_)
            | Expr::Offset(..)
            | Expr::Lib(Lib::Strlen(_) | Lib::Atoi(_) | Lib::Strcmp(..)) => {}
            Expr::Index(_, i) | Expr::Lib(Lib::Ctype(_, i)) => self.expr(i),
            Expr::Call(_, args) | Expr::Builtin(_, args) => args.iter_mut().for_each(|a| self.expr(a)),
            Expr::Unary(_, a) | Expr::Paren(a) | Expr::Cast(_, a) => self.expr(a),
            Expr::IncDec { target, .. } => self.expr(target),
            Expr::Binary(_, a, b) | Expr::Assign(_, a, b) | Expr::Comma(a, b) | Expr::MacroCall(_, _, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            Expr::Cond(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
        }
    }
}

/// The statement lists a compound statement can be replaced by.
fn unwraps(s: &Stmt) -> Vec<Vec<Stmt>> {
    match s {
        Stmt::If(_, a, b) => [Some(a.clone()), b.clone()].into_iter().flatten().collect(),
        Stmt::Block(a) | Stmt::For { body: a, .. } | Stmt::While { body: a, .. } | Stmt::Goto { skipped: a, .. } => {
            vec![a.clone()]
        }
        Stmt::Switch(_, arms) => arms.iter().map(|a| a.body.clone()).collect(),
        _ => vec![],
    }
}

/// Simpler expressions to try instead of `e` (lvalues stay lvalues).
fn replacements(e: &Expr) -> Vec<Expr> {
    let zero = Expr::Num(0, Lit::Dec);
    let one = Expr::Num(1, Lit::Dec);
    match e {
        Expr::Num(0, Lit::Dec) => vec![],
        Expr::Num(1, Lit::Dec) => vec![zero],
        Expr::Num(v, _) | Expr::Macro(_, v) => vec![zero, one, Expr::Num(*v, Lit::Dec)],
        Expr::Var(_) | Expr::Index(..) | Expr::Deref(_) => vec![zero, one],
        Expr::AddrOf(_) | Expr::Offset(..) => vec![],
        Expr::Call(_, args) | Expr::Builtin(_, args) => [zero, one].into_iter().chain(args.iter().cloned()).collect(),
        Expr::Unary(_, a) | Expr::Paren(a) | Expr::Cast(_, a) => vec![zero, one, (**a).clone()],
        Expr::Binary(_, a, b) | Expr::Cond(_, a, b) | Expr::Comma(a, b) | Expr::MacroCall(_, _, a, b) => {
            vec![zero, one, (**a).clone(), (**b).clone()]
        }
        Expr::Lib(Lib::Ctype(_, a)) => vec![zero, one, (**a).clone()],
        Expr::Lib(_) => vec![zero, one],
        Expr::Assign(_, t, r) => vec![zero, (**r).clone(), Expr::Assign(None, t.clone(), r.clone()), (**t).clone()],
        Expr::IncDec { target, .. } => vec![zero, (**target).clone()],
    }
}
