//! Bugs found by this tester and not fixed yet on `main`. The generator steers
//! around each one (so the CI budget stays green) while its regression case in
//! `tests/c/regress/` is listed in `KNOWN_FAILING`; `--no-avoid` generates them
//! anyway. Delete an entry when its fix lands (the corpus test then insists
//! the case passes).

use super::program::{BinOp, Expr, Lit, Program, Stmt, UnOp};

/// Whether `p` contains a known bug's pattern (the reducer keeps away from
/// them, so a new divergence does not shrink into an old one).
pub fn present(p: &Program) -> bool {
    let globals: Vec<&str> = p.globals.iter().map(|g| g.name.as_str()).collect();
    p.any_stmt(&mut |s| matches!(s, Stmt::Assert(c) if constant_assert(c)))
        || p.any_expr(&mut |e| match e {
            Expr::Assign(None, t, rhs) => {
                logic_into_own_operand(t, rhs)
                    || (FAULT_CLOBBERS_TARGET
                        && t.any(
                            &mut |x| matches!(x, Expr::Var(n) | Expr::Index(n, _) if globals.contains(&n.as_str())),
                        )
                        && may_fault(rhs))
            }
            Expr::Unary(op, x) => negated_pattern_literal(*op, x, p.bits),
            _ => false,
        })
}

/// Whether evaluating `e` can fault: a division by anything but a nonzero
/// literal or `(… | 1)`, or any call (conservatively).
fn may_fault(e: &Expr) -> bool {
    e.any(&mut |x| match x {
        Expr::Binary(BinOp::Div | BinOp::Rem, _, d) => match &**d {
            Expr::Num(v, _) => *v == 0,
            Expr::Binary(BinOp::Or, _, one) => **one != Expr::Num(1, Lit::Dec),
            _ => true,
        },
        Expr::Call(..) => true,
        _ => false,
    })
}

/// `regress/logic_assign_own_operand.c`: `t = t && e;` and `t = t || e;` emit no
/// instruction (`t` keeps its value).
pub fn logic_into_own_operand(target: &Expr, rhs: &Expr) -> bool {
    match (target, rhs) {
        (Expr::Var(t), Expr::Binary(BinOp::LogAnd | BinOp::LogOr, a, _)) => names(a, t),
        (_, Expr::Paren(inner)) => logic_into_own_operand(target, inner),
        _ => false,
    }
}

/// `regress/fault_keeps_target*.c`: a plain assignment's right side is
/// computed in the target, so a fault inside it (a division by zero, a failed
/// assert in an inlined call) leaves a partial value in a global that C never
/// assigned. Only globals are compared, so the generator keeps right sides
/// that can fault away from global targets.
pub const FAULT_CLOBBERS_TARGET: bool = true;

/// Whether `e` is the variable `t`, maybe in parentheses or after a unary `+`.
fn names(e: &Expr, t: &str) -> bool {
    match e {
        Expr::Var(v) => v == t,
        Expr::Paren(x) | Expr::Unary(UnOp::Plus, x) => names(x, t),
        _ => false,
    }
}

/// `regress/negated_pattern_literal.c`: `-0xFF` is rejected ("the literal -255
/// does not fit") although `0xFF` spells −1 and `-(0xFF)` is 1: the parser
/// folds the minus into the literal and then checks the magnitude against the
/// signed range instead of negating the N-bit pattern.
pub fn negated_pattern_literal(op: UnOp, x: &Expr, bits: u32) -> bool {
    let min = -(1i64 << (bits - 1));
    op == UnOp::Neg && matches!(x, Expr::Num(v, Lit::Hex | Lit::Oct | Lit::Char) if *v < 0 && *v != min)
}

/// `regress/assert_constant_false.c`: an assert whose condition folds to 0, where
/// its trap's HALT comes next in the code, halts normally: the peephole deletes
/// the jump to the next instruction, then drops the trap's label as unused, and
/// layout keeps the HALT but not the trap. Steered around: no assert on a
/// condition without variables or calls.
pub fn constant_assert(cond: &Expr) -> bool {
    !cond.any(&mut |x| {
        matches!(x, Expr::Var(_) | Expr::Index(..) | Expr::Call(..) | Expr::Assign(..) | Expr::IncDec { .. })
    })
}
