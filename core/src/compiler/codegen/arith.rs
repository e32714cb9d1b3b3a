//! Instruction sequences for the operators the machine lacks: exact
//! comparisons, multiplication, division (DROL/DIVSUB long division) and variable shifts. Each one is
//! checked exhaustively against C's meaning on 8-bit words in the tests.

use super::{Gen, Label, Mem};
use crate::compiler::ast::{BinOp, Expr};
use crate::isa::Opcode;

impl Gen<'_> {
    /// `dst ← dst op r`. `e` locates a division for its run-time fault.
    pub fn apply(&mut self, dst: Mem, op: BinOp, r: Mem, e: &Expr) {
        let k = match r {
            Mem::Const(k) => Some(k),
            _ => None,
        };
        let m = self.mark();
        match (op, k) {
            (BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr, Some(0)) => {}
            (BinOp::Add, Some(1)) | (BinOp::Sub, Some(-1)) => self.op1(Opcode::Inc, dst),
            (BinOp::Add, Some(-1)) | (BinOp::Sub, Some(1)) => self.op1(Opcode::Dec, dst),
            (BinOp::Add, _) => self.op2(Opcode::Add, dst, r),
            (BinOp::Sub, _) => self.op2(Opcode::Sub, dst, r),
            (BinOp::And, Some(-1)) => {}
            (BinOp::And, Some(0)) => self.op2(Opcode::Xor, dst, dst),
            (BinOp::And, _) => self.op2(Opcode::And, dst, r),
            (BinOp::Or, _) => self.op2(Opcode::Or, dst, r),
            (BinOp::Xor, _) => self.op2(Opcode::Xor, dst, r),
            (BinOp::Mul, Some(k)) => self.mul_const(dst, k, None),
            (BinOp::Mul, None) => self.mul(dst, r),
            (BinOp::Div | BinOp::Rem, _) => {
                let saved = self.loc_of(e);
                self.divide(dst, r, op == BinOp::Rem);
                self.loc = saved;
            }
            (BinOp::Shl | BinOp::Shr, Some(k)) => {
                let n = self.cfg.word_bits as i64;
                let sh = if op == BinOp::Shl { Opcode::Shl } else { Opcode::Shr };
                if op == BinOp::Shl && !(0..n).contains(&k) {
                    self.op2(Opcode::Xor, dst, dst);
                } else {
                    (0..k.clamp(0, n - 1)).for_each(|_| self.op1(sh, dst));
                }
            }
            (BinOp::Shl | BinOp::Shr, None) => self.shift_by(dst, r, op == BinOp::Shl),
            _ => unreachable!("invariant: apply({op:?}) takes only arithmetic operators (BinOp::is_arith)"),
        }
        self.release(m);
    }

    /// `dst <<= r` or `dst >>= r` for a count in memory, by the count's bits: a run of
    /// 2^j shifts for each bit j set, highest first. A negative count shifts nothing, a
    /// count ≥ N shifts everything out (SHR: the sign fills the word).
    ///
    /// `u` holds the count not yet shifted, plus one, so that SUBLEQ's "≤ 0" tests
    /// "below 2^j" (the range test leaves `r + 1 − N`, which the first test's constant
    /// takes back); an unset bit jumps out of line to add 2^j back. Worst case
    /// (count N − 1): 3 + Σ_{j≥1} (1 + 2^j) + 2 = N + log2(N) + 2 steps.
    fn shift_by(&mut self, dst: Mem, r: Mem, left: bool) {
        let n = self.cfg.word_bits as i64;
        let sh = if left { Opcode::Shl } else { Opcode::Shr };
        let u = self.copy(r);
        let (done, top) = (self.label(), self.label());
        self.jump(Opcode::Cmp, Some(u), done);
        self.subleq(self.konst(n - 1), u, top);
        if left {
            self.op2(Opcode::Xor, dst, dst);
        } else {
            let neg = self.label();
            self.jump(Opcode::Cmp, Some(dst), neg);
            self.op2(Opcode::Xor, dst, dst);
            self.jump(Opcode::Jmp, None, done);
            self.place(neg);
            self.op2(Opcode::Mov, dst, self.konst(-1));
        }
        self.jump(Opcode::Jmp, None, done);
        let bits: Vec<u32> = (1..n.trailing_zeros()).rev().collect();
        let resume: Vec<Label> = bits.iter().map(|_| self.label()).collect();
        let undo: Vec<Label> = bits.iter().map(|_| self.label()).collect();
        for (k, &j) in bits.iter().enumerate() {
            self.place(undo[k]);
            self.op2(Opcode::Add, u, self.konst(1 << j));
            self.jump(Opcode::Jmp, None, resume[k]);
        }
        self.place(top);
        for (k, &j) in bits.iter().enumerate() {
            let a = if k == 0 { (1 << j) - n } else { 1 << j };
            self.subleq(self.konst(a), u, undo[k]);
            (0..1 << j).for_each(|_| self.op1(sh, dst));
            self.place(resume[k]);
        }
        self.subleq(self.konst(1), u, done);
        self.op1(sh, dst);
        self.place(done);
    }

    pub(super) fn loc_of(&mut self, e: &Expr) -> Option<crate::image::SrcLoc> {
        let saved = self.loc;
        self.set_loc(e.span);
        saved
    }

    /// `dst *= k` with shifts and adds (Horner over the bits of |k|); `x`, when given,
    /// holds dst's original value and saves a copy.
    pub fn mul_const(&mut self, dst: Mem, k: i64, x: Option<Mem>) {
        let n = self.cfg.word_bits;
        let min = -(1i64 << (n - 1));
        if k == 0 {
            return self.op2(Opcode::Xor, dst, dst);
        }
        let (neg, mag) = if k == min { (false, 1u64 << (n - 1)) } else { (k < 0, k.unsigned_abs()) };
        if mag.is_power_of_two() {
            (0..mag.trailing_zeros()).for_each(|_| self.op1(Opcode::Shl, dst));
        } else {
            let x = x.filter(|&x| x != dst).unwrap_or_else(|| self.copy(dst));
            let top = 63 - mag.leading_zeros();
            for bit in (0..top).rev() {
                self.op1(Opcode::Shl, dst);
                if mag >> bit & 1 == 1 {
                    self.op2(Opcode::Add, dst, x);
                }
            }
        }
        if neg {
            self.negate(dst);
        }
    }

    /// `dst *= y`: N MULSTEPs, `dst` accumulating the multiplicand (dst's value, moved to
    /// the MULSTEP pair's first word) while the multiplier (y, in the pair's second word)
    /// gives up its top bit at each step: N + 3 steps whatever the operands (looped where
    /// the unrolled steps do not fit: 3N + 4).
    pub(super) fn mul(&mut self, dst: Mem, y: Mem) {
        let (x, m) = (Mem::Mul(0), Mem::Mul(1));
        self.op2(Opcode::Mov, x, dst);
        self.op2(Opcode::Mov, m, y);
        self.op2(Opcode::Xor, dst, dst);
        if self.looped {
            let (k, top) = (self.temp(), self.label());
            self.op2(Opcode::Mov, k, self.konst(self.cfg.word_bits as i64));
            self.place(top);
            self.op2(Opcode::Mulstep, dst, x);
            self.op1(Opcode::Dec, k);
            self.jump(Opcode::Jnz, Some(k), top);
        } else {
            (0..self.cfg.word_bits).for_each(|_| self.op2(Opcode::Mulstep, dst, x));
        }
    }

    /// `t ← |x|` in a new temporary, as an unsigned N-bit magnitude: `−x`, or `x`
    /// where `−x` is negative (x > 0, and MIN, whose magnitude 2^(N−1) is MIN's pattern).
    pub(super) fn magnitude(&mut self, x: Mem) -> Mem {
        let t = self.temp();
        self.op2(Opcode::Xor, t, t);
        self.op2(Opcode::Sub, t, x);
        self.op2(Opcode::Cmov, t, x);
        t
    }

    /// `dst ← dst / r` or `dst % r`, truncating toward zero; faults when `r` is 0.
    /// MIN / −1 wraps to MIN and MIN % −1 is 0.
    pub(super) fn divide(&mut self, dst: Mem, r: Mem, rem: bool) {
        if let Mem::Const(d) = r {
            if d != 0 {
                return self.divide_const(dst, d, rem);
            }
        }
        let r = if r == dst { self.copy(r) } else { r };
        let trap = self.trap("division by zero");
        self.jump(Opcode::Jz, Some(r), trap);
        let d = self.magnitude(r);
        self.long_divide(dst, d, rem, Divisor::Signed(r));
    }

    /// Long division of the magnitudes in N steps of two operations (DROL, DIVSUB),
    /// unrolled (or looped, 2N + 1 steps more, where unrolled ones do not fit),
    /// then the signs: `2N + 8` steps for `%`, `2N + 9` for `/`; with the zero test and
    /// `|r|` of a divisor in memory, 2N + 12 and 2N + 13.
    ///
    /// DIVSUB needs a divisor ≤ 2^(N−1): every signed magnitude is. The pair
    /// `p:a` starts as `0:|dst|`; each DROL moves the dividend's next bit into `p`
    /// and the previous step's quotient bit (p's top bit) into `a`.
    fn long_divide(&mut self, dst: Mem, d: Mem, rem: bool, divisor: Divisor) {
        let a = self.magnitude(dst);
        let p = self.temp();
        self.op2(Opcode::Xor, p, p);
        if self.looped {
            let (k, top) = (self.temp(), self.label());
            self.op2(Opcode::Mov, k, self.konst(self.cfg.word_bits as i64));
            self.place(top);
            self.op2(Opcode::Drol, p, a);
            self.op2(Opcode::Divsub, p, d);
            self.op1(Opcode::Dec, k);
            self.jump(Opcode::Jnz, Some(k), top);
        } else {
            for _ in 0..self.cfg.word_bits {
                self.op2(Opcode::Drol, p, a);
                self.op2(Opcode::Divsub, p, d);
            }
        }
        let end = self.label();
        if rem {
            self.op2(Opcode::And, p, self.konst(self.cfg.word_max() as i64));
            return self.by_sign(dst, dst, p, false, end);
        }
        self.op2(Opcode::Drol, p, a);
        match divisor {
            Divisor::Signed(r) => {
                // dst's value is in `a` now: its sign bit becomes the quotient's.
                self.op2(Opcode::Xor, dst, r);
                self.by_sign(dst, dst, a, false, end);
            }
            Divisor::Const { negative } => self.by_sign(dst, dst, a, negative, end),
        }
    }

    /// `dst ← ±v` chosen by the sign of `sign`: `−v` for `sign ≥ 0` when
    /// `negate_when_nonneg`, otherwise `−v` for `sign < 0`.
    pub(super) fn by_sign(&mut self, dst: Mem, sign: Mem, v: Mem, negate_when_nonneg: bool, end: Label) {
        let neg = self.label();
        self.jump(Opcode::Cmp, Some(sign), neg);
        self.set_or_negate(dst, v, negate_when_nonneg);
        self.jump(Opcode::Jmp, None, end);
        self.place(neg);
        self.set_or_negate(dst, v, !negate_when_nonneg);
        self.place(end);
    }

    pub(super) fn set_or_negate(&mut self, dst: Mem, v: Mem, negate: bool) {
        if negate {
            self.op2(Opcode::Xor, dst, dst);
            self.op2(Opcode::Sub, dst, v);
        } else {
            self.op2(Opcode::Mov, dst, v);
        }
    }

    /// Division by a nonzero constant: ±1 and powers of two by shifts, the rest by
    /// [`Gen::long_divide`] with the constant's magnitude.
    pub(super) fn divide_const(&mut self, dst: Mem, d: i64, rem: bool) {
        let min = self.cfg.word_min() as i64;
        let mag = d.unsigned_abs();
        if mag == 1 {
            if rem {
                self.op2(Opcode::Xor, dst, dst);
            } else if d < 0 {
                self.negate(dst);
            }
            return;
        }
        if mag.is_power_of_two() && d != min {
            // q = (x + (x < 0 ? |d| − 1 : 0)) >> k, rounding toward zero.
            let k = mag.trailing_zeros();
            let q = if rem { self.copy(dst) } else { dst };
            let t = self.copy(q);
            self.op2(Opcode::Add, t, self.konst(mag as i64 - 1));
            self.op2(Opcode::Cmov, q, t);
            (0..k).for_each(|_| self.op1(Opcode::Shr, q));
            if rem {
                (0..k).for_each(|_| self.op1(Opcode::Shl, q));
                self.op2(Opcode::Sub, dst, q);
            } else if d < 0 {
                self.negate(dst);
            }
            return;
        }
        // konst wraps: MIN's magnitude 2^(N−1) is MIN's own pattern.
        self.long_divide(dst, self.konst(mag as i64), rem, Divisor::Const { negative: d < 0 });
    }

    /// Jumps to `l` when `x rel y` holds, comparing exactly: a wrapped difference
    /// is only trusted when both operands have the same sign (then it cannot overflow).
    pub fn rel_jump(&mut self, x: Mem, y: Mem, rel: BinOp, l: Label) {
        let (min, max) = (self.cfg.word_min() as i64, self.cfg.word_max() as i64);
        let cst = |m: Mem| match m {
            Mem::Const(k) => Some(k),
            _ => None,
        };
        let (cx, cy) = (cst(x), cst(y));
        if let (Some(a), Some(b)) = (cx, cy) {
            if crate::compiler::fold::holds(rel, a, b) {
                self.jump(Opcode::Jmp, None, l);
            }
            return;
        }
        match rel {
            BinOp::Gt => return self.rel_jump(y, x, BinOp::Lt, l),
            BinOp::Ge => return self.rel_jump(y, x, BinOp::Le, l),
            BinOp::Eq | BinOp::Ne => {
                let op = if rel == BinOp::Eq { Opcode::Jz } else { Opcode::Jnz };
                let v = if cy == Some(0) {
                    x
                } else if cx == Some(0) {
                    y
                } else {
                    let t = self.scratch(x);
                    self.op2(Opcode::Sub, t, y);
                    t
                };
                return self.jump(op, Some(v), l);
            }
            _ => {}
        }
        let strict = rel == BinOp::Lt;
        match (strict, cx, cy) {
            (true, _, Some(0)) => return self.jump(Opcode::Cmp, Some(x), l),
            (false, _, Some(0)) => return self.subleq(self.konst(0), x, l),
            (true, _, Some(k)) if k == min => return,
            (true, _, Some(k)) => return self.rel_jump(x, self.konst(k - 1), BinOp::Le, l),
            (true, Some(k), _) if k == max => return,
            (true, Some(k), _) => return self.rel_jump(self.konst(k + 1), y, BinOp::Le, l),
            (false, Some(k), _) if k == min => return self.jump(Opcode::Jmp, None, l),
            (false, _, Some(k)) if k == max => return self.jump(Opcode::Jmp, None, l),
            (false, Some(0), _) => {
                let skip = self.label();
                self.jump(Opcode::Cmp, Some(y), skip);
                self.jump(Opcode::Jmp, None, l);
                return self.place(skip);
            }
            _ => {}
        }
        if let (Some((xl, xh)), Some((yl, yh))) = (self.range(x), self.range(y)) {
            let decided = if strict { (xh < yl, xl >= yh) } else { (xh <= yl, xl > yh) };
            match decided {
                (true, _) => return self.jump(Opcode::Jmp, None, l),
                (_, true) => return,
                _ if xl - yh >= min && xh - yl <= max => return self.exact_difference(x, y, strict, l),
                _ => {}
            }
        }
        let end = self.label();
        let mut diff = None;
        if let Some(k) = cy {
            if k >= 0 {
                self.jump(Opcode::Cmp, Some(x), l); // x < 0 ≤ k
            } else {
                let same = self.label();
                self.jump(Opcode::Cmp, Some(x), same);
                self.jump(Opcode::Jmp, None, end); // x ≥ 0 > k
                self.place(same);
            }
        } else if let Some(k) = cx {
            if k >= 0 {
                self.jump(Opcode::Cmp, Some(y), end); // y < 0 ≤ k
            } else {
                let same = self.label();
                self.jump(Opcode::Cmp, Some(y), same);
                self.jump(Opcode::Jmp, None, l); // k < 0 ≤ y
                self.place(same);
            }
        } else {
            let d = self.label();
            let t = self.copy(x);
            self.op2(Opcode::Xor, t, y);
            self.jump(Opcode::Cmp, Some(t), d);
            diff = Some(d);
        }
        // Same signs: the difference is exact.
        self.exact_difference(x, y, strict, l);
        if let Some(d) = diff {
            // Different signs: x < y exactly when x is the negative one.
            self.jump(Opcode::Jmp, None, end);
            self.place(d);
            self.jump(Opcode::Cmp, Some(x), l);
        }
        self.place(end);
    }

    /// Jumps when `x − y < 0` (strict) or `≤ 0`, for operands whose difference cannot overflow.
    pub(super) fn exact_difference(&mut self, x: Mem, y: Mem, strict: bool, l: Label) {
        let t = self.scratch(x);
        if strict {
            self.op2(Opcode::Sub, t, y);
            self.jump(Opcode::Cmp, Some(t), l);
        } else {
            self.subleq(y, t, l);
        }
    }

    /// `x` itself when the comparison may consume it, else a copy.
    pub(super) fn scratch(&mut self, x: Mem) -> Mem {
        if self.consumable.contains(&x) {
            x
        } else {
            self.copy(x)
        }
    }
}

/// The divisor's sign, as the quotient's sign fix needs it.
#[derive(Clone, Copy)]
enum Divisor {
    /// In memory: the quotient is negative when `dst ^ r` is.
    Signed(Mem),
    /// A constant of known sign.
    Const { negative: bool },
}
