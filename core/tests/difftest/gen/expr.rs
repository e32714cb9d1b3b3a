//! Expressions: operands, operators, calls and assignment targets, each kept
//! within the footprint rules of `scope` and the budgets of the generator.

use super::super::program::*;
use super::super::scope::*;
use super::{root, Cx, Faults, Gen, Target, MAX_MULT, MAX_SIZE};

impl Gen {
    pub(super) fn cx(&mut self) -> Cx {
        let mode = if self.rng.chance(1, 2) { Mode::Pure } else { Mode::Effects };
        Cx { fp: Footprint::new(self.aliases.clone()), mode, faults: Faults::None }
    }

    pub(super) fn full_expr(&mut self) -> Expr {
        let mut cx = self.cx();
        let depth = 1 + self.rng.below(4) as u32;
        self.expr(&mut cx, depth)
    }

    /// `t = …` or `t op= …` for an already claimed target.
    pub(super) fn assignment(&mut self, cx: &mut Cx, t: Expr, compound: bool, depth: u32) -> Expr {
        let (op, rhs) = if compound {
            let op = self.rng.pick(&BinOp::COMPOUND);
            let rhs = match op {
                BinOp::Div | BinOp::Rem => self.divisor(cx, depth),
                BinOp::Shl | BinOp::Shr => self.shift_count(cx, depth),
                _ => self.expr(cx, depth),
            };
            (Some(op), rhs)
        } else if self.rng.chance(1, 5) {
            // `t = f(…)`: f's body may write `t` (the store comes after the call).
            let call = self.call(cx, depth, false);
            (None, call.unwrap_or_else(|| self.expr(cx, depth)))
        } else {
            (None, self.expr(cx, depth))
        };
        Expr::Assign(op, Box::new(t), Box::new(rhs))
    }

    pub(super) fn incdec(&mut self, t: Expr) -> Expr {
        Expr::IncDec { inc: self.rng.chance(1, 2), post: self.rng.chance(1, 2), target: Box::new(t) }
    }

    /// A writable variable the footprint allows as a target of this kind.
    pub(super) fn pick_target(&mut self, cx: &Cx, kind: Target) -> Option<(String, Option<usize>)> {
        let fp = &cx.fp;
        let ok: Vec<(String, Option<usize>)> = self
            .scopes
            .visible()
            .iter()
            .filter(|v| v.writable && if kind == Target::Plain { fp.can_read(&v.name) } else { fp.can_write(&v.name) })
            .map(|v| (v.name.clone(), v.len))
            .collect();
        (!ok.is_empty()).then(|| ok[self.rng.below(ok.len())].clone())
    }

    /// Records the write (and the read, for `op=` and `++`) and writes the index of an element.
    pub(super) fn claim_target(&mut self, cx: &mut Cx, name: String, len: Option<usize>, kind: Target) -> Expr {
        self.touch(&name, true);
        if kind == Target::ReadWrite {
            cx.fp.read(&name);
            self.touch(&name, false);
        }
        cx.fp.reserve(&name);
        match len {
            None if self.scopes.lookup(&name).is_some_and(|v| v.deref) => Expr::Deref(name),
            None => Expr::Var(name),
            Some(len) => {
                let i = self.index(cx, len, 2);
                Expr::Index(name, Box::new(i))
            }
        }
    }

    pub(super) fn target(&mut self, cx: &mut Cx, kind: Target) -> Option<Expr> {
        let (name, len) = self.pick_target(cx, kind)?;
        Some(self.claim_target(cx, name, len, kind))
    }

    pub(super) fn is_global(&self, name: &str) -> bool {
        self.scopes.lookup(name).is_some_and(|v| v.global)
    }

    /// Records that the current function reads or writes `name` if it is a global.
    pub(super) fn touch(&mut self, name: &str, write: bool) {
        if self.is_global(name) {
            let set = if write { &mut self.cur.writes } else { &mut self.cur.reads };
            set.insert(name.to_string());
        }
    }

    pub(super) fn expr(&mut self, cx: &mut Cx, depth: u32) -> Expr {
        self.cur.size += 1;
        if depth == 0 || self.rng.chance(1, 4) {
            return self.leaf(cx, depth);
        }
        let d = depth - 1;
        if self.features.library && self.rng.chance(1, 24) {
            return self.lib_call(cx, d);
        }
        let effects = cx.mode == Mode::Effects;
        match self.rng.below(20) {
            10..=11 => {
                let x = self.expr(cx, d);
                self.unary(x)
            }
            12 => {
                let c = self.expr(cx, d);
                let a = self.expr(cx, d);
                Expr::Cond(Box::new(c), Box::new(a), Box::new(self.expr(cx, d)))
            }
            13 => match self.rng.pick(&[Builtin::Abs, Builtin::Min, Builtin::Max]) {
                Builtin::Abs => {
                    let x = self.expr(cx, d);
                    Expr::Builtin(Builtin::Abs, vec![self.int_arg(x)])
                }
                b => {
                    let x = self.expr(cx, d);
                    let y = self.expr(cx, d);
                    Expr::Builtin(b, vec![self.int_arg(x), self.int_arg(y)])
                }
            },
            14..=15 => self.call(cx, d, false).unwrap_or_else(|| self.binary(cx, d)),
            16 if effects => match self.target(cx, Target::Nested) {
                Some(t) => {
                    let name = root(&t).to_string();
                    let compound = self.rng.chance(1, 3);
                    if compound {
                        cx.fp.read(&name);
                        self.touch(&name, false);
                    }
                    let e = self.assignment(cx, t, compound, d);
                    cx.fp.write(&name);
                    e
                }
                None => self.binary(cx, d),
            },
            17 if effects => match self.target(cx, Target::Nested) {
                Some(t) => {
                    let name = root(&t).to_string();
                    cx.fp.write(&name);
                    self.touch(&name, false);
                    self.incdec(t)
                }
                None => self.binary(cx, d),
            },
            18 if self.features.comma && self.rng.chance(1, 3) => {
                let a = self.expr(cx, d);
                Expr::Comma(Box::new(a), Box::new(self.expr(cx, d)))
            }
            18 => Expr::Paren(Box::new(self.expr(cx, d))),
            19 if self.typed() => {
                let t = self.rng.pick(&CTy::ALL);
                Expr::Cast(t, Box::new(self.expr(cx, d)))
            }
            _ => self.binary(cx, d),
        }
    }

    /// A call of the library: `<ctype.h>` on any word, and on 32-bit words (where
    /// `char` is C's) `strlen`, `atoi` and `strcmp` of the read-only strings.
    fn lib_call(&mut self, cx: &mut Cx, d: u32) -> Expr {
        // A local may shadow a string's name.
        let strings: Vec<String> = (self.strings.iter())
            .filter(|s| self.scopes.lookup(s).is_some_and(|v| v.global && v.len.is_some()))
            .cloned()
            .collect();
        if self.typed() && !strings.is_empty() && self.rng.chance(1, 2) {
            let mut string = |g: &mut Gen| {
                let s = strings[g.rng.below(strings.len())].clone();
                cx.fp.read(&s);
                g.touch(&s, false);
                s
            };
            return Expr::Lib(match self.rng.below(3) {
                0 => Lib::Strlen(string(self)),
                1 => Lib::Atoi(string(self)),
                _ => {
                    let (s, t) = (string(self), string(self));
                    Lib::Strcmp(s, t, self.rng.pick(&[BinOp::Lt, BinOp::Gt, BinOp::Eq]))
                }
            });
        }
        let f = self.rng.pick(&Lib::CTYPE);
        Expr::Lib(Lib::Ctype(f, Box::new(self.expr(cx, d))))
    }

    /// A builtin's argument: `abs`, `min` and `max` take `int`s (gcc's helpers do),
    /// so on typed programs each argument is cast to one.
    fn int_arg(&self, x: Expr) -> Expr {
        if self.typed() {
            Expr::Cast(CTy::Int, Box::new(x))
        } else {
            x
        }
    }

    pub(super) fn unary(&mut self, x: Expr) -> Expr {
        let op = self.rng.pick(&[UnOp::Neg, UnOp::Neg, UnOp::Not, UnOp::BitNot, UnOp::Plus]);
        Expr::Unary(op, Box::new(x))
    }

    /// A constant expression (a global's initializer): literals, `#define`s and
    /// operators, with divisors and shift counts that are always defined.
    pub(super) fn const_expr(&mut self, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(1, 3) {
            return self.literal();
        }
        let d = depth - 1;
        match self.rng.below(8) {
            0 => {
                let x = self.const_expr(d);
                self.unary(x)
            }
            1 => {
                let (c, a) = (self.const_expr(d), self.const_expr(d));
                Expr::Cond(Box::new(c), Box::new(a), Box::new(self.const_expr(d)))
            }
            _ => {
                let op = self.rng.pick(&BinOp::ALL);
                let a = self.const_expr(d);
                let b = self.const_expr(d);
                let b = match op {
                    BinOp::Div | BinOp::Rem => Expr::Binary(BinOp::Or, Box::new(b), Box::new(Expr::Num(1, Lit::Dec))),
                    BinOp::Shl | BinOp::Shr => {
                        Expr::Binary(BinOp::And, Box::new(b), Box::new(Expr::Num(self.bits as i64 - 1, Lit::Dec)))
                    }
                    _ => b,
                };
                Expr::Binary(op, Box::new(a), Box::new(b))
            }
        }
    }

    pub(super) fn binary(&mut self, cx: &mut Cx, d: u32) -> Expr {
        let op = self.rng.pick(&BinOp::ALL);
        let a = self.expr(cx, d);
        let b = match op {
            BinOp::Div | BinOp::Rem => self.divisor(cx, d),
            BinOp::Shl | BinOp::Shr => self.shift_count(cx, d),
            _ => self.expr(cx, d),
        };
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    /// A divisor: never zero where a fault could interleave with side effects.
    pub(super) fn divisor(&mut self, cx: &mut Cx, d: u32) -> Expr {
        let risky = cx.mode == Mode::Pure && cx.faults != Faults::Call;
        match self.rng.below(10) {
            0..=3 => {
                let v = self.value();
                Expr::Num(if v == 0 { 3 } else { v }, Lit::Dec)
            }
            4 if risky && self.rng.chance(1, 4) => {
                self.cur.may_fault = true;
                cx.faults = Faults::Divisions;
                Expr::Num(0, Lit::Dec)
            }
            5..=6 if risky => {
                self.cur.may_fault = true;
                cx.faults = Faults::Divisions;
                self.expr(cx, d)
            }
            _ => {
                let e = self.expr(cx, d);
                Expr::Binary(BinOp::Or, Box::new(e), Box::new(Expr::Num(1, Lit::Dec)))
            }
        }
    }

    /// A shift count in `0..N` (C leaves larger and negative counts undefined).
    pub(super) fn shift_count(&mut self, cx: &mut Cx, d: u32) -> Expr {
        let mask = self.bits as i64 - 1;
        if self.rng.chance(1, 2) {
            return Expr::Num(self.rng.range(0, mask), Lit::Dec);
        }
        let e = self.expr(cx, d);
        Expr::Binary(BinOp::And, Box::new(e), Box::new(Expr::Num(mask, Lit::Dec)))
    }

    /// A call the footprint, the mode and the budgets allow. `stmt`: a whole
    /// statement (any function: its arguments are done before its body runs).
    pub(super) fn call(&mut self, cx: &mut Cx, d: u32, stmt: bool) -> Option<Expr> {
        let ok: Vec<usize> = (0..self.funcs.len())
            .filter(|&k| {
                let f = &self.funcs[k];
                // In an expression: an int function taking ints (pointer arguments only in statements).
                (stmt || f.returns_int && f.params.iter().all(|k| *k == Kind::Int))
                    && self.mult * f.mult <= MAX_MULT
                    && self.cur.size + f.size <= MAX_SIZE
                    && (stmt
                        || match cx.mode {
                            Mode::Pure => f.writes.is_empty() && (!f.may_fault || cx.faults == Faults::None),
                            Mode::Effects => !f.may_fault,
                        })
                    && (stmt || cx.fp.can_call(f))
            })
            .collect();
        if ok.is_empty() {
            return None;
        }
        let f = self.funcs[ok[self.rng.below(ok.len())]].clone();
        // Pointers and arrays to pass (writable ones: a callee may write through them).
        let mut pointees = Vec::new();
        for k in &f.params {
            let found = self.pointee(*k)?;
            pointees.push(found);
        }
        if !stmt {
            cx.fp.call(&f);
        }
        let args = (0..f.params.len())
            .map(|k| {
                if let Some(p) = pointees[k].take() {
                    return p;
                }
                if f.recursive && k == 0 {
                    // The depth: a literal or anything masked into 0..=3.
                    if self.rng.chance(1, 2) {
                        return Expr::Num(self.rng.range(0, 3), Lit::Dec);
                    }
                    let e = self.expr(cx, d);
                    return Expr::Binary(BinOp::And, Box::new(e), Box::new(Expr::Num(3, Lit::Dec)));
                }
                self.expr(cx, d)
            })
            .collect();
        self.cur.reads.extend(f.reads.iter().cloned());
        self.cur.writes.extend(f.writes.iter().cloned());
        self.cur.may_fault |= f.may_fault;
        if f.may_fault && !stmt {
            cx.faults = Faults::Call;
        }
        self.cur.mult = self.cur.mult.max(self.mult * f.mult);
        self.cur.size += f.size;
        Some(Expr::Call(f.name, args))
    }

    /// An argument for a parameter of kind `k`: `Some(None)` for an `int`
    /// (written by the caller), `None` if nothing in scope fits.
    fn pointee(&mut self, k: Kind) -> Option<Option<Expr>> {
        let fits = |v: &&&Var| {
            v.writable
                && !v.deref
                && v.ty == CTy::Int
                && match k {
                    Kind::Int => false,
                    Kind::Pointer => v.len.is_none(),
                    // A member of an array of structures (`a[].m`) is no array to pass.
                    Kind::Array(n) => v.len.is_some_and(|len| len >= n) && !v.name.contains("[]"),
                }
        };
        if k == Kind::Int {
            return Some(None);
        }
        let ok: Vec<(String, Option<usize>)> =
            self.scopes.visible().iter().filter(fits).map(|v| (v.name.clone(), v.len)).collect();
        if ok.is_empty() {
            return None;
        }
        let (name, len) = ok[self.rng.below(ok.len())].clone();
        self.touch(&name, true);
        self.touch(&name, false);
        Some(Some(match (k, len) {
            (Kind::Array(n), Some(len)) if len > n && self.rng.chance(1, 2) => {
                Expr::Offset(name, self.rng.range(1, (len - n) as i64) as usize)
            }
            (Kind::Array(_), _) => Expr::Var(name),
            _ => Expr::AddrOf(name),
        }))
    }

    pub(super) fn leaf(&mut self, cx: &mut Cx, depth: u32) -> Expr {
        let want_array = self.rng.chance(1, 4);
        let vars: Vec<(String, Option<usize>, bool)> = self
            .scopes
            .visible()
            .iter()
            .filter(|v| v.len.is_some() == want_array && cx.fp.can_read(&v.name))
            .map(|v| (v.name.clone(), v.len, v.deref))
            .collect();
        if vars.is_empty() || self.rng.chance(1, 3) {
            return self.literal();
        }
        let (name, len, deref) = vars[self.rng.below(vars.len())].clone();
        cx.fp.read(&name);
        self.touch(&name, false);
        match len {
            None if deref => Expr::Deref(name),
            None => Expr::Var(name),
            Some(len) => {
                let i = self.index(cx, len, depth.min(2));
                Expr::Index(name, Box::new(i))
            }
        }
    }

    /// An index in `0..len`: a constant, or an expression masked into range.
    pub(super) fn index(&mut self, cx: &mut Cx, len: usize, d: u32) -> Expr {
        if self.rng.chance(2, 5) {
            return Expr::Num(self.rng.below(len) as i64, Lit::Dec);
        }
        let e = self.expr(cx, d);
        let mask = len.next_power_of_two() as i64 - 1;
        let masked = Expr::Binary(BinOp::And, Box::new(e), Box::new(Expr::Num(mask, Lit::Dec)));
        if mask + 1 == len as i64 {
            masked
        } else {
            Expr::Binary(BinOp::Rem, Box::new(masked), Box::new(Expr::Num(len as i64, Lit::Dec)))
        }
    }

    /// A value in the N-bit range: small ones, the edges, or anything.
    pub(super) fn value(&mut self) -> i64 {
        let max = (1i64 << (self.bits - 1)) - 1;
        match self.rng.below(10) {
            0..=4 => self.rng.range(-8, 8),
            5..=6 => self.rng.pick(&[-max - 1, -max, -1, 0, 1, max - 1, max, max / 2 + 1, -(max / 2) - 1]),
            _ => self.rng.range(-max - 1, max),
        }
    }

    pub(super) fn literal(&mut self) -> Expr {
        if !self.defines.is_empty() && self.rng.chance(1, 8) {
            let (name, v, _) = self.defines[self.rng.below(self.defines.len())].clone();
            return Expr::Macro(name, v);
        }
        if !self.enumerators.is_empty() && self.rng.chance(1, 6) {
            let (name, v) = self.enumerators[self.rng.below(self.enumerators.len())].clone();
            return Expr::Macro(name, v);
        }
        let v = self.value();
        Expr::Num(v, self.spelling(v))
    }

    /// How to spell `v`: mostly decimal, sometimes hex, octal or a character.
    pub(super) fn spelling(&mut self, v: i64) -> Lit {
        match self.rng.below(20) {
            0..=1 => Lit::Hex,
            2 => Lit::Oct,
            4..=5 if self.typed() => Lit::Suffix(self.rng.pick(&["u", "U", "l", "L", "ul", "UL", "lu", "LU"])),
            3 if (32..=126).contains(&v) || [0, 9, 10].contains(&v) => Lit::Char,
            _ => Lit::Dec,
        }
    }
}
