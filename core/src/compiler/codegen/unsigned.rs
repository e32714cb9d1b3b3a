//! C's integer types in code: conversions to a type narrower than the word, and
//! the operators whose meaning differs for unsigned operands (`/ % >>` and the
//! order comparisons). The machine's words are read as signed: CMP and CMOV test
//! the sign and SHR keeps it, so the unsigned forms are built from them — the
//! order by flipping the sign bit of both sides, the logical shift by clearing
//! the bit an arithmetic shift copies, and division by reducing to the signed
//! routine on operands it handles exactly.

use super::{Gen, Label, Mem};
use crate::compiler::ast::{BinOp, Expr};
use crate::compiler::resolved::Ty;
use crate::ctypes::IntTy;
use crate::isa::Opcode;

impl Gen<'_> {
    /// Converts the value in `m`, of type `from`, to type `to` in place. A value of a type
    /// narrower than the word is kept sign- or zero-extended in its word, so only a
    /// conversion to a narrower type whose range misses some of `from`'s needs code: the
    /// low bits are kept (AND), and a signed type's sign bit extended (XOR, SUB).
    pub fn convert(&mut self, m: Mem, from: &Ty, to: &Ty) {
        let word = self.cfg.word_bits;
        let Some(to) = to.int() else { return };
        if to == IntTy::Bool {
            // Any nonzero value (an integer, a pointer) becomes 1.
            if from.int() != Some(IntTy::Bool) {
                let zero = self.label();
                self.jump(Opcode::Jz, Some(m), zero);
                self.op2(Opcode::Mov, m, self.konst(1));
                self.place(zero);
            }
            return;
        }
        let bits = to.bits(word);
        if bits >= word || from.int().is_some_and(|f| f.fits_in(to, word)) {
            return;
        }
        if let Mem::Const(_) = m {
            unreachable!("invariant: constants are converted when folded");
        }
        self.op2(Opcode::And, m, self.konst((1i64 << bits) - 1));
        if to.signed() {
            let sign = self.konst(1i64 << (bits - 1));
            self.op2(Opcode::Xor, m, sign);
            self.op2(Opcode::Sub, m, sign);
        }
    }

    /// A memory operand holding `e` converted to `to`, never `e`'s own storage when the
    /// conversion needs code.
    pub fn value_as(&mut self, e: &Expr, to: &Ty) -> Mem {
        if let (Some(k), Some(t)) = (self.constant(e), to.int()) {
            return self.konst(t.convert(k, self.cfg.word_bits));
        }
        let from = self.r.ty(e).clone();
        if !self.converts(&from, to) {
            return self.value(e);
        }
        let t = self.temp();
        self.into(t, e);
        self.convert(t, &from, to);
        t
    }

    /// Whether converting a value of type `from` to `to` needs code.
    pub fn converts(&self, from: &Ty, to: &Ty) -> bool {
        let word = self.cfg.word_bits;
        to.int().is_some_and(|t| {
            (t.bits(word) < word || t == IntTy::Bool) && !from.int().is_some_and(|f| f.fits_in(t, word))
        })
    }

    /// `dst ← dst op r` computed in type `t`: the unsigned forms of `/ % >>` when `t` is
    /// unsigned, [`Gen::apply`] otherwise.
    pub fn apply_in(&mut self, dst: Mem, op: BinOp, r: Mem, e: &Expr, t: Option<IntTy>) {
        if t.is_none_or(IntTy::signed) || !matches!(op, BinOp::Div | BinOp::Rem | BinOp::Shr) {
            return self.apply(dst, op, r, e);
        }
        let m = self.mark();
        if op == BinOp::Shr {
            self.shift_right_logical(dst, r);
        } else {
            let saved = self.loc_of(e);
            self.divide_unsigned(dst, r, op == BinOp::Rem);
            self.loc = saved;
        }
        self.release(m);
    }

    /// `dst ← dst >> r` with zeros shifted in: each SHR is followed by clearing the sign bit.
    fn shift_right_logical(&mut self, dst: Mem, r: Mem) {
        let n = i64::from(self.cfg.word_bits);
        let max = self.konst(self.cfg.word_max() as i64);
        if let Mem::Const(k) = r {
            // As folding does: a count past the word counts as the last bit.
            if k > 0 {
                self.op1(Opcode::Shr, dst);
                self.op2(Opcode::And, dst, max);
                (1..k.min(n - 1)).for_each(|_| self.op1(Opcode::Shr, dst));
            }
            return;
        }
        // t = r + 1; while (--t > 0) { dst >>= 1; dst &= MAX; }  (a negative count shifts nothing)
        let t = self.copy(r);
        self.op1(Opcode::Inc, t);
        let (top, done) = (self.label(), self.label());
        self.place(top);
        self.subleq(self.konst(1), t, done);
        self.op1(Opcode::Shr, dst);
        self.op2(Opcode::And, dst, max);
        self.jump(Opcode::Jmp, None, top);
        self.place(done);
    }

    /// `v` with its sign bit flipped (a new temporary, or a constant): unsigned words so
    /// flipped compare as signed ones in the same order.
    pub fn flipped(&mut self, v: Mem) -> Mem {
        let min = self.cfg.word_min() as i64;
        if let Mem::Const(k) = v {
            return self.konst(k ^ min);
        }
        let t = self.copy(v);
        self.op2(Opcode::Xor, t, self.konst(min));
        t
    }

    /// Jumps to `l` when `x < y` as unsigned words.
    fn below(&mut self, x: Mem, y: Mem, l: Label) {
        let (x, y) = (self.flipped(x), self.flipped(y));
        self.rel_jump(x, y, BinOp::Lt, l);
    }

    /// `dst ← dst / r` or `dst % r` for unsigned words; faults when `r` is 0.
    ///
    /// A power of two shifts or masks. Otherwise: a divisor with its top bit set goes into
    /// the dividend at most once. A smaller divisor divides `x` = the dividend, halved (by a
    /// logical shift) when its top bit is set, so both are non-negative words and the signed
    /// routine is exact; then `q = 2q' + c`, `r = 2r' + low bit − c·divisor` where `c` says
    /// whether `2r' + low bit` still reaches the divisor.
    fn divide_unsigned(&mut self, dst: Mem, r: Mem, rem: bool) {
        let word = self.cfg.word_bits;
        if let Mem::Const(k) = r {
            let d = IntTy::UInt.convert(k, word) as u64;
            if d.is_power_of_two() {
                if rem {
                    self.op2(Opcode::And, dst, self.konst(d as i64 - 1));
                } else {
                    self.shift_right_logical(dst, self.konst(i64::from(d.trailing_zeros())));
                }
                return;
            }
        }
        let r = if r == dst { self.copy(r) } else { r };
        if !matches!(r, Mem::Const(k) if k != 0) {
            let trap = self.trap("division by zero");
            self.jump(Opcode::Jz, Some(r), trap);
        }
        let (big, end) = (self.label(), self.label());
        match r {
            Mem::Const(k) if k < 0 => self.jump(Opcode::Jmp, None, big),
            Mem::Const(_) => {}
            _ => self.jump(Opcode::Cmp, Some(r), big),
        }
        if !matches!(r, Mem::Const(k) if k < 0) {
            self.divide_by_small(dst, r, rem);
            self.jump(Opcode::Jmp, None, end);
        }
        // The divisor's top bit is set: the quotient is 1 when the dividend reaches it, else 0.
        self.place(big);
        let under = self.label();
        self.below(dst, r, under);
        if rem {
            self.op2(Opcode::Sub, dst, r);
        } else {
            self.op2(Opcode::Mov, dst, self.konst(1));
        }
        self.jump(Opcode::Jmp, None, end);
        self.place(under);
        if !rem {
            self.op2(Opcode::Xor, dst, dst);
        }
        self.place(end);
    }

    /// `dst ← dst / r` or `dst % r` for unsigned words, `r` below 2^(N-1) and not 0.
    fn divide_by_small(&mut self, dst: Mem, r: Mem, rem: bool) {
        let (x, low, halved) = (self.copy(dst), self.temp(), self.temp());
        let (go, halve) = (self.label(), self.label());
        self.op2(Opcode::Xor, halved, halved);
        self.jump(Opcode::Cmp, Some(x), halve);
        self.jump(Opcode::Jmp, None, go);
        self.place(halve);
        self.op2(Opcode::Mov, low, x);
        self.op2(Opcode::And, low, self.konst(1));
        self.shift_right_logical(x, self.konst(1));
        self.op1(Opcode::Inc, halved);
        self.place(go);
        let q = self.copy(x);
        self.divide(q, r, false);
        // x − q·r: the remainder of the (non-negative) division.
        let product = self.copy(q);
        match r {
            Mem::Const(k) => self.mul_const(product, k, None),
            _ => self.mul(product, r),
        }
        let rest = x;
        self.op2(Opcode::Sub, rest, product);
        let done = self.label();
        self.jump(Opcode::Jz, Some(halved), done);
        self.op1(Opcode::Shl, q);
        self.op1(Opcode::Shl, rest);
        self.op2(Opcode::Add, rest, low);
        self.below(rest, r, done);
        self.op1(Opcode::Inc, q);
        self.op2(Opcode::Sub, rest, r);
        self.place(done);
        self.op2(Opcode::Mov, dst, if rem { rest } else { q });
    }
}
