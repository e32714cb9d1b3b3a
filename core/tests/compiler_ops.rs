//! Every operator sequence the compiler emits, checked exhaustively on 8-bit
//! words against C's meaning (computed here in i64 and wrapped): variable
//! operands for all 65,536 pairs, and constant operands for every constant.

use loom_core::compiler::compile;
use loom_core::state::Status;
use loom_core::{Config, Engine, Interp, Program};

fn cfg() -> Config {
    Config::preset("compact").unwrap()
}

fn build(src: &str) -> Program {
    let out = compile(src, cfg());
    out.program.unwrap_or_else(|| panic!("{src}\n{:#?}", out.diagnostics))
}

/// The slot of the global `name` (slot 0 is NULL's: globals start at 1).
fn slot(prog: &Program, name: &str) -> usize {
    prog.symbol(name).unwrap_or_else(|| panic!("no global `{name}`")).slot
}

/// Runs `prog` with globals `a` and `b` set; returns the status and `r`.
fn run(prog: &Program, a: i64, b: i64) -> (Status, i32) {
    let mut m = Interp::new(prog).unwrap();
    m.write_slot(slot(prog, "a"), a);
    m.write_slot(slot(prog, "b"), b);
    let status = m.run(100_000, None);
    (status, m.read_slot(slot(prog, "r")))
}

fn wrap(v: i64) -> i32 {
    cfg().wrap(v)
}

/// C's value of `a op b` on 8-bit ints, `None` for division by zero.
fn reference(op: &str, a: i64, b: i64) -> Option<i32> {
    Some(match op {
        "+" => wrap(a + b),
        "-" => wrap(a - b),
        "*" => wrap(a * b),
        "/" | "%" if b == 0 => return None,
        "/" => wrap(a / b),
        "%" => wrap(a % b),
        "&" => wrap(a & b),
        "|" => wrap(a | b),
        "^" => wrap(a ^ b),
        "<<" => wrap(a << b),
        ">>" => wrap(a >> b),
        "<" => (a < b) as i32,
        "<=" => (a <= b) as i32,
        ">" => (a > b) as i32,
        ">=" => (a >= b) as i32,
        "==" => (a == b) as i32,
        "!=" => (a != b) as i32,
        "&&" => (a != 0 && b != 0) as i32,
        "||" => (a != 0 || b != 0) as i32,
        _ => unreachable!("{op}"),
    })
}

fn check(prog: &Program, op: &str, a: i64, b: i64, what: &str) {
    let (status, r) = run(prog, a, b);
    match reference(op, a, b) {
        Some(want) => {
            assert_eq!(status, Status::Halted, "{what}: a = {a}, b = {b}");
            assert_eq!(r, want, "{what}: a = {a}, b = {b}");
        }
        None => match status {
            Status::Fault { message, .. } => assert_eq!(message, "division by zero", "{what}"),
            s => panic!("{what}: a = {a}, b = 0 should fault, got {s:?}"),
        },
    }
}

const BINARY: [&str; 17] = ["+", "-", "*", "/", "%", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||", ">>"];

#[test]
fn binary_operators_on_variables_are_exact_for_all_pairs() {
    for op in BINARY {
        let prog = build(&format!("int a; int b; int r; int main() {{ r = a {op} b; }}"));
        for a in -128..128 {
            for b in -128..128 {
                if op == ">>" && !(0..8).contains(&b) {
                    continue; // undefined in C
                }
                check(&prog, op, a, b, &format!("a {op} b"));
            }
        }
    }
}

#[test]
fn variable_left_shifts_match() {
    let prog = build("int a; int b; int r; int main() { r = a << b; }");
    for a in -128..128 {
        for b in 0..8 {
            check(&prog, "<<", a, b, "a << b");
        }
    }
}

#[test]
fn operators_with_a_constant_operand_are_exact() {
    for op in ["*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "+", "-", "&"] {
        for k in -128..128i64 {
            let right = build(&format!("int a; int b; int r; int main() {{ r = a {op} {k}; }}"));
            let left = build(&format!("int a; int b; int r; int main() {{ r = {k} {op} a; }}"));
            for a in -128..128 {
                if reference(op, a, k).is_some() {
                    check(&right, op, a, k, &format!("a {op} {k}"));
                }
                if reference(op, k, a).is_some() {
                    let (status, r) = run(&left, a, 0);
                    assert_eq!((status, r), (Status::Halted, reference(op, k, a).unwrap()), "{k} {op} a, a = {a}");
                }
            }
        }
    }
}

#[test]
fn unary_operators_and_builtins_are_exact() {
    type Unary = fn(i64) -> i64;
    let cases: [(&str, Unary); 6] = [
        ("-a", |a| -a),
        ("~a", |a| !a),
        ("!a", |a| (a == 0) as i64),
        ("abs(a)", |a| a.abs()),
        ("min(a, 3)", |a| a.min(3)),
        ("max(a, -3)", |a| a.max(-3)),
    ];
    for (e, f) in cases {
        let prog = build(&format!("int a; int b; int r; int main() {{ r = {e}; }}"));
        for a in -128..128 {
            assert_eq!(run(&prog, a, 0).1, wrap(f(a)), "{e} with a = {a}");
        }
    }
    let prog = build("int a; int b; int r; int main() { r = min(a, b) * 2 + max(a, b); }");
    for a in -128..128 {
        for b in -128..128 {
            assert_eq!(run(&prog, a, b).1, wrap(a.min(b) * 2 + a.max(b)), "a = {a}, b = {b}");
        }
    }
}

#[test]
fn sixteen_bit_products_and_quotients_at_the_edges() {
    let w = Config::preset("compact16").unwrap();
    let vals = [-32768i64, -32767, -300, -7, -1, 0, 1, 2, 7, 255, 256, 300, 32767];
    for op in ["*", "/", "%", "<", ">=", "-"] {
        let out = compile(&format!("int a; int b; int r; int main() {{ r = a {op} b; }}"), w);
        let prog = out.program.unwrap();
        for &a in &vals {
            for &b in &vals {
                let mut m = Interp::new(&prog).unwrap();
                m.write_slot(slot(&prog, "a"), a);
                m.write_slot(slot(&prog, "b"), b);
                let status = m.run(1_000_000, None);
                let want = match op {
                    "*" => w.wrap(a * b),
                    "/" | "%" if b == 0 => {
                        assert!(matches!(status, Status::Fault { .. }));
                        continue;
                    }
                    "/" => w.wrap(a / b),
                    "%" => w.wrap(a % b),
                    "<" => (a < b) as i32,
                    ">=" => (a >= b) as i32,
                    _ => w.wrap(a - b),
                };
                assert_eq!((status, m.read_slot(slot(&prog, "r"))), (Status::Halted, want), "{a} {op} {b}");
            }
        }
    }
}

/// `unsigned` is one 8-bit word on `compact`: every pair of words, read as 0..=255, through
/// the unsigned forms of `/ % >>` and the order comparisons (and the operators shared with
/// `int`), against C's meaning computed here.
#[test]
fn unsigned_operators_are_exact_for_all_pairs() {
    let reference = |op: &str, a: u64, b: u64| -> Option<u64> {
        Some(match op {
            "/" | "%" if b == 0 => return None,
            "/" => a / b,
            "%" => a % b,
            ">>" => a >> b,
            "*" => a * b,
            "-" => a.wrapping_sub(b),
            "<" => (a < b) as u64,
            "<=" => (a <= b) as u64,
            ">" => (a > b) as u64,
            _ => (a >= b) as u64,
        })
    };
    for op in ["/", "%", ">>", "*", "-", "<", "<=", ">", ">="] {
        let vars = build(&format!("unsigned a; unsigned b; unsigned r; int main() {{ r = a {op} b; }}"));
        for a in 0..256u64 {
            for b in 0..256u64 {
                if op == ">>" && b >= 8 {
                    continue; // undefined in C
                }
                let (status, r) = run(&vars, a as i64, b as i64);
                match reference(op, a, b) {
                    Some(want) => assert_eq!((status, r), (Status::Halted, wrap(want as i64)), "{a} {op} {b}"),
                    None => assert!(matches!(status, Status::Fault { .. }), "{a} {op} 0 should fault"),
                }
            }
        }
        for k in 1..256u64 {
            if op == ">>" && k >= 8 {
                continue;
            }
            let right = build(&format!("unsigned a; unsigned b; unsigned r; int main() {{ r = a {op} {k}u; }}"));
            for a in 0..256u64 {
                let want = wrap(reference(op, a, k).unwrap() as i64);
                assert_eq!(run(&right, a as i64, 0), (Status::Halted, want), "{a} {op} {k}u");
            }
        }
    }
}

/// Mixed signedness follows the usual arithmetic conversions: `int` meets `unsigned` as
/// `unsigned` (`-1 < 1u` is false), and narrower types convert by truncation.
#[test]
fn conversions_follow_c() {
    let prog = build("int a; int b; int r; int main() { r = a < (unsigned)b; }");
    for a in -128..128i64 {
        for b in -128..128i64 {
            let want = ((a as u8) < (b as u8)) as i32;
            assert_eq!(run(&prog, a, b), (Status::Halted, want), "{a} < (unsigned){b}");
        }
    }
    let w = Config::preset("compact16").unwrap();
    type Conversion = fn(i64) -> i64;
    let cases: [(&str, Conversion); 6] = [
        ("r = (char)a;", |a| a as i8 as i64),
        ("r = (unsigned char)a;", |a| a as u8 as i64),
        ("char c = a; r = c;", |a| a as i8 as i64),
        ("unsigned char c = 7; c += a; r = c;", |a| (a + 7) as u8 as i64),
        ("signed char c = a; c++; r = c;", |a| (a as i8).wrapping_add(1) as i64),
        ("r = (unsigned)a >> 3;", |a| (a as u16 >> 3) as i64),
    ];
    for (body, f) in cases {
        let out = compile(&format!("int a; int b; int r; int main() {{ {body} }}"), w);
        let prog = out.program.unwrap_or_else(|| panic!("{body}: {:#?}", out.diagnostics));
        for a in (-32768..32768i64).step_by(97).chain([-32768, -129, -128, -1, 0, 127, 128, 255, 256, 32767]) {
            let mut m = Interp::new(&prog).unwrap();
            m.write_slot(slot(&prog, "a"), a);
            assert_eq!(
                (m.run(100_000, None), m.read_slot(slot(&prog, "r"))),
                (Status::Halted, w.wrap(f(a))),
                "{body} a = {a}"
            );
        }
    }
}
