//! Regression pins for the defects measured in the published trace-machine
//! implementation (and one found in an oracle), each run on our machine with
//! both heads compared on every lookup, on our reference, and on wasmi.
#![cfg(not(target_arch = "wasm32"))]

mod trace_common;

use loom_core::trace::code::{Code, Func, Instr, Origin};
use loom_core::trace::score::{Key, Query, T};
use loom_core::trace::{HeadMode, Machine, Reference, Status, Trap};
use trace_common::oracle::{self, Outcome};

/// A pin: what it guards, `main`'s body (with a memory of `pages`: wasmi
/// joins in below 16 MiB), and what it must give.
struct Pin {
    name: &'static str,
    pages: u32,
    body: &'static str,
    expect: Outcome,
}

fn returns(v: &[i32]) -> Outcome {
    Outcome::Returned(v.to_vec())
}

fn pins() -> Vec<Pin> {
    let pin = |name, pages, body, expect| Pin { name, pages, body, expect };
    vec![
        pin(
            "lt_s on wrapped negatives",
            1,
            "(i32.lt_s (i32.sub (i32.const 0) (i32.const 5)) (i32.const 3))
             (i32.lt_s (i32.add (i32.const 2147483647) (i32.const 1)) (i32.const 0))
             (i32.gt_s (i32.const 2147483647) (i32.add (i32.const 2147483647) (i32.const 1)))",
            returns(&[1, 1, 1]),
        ),
        pin(
            "div_s and rem_s on wrapped negatives",
            1,
            "(i32.div_s (i32.sub (i32.const 0) (i32.const 7)) (i32.const 2))
             (i32.rem_s (i32.sub (i32.const 0) (i32.const 7)) (i32.const 2))
             (i32.div_s (i32.const 7) (i32.const -2))
             (i32.rem_s (i32.const -2147483648) (i32.const -1))
             (i32.div_u (i32.const -7) (i32.const 2))",
            returns(&[-3, -1, -3, 0, 2147483644]),
        ),
        pin(
            "div_s of -2^31 by -1 traps",
            1,
            "(i32.div_s (i32.add (i32.const 2147483647) (i32.const 1)) (i32.const -1))",
            Outcome::Trapped("overflow"),
        ),
        pin("division by zero traps", 1, "(i32.rem_u (i32.const 5) (i32.const 0))", Outcome::Trapped("divide by zero")),
        pin(
            "lt_u on negatives",
            1,
            "(i32.lt_u (i32.const -1) (i32.const 1)) (i32.lt_u (i32.const 1) (i32.const -1))
             (i32.ge_u (i32.const -2147483648) (i32.const 2147483647))",
            returns(&[0, 1, 1]),
        ),
        pin(
            "8- and 16-bit loads after a 32-bit store",
            1,
            "(i32.store (i32.const 100) (i32.const 0x80FF7F01))
             (i32.load8_u (i32.const 100)) (i32.load8_u (i32.const 103)) (i32.load8_s (i32.const 103))
             (i32.load8_s (i32.const 102)) (i32.load16_s (i32.const 102)) (i32.load16_u offset=1 (i32.const 100))",
            returns(&[1, 128, -128, -1, -32513, 65407]),
        ),
        pin(
            "two writes to the same heap address: the later wins",
            1,
            "(i32.store (i32.const 4096) (i32.const 1)) (i32.store (i32.const 4096) (i32.const 2))
             (i32.load (i32.const 4096))
             (i32.store8 (i32.const 4097) (i32.const 0xAB)) (i32.load (i32.const 4096))",
            returns(&[2, 43778]),
        ),
        pin(
            "i32.mul near 2^31 wraps exactly",
            1,
            "(i32.mul (i32.const 2147483647) (i32.const 2147483647)) (i32.mul (i32.const 46341) (i32.const 46341))
             (i32.mul (i32.const -2147483648) (i32.const -1)) (i32.mul (i32.const 65536) (i32.const 32768))",
            returns(&[1, -2147479015, i32::MIN, i32::MIN]),
        ),
        // Float keys (2a, -a²) collide past 2^12 (f32) and 2^26 (f64); exact keys never do.
        pin(
            "addresses 4096, 4097, 2^20 and 2^31-1 stay apart",
            32768,
            "(i32.store8 (i32.const 4096) (i32.const 11)) (i32.store8 (i32.const 4097) (i32.const 22))
             (i32.store8 (i32.const 1048576) (i32.const 33)) (i32.store8 (i32.const 1048577) (i32.const 34))
             (i32.store (i32.const 2147483644) (i32.const 0x2C2B2A29))
             (i32.load8_u (i32.const 4096)) (i32.load8_u (i32.const 4097)) (i32.load16_u (i32.const 1048576))
             (i32.load8_u (i32.const 2147483647)) (i32.load8_u (i32.const 2147483646))",
            returns(&[11, 22, 34 * 256 + 33, 0x2C, 0x2B]),
        ),
        pin(
            "the byte past 2^31-1 is out of a 2 GiB memory",
            32768,
            "(i32.load8_u (i32.const 2147483648))",
            Outcome::Trapped("out of bounds"),
        ),
        pin(
            "a 32-bit load straddling the end of memory traps",
            1,
            "(i32.load offset=65533 (i32.const 0))",
            Outcome::Trapped("out of bounds"),
        ),
        // wasmi 2.0.0 answers -96 (the global) here; 1.1.0 and we answer 0.
        pin(
            "select on an eqz condition",
            1,
            "(select (i32.const 0) (global.get 0) (i32.eqz (i32.const 0)))",
            returns(&[0]),
        ),
    ]
}

#[test]
fn pins_agree_with_wasmi_and_the_reference() {
    for p in pins() {
        let n = match &p.expect {
            Outcome::Returned(v) => v.len(),
            Outcome::Trapped(_) => 1,
        };
        let wat = format!(
            "(module (memory (export \"memory\") {}) (global (mut i32) (i32.const -96))\n  (func (export \"main\") (result{})\n{}))",
            p.pages,
            " i32".repeat(n),
            p.body
        );
        let agreed = oracle::agree_with(p.name, &wat, HeadMode::Both, 10_000, p.pages <= 256);
        assert_eq!(agreed.outcome, p.expect, "{}", p.name);
    }
}

#[test]
fn fnv1a_over_bytes_0_to_31_is_0x0913ad65() {
    let p = loom_core::trace::programs::Program::by_name("fnv1a").unwrap();
    let agreed = oracle::agree("fnv1a", p.source, HeadMode::Both, 100_000);
    assert_eq!(agreed.outcome, Outcome::Returned(vec![0x0913_AD65]));
}

/// Valid WebAssembly cannot pop an empty stack (the loader rejects it with a
/// located error, `trace_programs.rs`); a hand-built program can, and traps.
#[test]
fn a_pop_from_an_empty_stack_traps() {
    let code = Code {
        instrs: vec![Instr::Const(7), Instr::Drop, Instr::Drop, Instr::Return { keep: 0, drop: 0 }],
        origins: vec![Origin { func: 0, op: 0, offset: 0 }; 4],
        funcs: vec![Func { entry: 0, params: 0, locals: 0, results: 0 }],
        ..Code::default()
    };
    for mode in HeadMode::ALL {
        let mut m = Machine::with_heads(code.clone(), mode);
        m.run(10);
        assert_eq!(m.status(), &Status::Trapped(Trap::StackUnderflow), "{mode:?}");
        assert_eq!(m.steps(), 2);
    }
    let mut r = Reference::reference(code);
    r.run(10);
    assert_eq!(r.status(), &Status::Trapped(Trap::StackUnderflow));
}

/// The published heads scored keys in f32: at 4097 the neighbour 4096 ties
/// with the address itself. The exact scores keep them a full `T` apart.
#[test]
fn exact_scores_separate_what_float_scores_confuse() {
    let f32_score = |a: f32, q: f32| 2.0 * a * q - a * a;
    assert_eq!(f32_score(4096.0, 4097.0), f32_score(4097.0, 4097.0), "f32 keys collide at 4096/4097");
    for q in [4097u32, 1 << 20, (1 << 31) - 1, u32::MAX] {
        let query = Query::new(q);
        let own = query.dot(Key::new(q, 0));
        let neighbour = query.dot(Key::new(q - 1, 1 << 39));
        assert_eq!(own - query.dot(Key::new(q - 1, 0)), T, "{q}");
        assert!(own > neighbour && own >= query.hit_threshold() && neighbour < query.hit_threshold(), "{q}");
    }
}
