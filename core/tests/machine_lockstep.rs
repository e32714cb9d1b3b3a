//! Lockstep against the interpreter: the assembly corpus under `tests/asm/`
//! and randomly generated programs (fixed seeds), on the sparse engine.

mod machine_common;
use loom_core::isa::{Instr, Opcode};
use loom_core::{asm, image::Program, Config};
use machine_common::*;

#[test]
fn corpus_runs_in_lockstep_on_compact() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/asm");
    let mut rig = Rig::new("compact", false);
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "s") {
            let src = std::fs::read_to_string(&path).unwrap();
            let prog = asm::assemble(&src, rig.cfg).unwrap_or_else(|d| panic!("{}: {d:?}", path.display()));
            let steps = rig.check(&prog, 20_000, &path.display().to_string());
            assert!(steps > 30, "{} ran only {steps} steps", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 4, "the corpus went missing");
}

/// A program filling every instruction slot runs off the end: past the last
/// column the PC wraps to 0, so it halts right after its last instruction, at
/// the same step on the transformer and the interpreter, in every configuration.
#[test]
fn a_program_at_exact_capacity_halts_at_the_same_step() {
    for cfg in loom_core::config::PRESETS {
        let mut rig = Rig::new(cfg.name, false);
        let slots = cfg.instr_slots();
        let prog = program(cfg, vec![ext(Opcode::Inc, m(&cfg, 0), 0); slots], &[]);
        let steps = rig.check(&prog, 2 * slots as u64, "a full program");
        assert_eq!(steps, slots as u64, "{}: the transformer's steps", cfg.name);
        let mut i = loom_core::Interp::new(&prog).unwrap();
        let status = loom_core::Engine::run(&mut i, 2 * slots as u64, None);
        assert_eq!(
            (status, loom_core::Engine::steps(&i)),
            (loom_core::state::Status::Halted, slots as u64),
            "{}",
            cfg.name
        );
        assert_eq!(i.mem()[0], cfg.wrap(slots as i64), "{}: every instruction ran once", cfg.name);
    }
}

/// A random valid program: any operation with random memory operands and
/// jump targets; pointers are masked into memory first (m is a power of two
/// here), so most programs run long; FIND may fault, identically.
fn random_program(cfg: Config, rng: &mut Rng, len: usize) -> Program {
    let slots = cfg.mem_slots;
    let mask = slots - 1; // slot `mask` holds m − 1
    let mut code = Vec::new();
    while code.len() < len - 1 {
        let b = m(&cfg, rng.below(slots - 1));
        let c = m(&cfg, rng.below(slots - 1));
        let target = t(&cfg, rng.below(len));
        let ops: Vec<Opcode> = Opcode::all().collect();
        let op = ops[rng.below(ops.len())];
        let ins = match op {
            Opcode::Halt if rng.below(4) != 0 => continue,
            Opcode::Drol if b == c => continue,
            // MULSTEP writes b and the multiplier in c's partner slot: they must differ, and the
            // pointer mask in the last slot stays put.
            Opcode::Mulstep if b == c ^ 1 || c ^ 1 == m(&cfg, mask) => continue,
            Opcode::Halt => Instr::HALT,
            Opcode::Subleq => Instr::subleq(m(&cfg, rng.below(slots - 1)), b, target),
            Opcode::Jmp => Instr::ext(op, 0, target),
            Opcode::Jz | Opcode::Jnz | Opcode::Cmp => Instr::ext(op, b, target),
            Opcode::Inc | Opcode::Dec | Opcode::Shl | Opcode::Shr => Instr::ext(op, b, 0),
            Opcode::Load | Opcode::Store => {
                code.push(Instr::ext(Opcode::And, c, m(&cfg, mask)));
                Instr::ext(op, b, c)
            }
            _ => Instr::ext(op, b, c),
        };
        code.push(ins);
    }
    code.truncate(len - 1);
    code.push(Instr::ext(Opcode::Jmp, 0, t(&cfg, 0)));
    // Small values keep loops and FIND interesting; 32-bit words get the whole range half the time.
    let word = |rng: &mut Rng| {
        if cfg.word_bits == 32 && rng.below(2) == 0 {
            random_word(&cfg, rng)
        } else {
            rng.next() as i8 as i64
        }
    };
    let mut data: Vec<(usize, i64)> = (0..slots - 1).map(|s| (s, word(rng))).collect();
    data.push((mask, mask as i64));
    program(cfg, code, &data)
}

fn random_programs(name: &str, count: u64, steps: u64) {
    let mut rig = Rig::new(name, false);
    let mut total = 0;
    for seed in 0..count {
        let mut rng = Rng::new(seed + 1);
        let len = 4 + rng.below(rig.cfg.instr_slots().min(40) - 4);
        let prog = random_program(rig.cfg, &mut rng, len);
        total += rig.check(&prog, steps, &format!("random program, seed {seed}"));
    }
    // Most programs must run long, or the comparison proves little.
    assert!(total >= count * steps / 3, "only {total} steps in all");
    eprintln!("{name}: {total} steps in lockstep");
}

#[test]
fn random_programs_tiny() {
    random_programs("tiny", 150, 2000);
}

#[test]
fn random_programs_small() {
    random_programs("small", 100, 2000);
}

#[test]
fn random_programs_small16() {
    random_programs("small16", 50, 2000);
}

#[test]
fn random_programs_small32() {
    random_programs("small32", 50, 2000);
}
