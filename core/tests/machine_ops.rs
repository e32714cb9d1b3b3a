//! Every operation's truth table on the transformer, against the interpreter,
//! on two 8-bit and two 16-bit configurations (dense too where it is cheap).

mod machine_common;
use loom_core::isa::{Instr, Opcode};
use loom_core::state::Status;
use loom_core::{Engine, Interp};
use machine_common::*;

/// Edge values for N bits: zero, ±1, the wrap edges, a few bit patterns.
fn values(rig: &Rig) -> Vec<i64> {
    let (lo, hi) = (rig.cfg.word_min() as i64, rig.cfg.word_max() as i64);
    vec![0, 1, -1, 2, hi, lo, hi - 1, lo + 1, 0x55, -6, 37]
}

/// One binary operation on every pair of edge values: `OP x, y` then two
/// HALTs (a taken branch lands on the second).
fn pairs(rig: &mut Rig, op: Opcode, vals: &[i64]) {
    let c = rig.cfg;
    let last = c.mem_slots - 1;
    for &x in vals {
        for &y in vals {
            let ins = match op.info().c {
                loom_core::isa::Operand::Target => Instr::ext(op, m(&c, 0), t(&c, 2)),
                loom_core::isa::Operand::None => Instr::ext(op, m(&c, 0), 0),
                _ => Instr::ext(op, m(&c, 0), m(&c, 1)),
            };
            let ins = if op == Opcode::Jmp { Instr::ext(op, 0, t(&c, 2)) } else { ins };
            let ins = if op == Opcode::Halt { Instr::HALT } else { ins };
            let mut data = vec![(0, x), (1, y), (last, 3)];
            // MULSTEP's multiplier is c's partner, which must not be b: c = slot 2, multiplier in 3.
            let ins = if op == Opcode::Mulstep { Instr::ext(op, m(&c, 0), m(&c, 2)) } else { ins };
            if op == Opcode::Mulstep {
                data.extend([(2, y), (3, !x)]);
            }
            let prog = program(c, vec![ins, Instr::HALT, Instr::HALT], &data);
            rig.check(&prog, 10, &format!("{op} {x}, {y}"));
        }
    }
}

/// The full tables on the sparse engine; with `dense`, the binary tables
/// on a smaller value set also run on the dense reference (the two engines'
/// bitwise agreement is checked layer by layer elsewhere).
fn truth_tables(name: &str, dense: bool) {
    if dense {
        let mut rig = Rig::new(name, true);
        let vals = values(&rig)[..5].to_vec();
        for op in Opcode::all().filter(|&op| op != Opcode::Subleq) {
            pairs(&mut rig, op, &vals);
        }
    }
    let mut rig = Rig::new(name, false);
    let vals = values(&rig);
    for op in Opcode::all().filter(|&op| op != Opcode::Subleq) {
        pairs(&mut rig, op, &vals);
    }
    subleq_every_column(&mut rig, &vals);
    pointers(&mut rig);
    find(&mut rig);
    mulacc_products(&mut rig);
    mulstep_products(&mut rig);
    divisions(&mut rig);
    swap_same(&mut rig);
}

/// SUBLEQ with its subtrahend in every memory column, taken and not taken.
fn subleq_every_column(rig: &mut Rig, vals: &[i64]) {
    let c = rig.cfg;
    for a in 0..c.mem_slots {
        for &(x, y) in &[(vals[1], vals[2]), (vals[2], vals[1]), (vals[3], vals[3]), (vals[4], vals[5])] {
            let data: Vec<(usize, i64)> = (0..c.mem_slots).map(|s| (s, if s == a { y } else { x })).collect();
            let b = (a + 1) % c.mem_slots;
            let ins = Instr::subleq(m(&c, a), m(&c, b), t(&c, 2));
            let prog = program(c, vec![ins, Instr::HALT, Instr::HALT], &data);
            rig.check(&prog, 10, &format!("SUBLEQ a = slot {a}, {x} − {y}"));
        }
    }
}

/// LOAD and STORE through pointers to the first, 31st, 32nd and last slot,
/// plus pointers outside memory (which must fault identically). Pointer 0 reaches
/// slot 0 in assembly, but is NULL in a program compiled from C (`reserves_null`): a fault.
fn pointers(rig: &mut Rig) {
    let c = rig.cfg;
    let last = c.mem_slots - 1;
    let mut ptrs = vec![0, 1, 30, 31, 32, last as i64, c.mem_slots as i64];
    ptrs.retain(|&p| p < c.mem_slots as i64 + 1);
    ptrs.push(-1);
    for &p in &ptrs {
        for op in [Opcode::Load, Opcode::Store] {
            for reserves_null in [false, true] {
                let mut data: Vec<(usize, i64)> = (0..c.mem_slots).map(|s| (s, s as i64 * 3 - 7)).collect();
                data[1] = (1, p);
                let mut prog = program(c, vec![Instr::ext(op, m(&c, 0), m(&c, 1)), Instr::HALT], &data);
                prog.reserves_null = reserves_null;
                let what = format!("{op} via pointer {p}{}", if reserves_null { " (NULL reserved)" } else { "" });
                rig.check(&prog, 10, &what);
                let faults = !(0..c.mem_slots as i64).contains(&p) || (p == 0 && reserves_null);
                let status = rig.sparse.status();
                assert_eq!(matches!(status, Status::Fault { .. }), faults, "{} {what}: {status:?}", c.name);
            }
        }
    }
}

/// FIND: a unique value in the first, a middle and the last slot; a duplicated value faults.
fn find(rig: &mut Rig) {
    let c = rig.cfg;
    for target in [0, c.mem_slots / 2, c.mem_slots - 1] {
        let mut data: Vec<(usize, i64)> = (0..c.mem_slots).map(|s| (s, s as i64 + 10)).collect();
        data[1] = (1, target as i64 + 10);
        data[target] = (target, target as i64 + 10);
        let find = Instr::ext(Opcode::Find, m(&c, 0), m(&c, 1));
        let prog = program(c, vec![find, Instr::HALT], &data);
        rig.check(&prog, 10, &format!("FIND slot {target}"));
    }
    let prog = program(c, vec![Instr::ext(Opcode::Find, m(&c, 0), m(&c, 1)), Instr::HALT], &[(0, 4), (1, 4)]);
    rig.check(&prog, 10, "FIND of a duplicate");
}

/// N MULACC steps multiply.
fn mulacc_products(rig: &mut Rig) {
    let c = rig.cfg;
    let n = c.word_bits as usize;
    for &(x, y) in &[(3, 5), (-7, 9), (13, -11), (c.word_max() as i64, 2), (-1, -1)] {
        let mut code = vec![Instr::ext(Opcode::Mulacc, m(&c, 0), m(&c, 1)); n];
        code.push(Instr::HALT);
        rig.check(&program(c, code, &[(0, x), (1, y)]), 100, &format!("MULACC {x}·{y}"));
    }
}

/// N MULSTEPs from 0 leave x·y (wrapped) for any words, the extremes included.
fn mulstep_products(rig: &mut Rig) {
    let c = rig.cfg;
    let n = c.word_bits as usize;
    let (min, max) = (c.word_min() as i64, c.word_max() as i64);
    for &(x, y) in &[(3, 5), (-7, 9), (13, -11), (max, 2), (-1, -1), (max, max), (min, -1), (min, min), (0, max)] {
        let mut code = vec![Instr::ext(Opcode::Mulstep, m(&c, 0), m(&c, 2)); n];
        code.push(Instr::HALT);
        let prog = program(c, code, &[(0, 0), (2, x), (3, y)]);
        rig.check(&prog, 100, &format!("MULSTEP {x}·{y}"));
        let mut i = Interp::new(&prog).unwrap();
        i.run(100, None);
        assert_eq!(i.mem()[0], c.wrap(x.wrapping_mul(y)), "{x}·{y}");
    }
}

/// N pairs DROL r, q; DIVSUB r, d and a last DROL divide q by d (unsigned, d ≤ 2^(N−1)):
/// the quotient in q, the remainder in r after the top bit is cleared.
fn divisions(rig: &mut Rig) {
    let c = rig.cfg;
    let n = c.word_bits as usize;
    let (min, max) = (c.word_min() as i64, c.word_max() as i64);
    for &(x, d) in &[(max, 1), (min, 1), (-1, min), (min, min), (12345 % max, 3), (-1, 7), (100, max), (0, 5)] {
        // A loop, as the compiler emits where unrolled divisions do not fit (tiny16 has 24 slots).
        let code = vec![
            Instr::ext(Opcode::Drol, m(&c, 0), m(&c, 1)),
            Instr::ext(Opcode::Divsub, m(&c, 0), m(&c, 2)),
            Instr::ext(Opcode::Dec, m(&c, 3), 0),
            Instr::ext(Opcode::Jnz, m(&c, 3), t(&c, 0)),
            Instr::ext(Opcode::Drol, m(&c, 0), m(&c, 1)),
            Instr::HALT,
        ];
        let prog = program(c, code, &[(1, x), (2, d), (3, n as i64)]);
        rig.check(&prog, 200, &format!("DROL/DIVSUB {x} / {d}"));
        let mut i = loom_core::Interp::new(&prog).unwrap();
        loom_core::Engine::run(&mut i, 200, None);
        let (ux, ud) = (c.unsigned(c.wrap(x)) as i64, c.unsigned(c.wrap(d)) as i64);
        let q = c.unsigned(i.mem()[1]) as i64;
        assert_eq!(q, ux / ud, "{x} / {d}");
    }
}

fn swap_same(rig: &mut Rig) {
    let c = rig.cfg;
    let prog = program(c, vec![Instr::ext(Opcode::Swap, m(&c, 2), m(&c, 2)), Instr::HALT], &[(2, -5)]);
    rig.check(&prog, 10, "SWAP b = b");
}

#[test]
fn truth_tables_tiny_dense_and_sparse() {
    truth_tables("tiny", true);
}

#[test]
fn truth_tables_small() {
    truth_tables("small", false);
}

#[test]
fn truth_tables_tiny16_dense_and_sparse() {
    truth_tables("tiny16", true);
}

#[test]
fn truth_tables_small16() {
    truth_tables("small16", false);
}
