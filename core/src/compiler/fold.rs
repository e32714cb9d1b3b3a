//! Constant folding with the machine's meaning: N-bit wrapping arithmetic,
//! division truncating toward zero, exact comparisons.

use super::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::config::Config;

/// Applies a binary operator to two words; `None` for division by zero.
pub fn binary(cfg: &Config, op: BinOp, a: i64, b: i64) -> Option<i64> {
    let w = |v: i64| cfg.wrap(v) as i64;
    let n = cfg.word_bits as i64;
    Some(match op {
        BinOp::Add => w(a + b),
        BinOp::Sub => w(a - b),
        BinOp::Mul => w(a * b),
        BinOp::Div | BinOp::Rem if b == 0 => return None,
        BinOp::Div => w(a / b),
        BinOp::Rem => w(a % b),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => w(if (0..n).contains(&b) { a << b } else { 0 }),
        BinOp::Shr => a >> b.clamp(0, n - 1),
        BinOp::Lt => (a < b) as i64,
        BinOp::Le => (a <= b) as i64,
        BinOp::Gt => (a > b) as i64,
        BinOp::Ge => (a >= b) as i64,
        BinOp::Eq => (a == b) as i64,
        BinOp::Ne => (a != b) as i64,
        BinOp::LogAnd => (a != 0 && b != 0) as i64,
        BinOp::LogOr => (a != 0 || b != 0) as i64,
    })
}

pub fn unary(cfg: &Config, op: UnOp, a: i64) -> i64 {
    match op {
        UnOp::Neg => cfg.wrap(-a) as i64,
        UnOp::Not => (a == 0) as i64,
        UnOp::BitNot => !a,
    }
}

/// The value of a constant expression, or `None` if it reads variables, calls or divides by zero.
pub fn eval(cfg: &Config, e: &Expr) -> Option<i64> {
    eval_with(cfg, e, &|_| None)
}

/// Like [`eval`], with the known values of some variables (constant arguments of inlined
/// calls): `known` is asked about each name.
pub fn eval_with(cfg: &Config, e: &Expr, known: &dyn Fn(&Expr) -> Option<i64>) -> Option<i64> {
    let eval = |e: &Expr| eval_with(cfg, e, known);
    match &e.kind {
        ExprKind::Num(v) => Some(cfg.wrap(*v) as i64),
        ExprKind::Var(_) => known(e),
        ExprKind::Unary(op, x) => Some(unary(cfg, *op, eval(x)?)),
        ExprKind::Binary(BinOp::LogAnd, a, b) => match eval(a)? {
            0 => Some(0),
            _ => Some((eval(b)? != 0) as i64),
        },
        ExprKind::Binary(BinOp::LogOr, a, b) => match eval(a)? {
            0 => Some((eval(b)? != 0) as i64),
            _ => Some(1),
        },
        ExprKind::Binary(op, a, b) => binary(cfg, *op, eval(a)?, eval(b)?),
        ExprKind::Cond(c, a, b) => match eval(c)? {
            0 => eval(b),
            _ => eval(a),
        },
        _ => None,
    }
}
