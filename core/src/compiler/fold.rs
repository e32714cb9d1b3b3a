//! Constant folding with C's meaning on the machine: each value is folded in its
//! checked type (an `unsigned` constant is its non-negative value, a `char` is
//! converted modulo 2^8), operands are converted as C converts them, division
//! truncates toward zero, comparisons are exact in the operands' common type.

use super::ast::{BinOp, Expr, ExprKind, NodeId, UnOp};
use super::resolved::Ty;
use crate::config::Config;
use crate::ctypes::IntTy;
use std::collections::HashMap;

/// What folding reads about checked expressions.
#[derive(Clone, Copy)]
pub struct Facts<'a> {
    pub cfg: &'a Config,
    /// By node: the type the checker gave it.
    pub types: &'a HashMap<NodeId, Ty>,
    /// By node: the value of a `sizeof`.
    pub sizes: &'a HashMap<NodeId, i64>,
}

impl Facts<'_> {
    fn int(&self, e: &Expr) -> Option<IntTy> {
        self.types.get(&e.id)?.int()
    }
}

/// Whether `a rel b` holds for two values of one type.
pub fn holds(rel: BinOp, a: i64, b: i64) -> bool {
    match rel {
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        BinOp::Ge => a >= b,
        BinOp::Eq => a == b,
        _ => a != b,
    }
}

/// Applies an arithmetic operator to two values already converted to the operation's type
/// `t` (for shifts, `a` has the promoted type and `b` is the count); `None` for division by zero.
fn arith(word: u32, op: BinOp, t: IntTy, a: i64, b: i64) -> Option<i64> {
    let bits = i64::from(t.bits(word));
    let v = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div | BinOp::Rem if b == 0 => return None,
        BinOp::Div => a.wrapping_div(b),
        BinOp::Rem => a.wrapping_rem(b),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl if (0..bits).contains(&b) => a << b,
        BinOp::Shl => 0,
        // A non-negative value: shifting an unsigned one is logical.
        BinOp::Shr => a >> b.clamp(0, bits - 1),
        _ => unreachable!("invariant: arith takes arithmetic operators"),
    };
    Some(t.convert(v, word))
}

/// The value of a constant expression, or `None` if it reads variables, calls or divides by zero.
pub fn eval(facts: Facts, e: &Expr) -> Option<i64> {
    eval_with(facts, e, &|_| None)
}

/// Like [`eval`], with the known words of some variables (constant arguments of inlined
/// calls): `known` is asked about each name.
pub fn eval_with(facts: Facts, e: &Expr, known: &dyn Fn(&Expr) -> Option<i64>) -> Option<i64> {
    let eval = |e: &Expr| eval_with(facts, e, known);
    let word = facts.cfg.word_bits;
    let ty = facts.int(e);
    match &e.kind {
        ExprKind::Num(v, _) => Some(*v),
        ExprKind::Var(_) => Some(ty?.convert(known(e)?, word)),
        ExprKind::SizeofType(_) | ExprKind::SizeofExpr(_) => facts.sizes.get(&e.id).copied(),
        ExprKind::Cast(_, x) => Some(ty?.convert(eval(x)?, word)),
        ExprKind::Unary(UnOp::Not, x) => Some((eval(x)? == 0) as i64),
        ExprKind::Unary(op, x) => {
            let (t, v) = (ty?, eval(x)?);
            Some(t.convert(if *op == UnOp::Neg { v.wrapping_neg() } else { !v }, word))
        }
        ExprKind::Binary(BinOp::LogAnd, a, b) => match eval(a)? {
            0 => Some(0),
            _ => Some((eval(b)? != 0) as i64),
        },
        ExprKind::Binary(BinOp::LogOr, a, b) => match eval(a)? {
            0 => Some((eval(b)? != 0) as i64),
            _ => Some(1),
        },
        ExprKind::Binary(op, a, b) if op.is_compare() => {
            let t = IntTy::common(facts.int(a)?, facts.int(b)?, word);
            Some(holds(*op, t.convert(eval(a)?, word), t.convert(eval(b)?, word)) as i64)
        }
        ExprKind::Binary(op @ (BinOp::Shl | BinOp::Shr), a, b) => arith(word, *op, ty?, eval(a)?, eval(b)?),
        ExprKind::Binary(op, a, b) => {
            let t = ty?;
            arith(word, *op, t, t.convert(eval(a)?, word), t.convert(eval(b)?, word))
        }
        ExprKind::Cond(c, a, b) => {
            let v = if eval(c)? != 0 { eval(a)? } else { eval(b)? };
            Some(ty?.convert(v, word))
        }
        _ => None,
    }
}
