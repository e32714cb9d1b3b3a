//! The reference interpreter against the ISA's semantics: every opcode with its
//! wrap edges, every fault class, and the assembler round-trip.

use loom_core::asm::{assemble, disassemble};
use loom_core::isa::{Instr, Opcode};
use loom_core::state::Status;
use loom_core::{Config, Engine, Interp, Program};

fn cfg(name: &str) -> Config {
    Config::preset(name).unwrap()
}

/// Assembles `src` on `config`, runs it to completion and returns the machine.
fn run_on(config: &str, src: &str) -> Interp {
    let prog = assemble(src, cfg(config)).unwrap_or_else(|d| panic!("{d:#?}"));
    let mut m = Interp::new(&prog).unwrap();
    m.run(100_000, None);
    m
}

fn var(m: &Interp, name: &str) -> i32 {
    let s = m.program().symbol(name).unwrap();
    m.mem()[s.slot]
}

/// Runs a one-instruction program `OP x, y` with `x`, `y` preset, returns (x, y).
fn binary(config: &str, op: &str, x: i32, y: i32) -> (i32, i32) {
    let m = run_on(config, &format!(".data x = {x}\n.data y = {y}\n{op} x, y\nHALT\n"));
    assert_eq!(m.status(), Status::Halted, "{op} {x} {y}");
    (var(&m, "x"), var(&m, "y"))
}

fn unary(config: &str, op: &str, x: i32) -> i32 {
    let m = run_on(config, &format!(".data x = {x}\n{op} x\nHALT\n"));
    var(&m, "x")
}

/// Whether a conditional jump `OP x, yes` with `x` preset is taken.
fn taken(op: &str, x: i32) -> bool {
    let src = format!(".data x = {x}\n.data r = 0\n{op} x, yes\nHALT\nyes: INC r\nHALT\n");
    var(&run_on("compact", &src), "r") == 1
}

#[test]
fn arithmetic_wraps_at_the_edges() {
    assert_eq!(binary("compact", "ADD", 127, 1).0, -128);
    assert_eq!(binary("compact", "ADD", -100, -100).0, 56);
    assert_eq!(binary("compact", "SUB", -128, 1).0, 127);
    assert_eq!(binary("compact", "SUB", 5, 9).0, -4);
    assert_eq!(unary("compact", "INC", 127), -128);
    assert_eq!(unary("compact", "DEC", -128), 127);
    assert_eq!(unary("compact16", "INC", 32767), -32768);
    assert_eq!(binary("compact16", "ADD", 30000, 30000).0, -5536);
}

#[test]
fn shifts() {
    assert_eq!(unary("compact", "SHL", 64), -128);
    assert_eq!(unary("compact", "SHL", -128), 0);
    assert_eq!(unary("compact", "SHL", -3), -6);
    assert_eq!(unary("compact", "SHR", -128), -64);
    assert_eq!(unary("compact", "SHR", -1), -1);
    assert_eq!(unary("compact", "SHR", -5), -3);
    assert_eq!(unary("compact", "SHR", 7), 3);
    assert_eq!(unary("compact16", "SHR", -32768), -16384);
}

#[test]
fn bitwise_and_moves() {
    assert_eq!(binary("compact", "AND", 0b0110, -1).0, 6);
    assert_eq!(binary("compact", "AND", -86, 0x0f).0, 10);
    assert_eq!(binary("compact", "OR", -128, 1).0, -127);
    assert_eq!(binary("compact", "XOR", -1, 0x55).0, -86);
    assert_eq!(binary("compact", "MOV", 3, -9), (-9, -9));
    assert_eq!(binary("compact", "SWAP", 3, -9), (-9, 3));
}

#[test]
fn swap_of_a_slot_with_itself_is_a_no_op() {
    let m = run_on("compact", ".data x = 42\nSWAP x, x\nHALT\n");
    assert_eq!(var(&m, "x"), 42);
}

#[test]
fn cmov_moves_only_when_the_destination_is_negative() {
    assert_eq!(binary("compact", "CMOV", -1, 9).0, 9);
    assert_eq!(binary("compact", "CMOV", -128, 9).0, 9);
    assert_eq!(binary("compact", "CMOV", 0, 9).0, 0);
    assert_eq!(binary("compact", "CMOV", 5, 9).0, 5);
}

/// N MULACC steps with b = multiplier, c = multiplicand: checked against the
/// step-by-step definition for all 8-bit pairs. It is the plain product only
/// when both operands are non-negative and the product fits (the accumulator
/// shares the register with the remaining multiplier bits): 6 × −7 is not −42.
#[test]
fn mulacc_n_times() {
    let c8 = cfg("compact");
    for a in -128..128 {
        for c in -128..128 {
            let mut expect = a;
            for _ in 0..8 {
                expect = c8.wrap(((expect as i64) << 1) + if expect < 0 { c as i64 } else { 0 });
            }
            let src = format!(".data x = {a}\n.data y = {c}\n{}HALT\n", "MULACC x, y\n".repeat(8));
            let prog = assemble(&src, c8).unwrap();
            let mut m = Interp::new(&prog).unwrap();
            m.run(100, None);
            assert_eq!(m.mem()[0], expect, "{a} {c}");
        }
    }
    let mul = |x: i32, y: i32| {
        var(&run_on("compact", &format!(".data x = {x}\n.data y = {y}\n{}HALT\n", "MULACC x, y\n".repeat(8))), "x")
    };
    assert_eq!(mul(6, 7), 42);
    assert_eq!(mul(6, -7), -35);
    assert_eq!(
        var(&run_on("compact16", &format!(".data x = 300\n.data y = 21\n{}HALT\n", "MULACC x, y\n".repeat(16))), "x"),
        6300
    );
}

#[test]
fn jumps_and_compare() {
    assert!(taken("JZ", 0));
    assert!(!taken("JZ", 1));
    assert!(taken("JNZ", -1));
    assert!(!taken("JNZ", 0));
    assert!(taken("CMP", -1));
    assert!(taken("CMP", -128));
    assert!(!taken("CMP", 0), "CMP on 0 does not branch");
    assert!(!taken("CMP", 127));
    let m = run_on("compact", ".data r = 0\nJMP over\nINC r\nover: HALT\n");
    assert_eq!(var(&m, "r"), 0);
}

#[test]
fn subleq_branches_on_non_positive() {
    let run = |x: i32, y: i32| {
        let m = run_on(
            "compact",
            &format!(".data x = {x}\n.data y = {y}\n.data r = 0\nSUBLEQ y, x, yes\nHALT\nyes: INC r\nHALT\n"),
        );
        (var(&m, "x"), var(&m, "r") == 1)
    };
    assert_eq!(run(5, 5), (0, true));
    assert_eq!(run(5, 6), (-1, true));
    assert_eq!(run(5, 4), (1, false));
    assert_eq!(run(-128, 1), (127, false), "wraps, then tests the wrapped result");
}

#[test]
fn load_store_reach_every_slot_with_unsigned_pointers() {
    // `large` has 224 slots: pointers ≥ 128 are negative as signed 8-bit words.
    for slot in [0, 31, 32, 127, 128, 200, 223] {
        let p = cfg("large").wrap(slot);
        let src = format!(".data p @ 5 = {p}\n.data v @ 6 = -7\n.data r @ 7 = 0\nSTORE v, p\nLOAD r, p\nHALT\n");
        let m = run_on("large", &src);
        assert_eq!(m.status(), Status::Halted);
        assert_eq!(var(&m, "r"), -7, "slot {slot}");
        if ![5, 6].contains(&slot) {
            assert_eq!(m.mem()[slot as usize], -7);
        }
    }
}

#[test]
fn find_returns_the_unique_slot() {
    let m =
        run_on("compact", ".data xs[4] = 4, 9, 2, 7\n.data key = 9\n.data r = 0\nMOV key, xs[1]\nFIND r, key\nHALT\n");
    // The value 9 is in xs[1] and key: not unique → fault.
    assert!(matches!(m.status(), Status::Fault { .. }));
    let m = run_on("compact", ".data xs[4] = 4, 9, 2, 7\n.data r = 0\nFIND r, xs[2]\nHALT\n");
    assert_eq!(m.status(), Status::Halted);
    assert_eq!(var(&m, "r"), 2);
}

fn fault_message(m: &Interp) -> (usize, String) {
    match m.status() {
        Status::Fault { pc, message } => (pc, message),
        s => panic!("expected a fault, got {s:?}"),
    }
}

/// Pointer 0 is NULL only in a program compiled from C (`reserves_null`): assembly
/// reads and writes slot 0 like any other slot.
#[test]
fn pointer_zero_faults_only_where_slot_zero_is_null() {
    for (op, slot0) in [("LOAD", 7), ("STORE", 1)] {
        let src = format!(".data zero = 7\n.data p = 0\n.data r = 1\n{op} r, p\nHALT\n");
        let mut prog = assemble(&src, cfg("compact")).unwrap();
        assert_eq!(prog.symbol("zero").unwrap().slot, 0);
        let mut m = Interp::new(&prog).unwrap();
        assert_eq!(m.run(10, None), Status::Halted, "{op}");
        assert_eq!((m.mem()[0], var(&m, "r")), (slot0, slot0), "{op}");
        prog.reserves_null = true;
        let mut m = Interp::new(&prog).unwrap();
        let message = format!("{op}: NULL pointer dereference (pointer 0)");
        assert_eq!(m.run(10, None), Status::Fault { pc: prog.config.instr_col(0), message });
        assert_eq!((m.mem()[0], var(&m, "r")), (7, 1), "{op}: the faulting step wrote nothing");
    }
}

#[test]
fn every_run_time_fault_class_stops_with_pc_and_message() {
    let c = cfg("compact");
    // LOAD / STORE out of range (160 slots; 200 as unsigned is outside).
    for op in ["LOAD r, p", "STORE r, p"] {
        let m = run_on("compact", &format!(".data p = -56\n.data r = 1\nNOP: INC r\n{op}\nHALT\n"));
        let (pc, msg) = fault_message(&m);
        assert_eq!(pc, c.instr_col(1));
        assert!(msg.contains("pointer 200 is outside memory"), "{msg}");
        assert_eq!(m.steps(), 1);
        assert_eq!(var(&m, "r"), 2, "the faulting step wrote nothing");
    }
    // FIND of a duplicated value.
    let m = run_on("compact", ".data a = 3\n.data b = 3\nFIND a, b\nHALT\n");
    assert!(fault_message(&m).1.contains("occurs 2 times"));
    // A trap instruction.
    let mut prog = assemble(".data x = 0\nJZ x, bad\nHALT\nbad: HALT\n", c).unwrap();
    prog.traps.push(loom_core::image::Trap { index: 2, message: "division by zero".into(), writes: None });
    let mut m = Interp::new(&prog).unwrap();
    m.run(10, None);
    assert_eq!(fault_message(&m), (c.instr_col(2), "division by zero".to_string()));
    assert_eq!(loom_core::report::fault(&prog, &m.status()).and_then(|f| f.line), Some(4));
}

#[test]
fn step_budget_stops_a_runaway_program_and_is_resumable() {
    let prog = assemble("loop: JMP loop\n", cfg("tiny")).unwrap();
    let mut m = Interp::new(&prog).unwrap();
    assert_eq!(m.run(1000, None), Status::Budget);
    assert_eq!(m.steps(), 1000);
    assert_eq!(m.status(), Status::Running);
    assert_eq!(m.run(1500, None), Status::Budget);
    assert_eq!(m.steps(), 1500);
}

#[test]
fn halt_and_running_off_the_end_both_stop() {
    let m = run_on("tiny", ".data x = 1\nINC x\n");
    assert_eq!(m.status(), Status::Halted);
    assert_eq!((m.pc(), m.steps(), var(&m, "x")), (0, 2, 2));
}

#[test]
fn breaks_pause_before_the_marked_instruction() {
    let prog = assemble(".data x = 0\nloop: INC x\nJMP loop\n", cfg("tiny")).unwrap();
    let mut m = Interp::new(&prog).unwrap();
    let breaks = [true, false];
    assert_eq!(m.run(100, Some(&breaks)), Status::Running);
    assert_eq!((m.steps(), m.read_slot(0)), (2, 1));
    m.run(100, Some(&breaks));
    assert_eq!((m.steps(), m.read_slot(0)), (4, 2));
}

#[test]
fn load_time_rejections_name_the_instruction() {
    let c = cfg("tiny");
    let mut prog = Program::empty(c);
    let check = |prog: &Program| Interp::new(prog).err().map(|e| (e.index, e.message));
    prog.code = vec![Instr::ext(Opcode::Inc, c.mem_col(0) as u32, 0), Instr { a: 24, b: 0, c: 0 }];
    prog.locs = vec![None; 2];
    let (idx, msg) = check(&prog).unwrap();
    assert_eq!(idx, Some(1));
    assert!(msg.contains("undefined opcode 24"), "{msg}");
    prog.code[1] = Instr { a: 0, b: 5, c: 0 };
    assert!(check(&prog).unwrap().1.contains("must be 0"), "HALT with operands is rejected");
    prog.code[1] = Instr::ext(Opcode::Mov, c.instr_col(0) as u32, c.mem_col(1) as u32);
    assert!(check(&prog).unwrap().1.contains("not a memory column"), "writes into code are rejected");
    prog.code[1] = Instr::ext(Opcode::Jmp, 0, c.instr_col(7) as u32);
    assert!(check(&prog).unwrap().1.contains("outside the program"));
    prog.code[1] = Instr::subleq(c.instr_col(0) as u32, c.mem_col(0) as u32, c.instr_col(0) as u32);
    assert!(check(&prog).unwrap().1.contains("operand a = 40"), "SUBLEQ a must be a memory column");
    prog.code[1] = Instr::ext(Opcode::Mulstep, c.mem_col(3) as u32, c.mem_col(2) as u32);
    assert!(check(&prog).unwrap().1.contains("b and c ^ 1: they must differ"), "MULSTEP writes its multiplier");
    let odd = loom_core::Config::custom(64, 8, 7).unwrap();
    let mut short = Program::empty(odd);
    short.code = vec![Instr::ext(Opcode::Mulstep, odd.mem_col(0) as u32, odd.mem_col(6) as u32)];
    short.locs = vec![None];
    let msg = check(&short).unwrap().1;
    assert!(msg.contains("multiplier slot (c ^ 1 = column 39) is outside memory"), "{msg}");
    prog.code = vec![Instr::HALT; c.instr_slots() + 1];
    prog.locs = vec![None; prog.code.len()];
    let msg = check(&prog).unwrap().1;
    assert!(msg.contains("needs 25 instruction slots") && msg.contains("`small`"), "{msg}");
}

#[test]
fn assembler_errors_are_located() {
    let err = assemble(".data x = 1\n  ADD x, nope\n  FOO\n.data big = 300\n", cfg("compact")).unwrap_err();
    let msgs: Vec<_> = err.iter().map(|d| (d.span.line, d.span.col, d.message.clone())).collect();
    assert_eq!(
        msgs,
        [
            (4, 13, "300 does not fit in a 8-bit word (-128..=127)".to_string()),
            (2, 10, "`nope` is not a memory operand".to_string()),
            (3, 3, "unknown instruction `FOO`".to_string()),
        ]
    );
    let text = err[1].render("p.s", ".data x = 1\n  ADD x, nope\n");
    assert!(text.contains("2 |   ADD x, nope\n  |          ^^^^"), "{text}");
}

#[test]
fn disassembly_round_trips() {
    let src = "
        .data n = 10
        .data xs[5] = 1, -2, 3
        .data @ 40 = 7
        .data p @ 41 = -1
        top: SUBLEQ xs[1], n, done
             LOAD xs[4], p
             STORE n, p
             FIND xs[0], xs[2]
             MULACC n, xs
             CMP n, top
        done: HALT
    ";
    for config in ["compact", "default16"] {
        let p1 = assemble(src, cfg(config)).unwrap();
        let text = disassemble(&p1);
        let p2 = assemble(&text, cfg(config)).unwrap_or_else(|d| panic!("{text}\n{d:#?}"));
        assert_eq!(p1.code, p2.code);
        assert_eq!(p1.data, p2.data);
        assert_eq!(p1.symbols, p2.symbols);
        assert_eq!(disassemble(&p2), text);
    }
}
