//! The reference interpreter: the ISA's semantics (spec §5 with the project's
//! fixes), written to be obviously correct. It is the oracle every other
//! engine is checked against.
//!
//! For speed the validated image is pre-decoded into [`Op`]s with slot indices
//! and instruction indices (no column arithmetic in the loop); a HALT sentinel
//! after the last instruction makes "running off the end" halt exactly as the
//! transformer does (an empty instruction column decodes to HALT 0 0); a program
//! filling every slot halts as its PC wraps to 0 after the last one.

use crate::config::Config;
use crate::engine::Engine;
use crate::image::{LoadError, Program};
use crate::isa::{Instr, Opcode, Operand};
use crate::state::{precheck, MachineState, Status};

/// A pre-decoded instruction: operands converted by the kind the ISA table
/// gives them ([`Operand`]): memory operands to slot indices, targets to
/// instruction indices, unused fields to 0. A trap is a HALT that faults
/// (images encode it so), decided in the HALT arm, off the hot path.
#[derive(Clone, Copy, Debug)]
struct Op {
    op: Opcode,
    trap: bool,
    a: u32,
    b: u32,
    c: u32,
}

impl Op {
    const HALT: Op = Op { op: Opcode::Halt, trap: false, a: 0, b: 0, c: 0 };
    const TRAP: Op = Op { op: Opcode::Halt, trap: true, a: 0, b: 0, c: 0 };

    fn decode(ins: Instr, cfg: &Config) -> Op {
        let op = ins.opcode().expect("invariant: a validated image has only defined opcodes");
        let info = op.info();
        let field = |kind: Operand, col: u32| match kind {
            Operand::None => 0,
            Operand::Mem => col - cfg.mem_col(0) as u32,
            Operand::Target => col - cfg.instr_col(0) as u32,
        };
        Op { op, trap: false, a: field(info.a, ins.a), b: field(info.b, ins.b), c: field(info.c, ins.c) }
    }
}

#[derive(Clone)]
pub struct Interp {
    prog: Program,
    ops: Vec<Op>,
    mem: Vec<i32>,
    /// Instruction index; `None` once halted (PC = 0).
    k: Option<usize>,
    steps: u64,
    status: Status,
}

impl Interp {
    /// Validates and loads an image.
    pub fn new(prog: &Program) -> Result<Interp, LoadError> {
        prog.validate()?;
        let mut ops: Vec<Op> = prog.code.iter().map(|&ins| Op::decode(ins, &prog.config)).collect();
        for t in &prog.traps {
            ops[t.index] = Op::TRAP;
        }
        ops.push(Op::HALT);
        Ok(Interp { prog: prog.clone(), ops, mem: prog.data.clone(), k: Some(0), steps: 0, status: Status::Running })
    }

    pub fn config(&self) -> &Config {
        &self.prog.config
    }

    pub fn mem(&self) -> &[i32] {
        &self.mem
    }

    /// The loop behind [`Engine::run`]; `breaks` is indexed by instruction.
    fn exec(&mut self, max_steps: u64, breaks: Option<&[bool]>) -> Status {
        if !self.status.is_running() {
            return self.status.clone();
        }
        let cfg = self.prog.config;
        let Some(mut k) = self.k else {
            return self.status.clone();
        };
        let mem = &mut self.mem;
        let mut steps = self.steps;
        let w = |v: i32| cfg.wrap(v as i64);
        let end = cfg.instr_slots();
        let outcome = loop {
            if steps >= max_steps {
                break Status::Budget;
            }
            let Op { op, trap, a, b, c } = self.ops[k];
            let (a, b, c) = (a as usize, b as usize, c as usize);
            let mut next = k + 1;
            match op {
                Opcode::Halt if trap => {
                    let t = self.prog.trap_at(k).expect("invariant: a trap op has a trap");
                    break Status::Fault { pc: cfg.instr_col(k), message: t.message.clone() };
                }
                Opcode::Halt => {
                    steps += 1;
                    self.k = None;
                    break Status::Halted;
                }
                Opcode::Mov => mem[b] = mem[c],
                Opcode::Add => mem[b] = w(mem[b].wrapping_add(mem[c])),
                Opcode::Jmp => next = c,
                Opcode::Jz => {
                    if mem[b] == 0 {
                        next = c
                    }
                }
                Opcode::Jnz => {
                    if mem[b] != 0 {
                        next = c
                    }
                }
                Opcode::Cmp => {
                    if mem[b] < 0 {
                        next = c
                    }
                }
                Opcode::Inc => mem[b] = w(mem[b].wrapping_add(1)),
                Opcode::Dec => mem[b] = w(mem[b].wrapping_sub(1)),
                Opcode::Shl => mem[b] = w(mem[b] << 1),
                Opcode::Shr => mem[b] >>= 1,
                Opcode::And => mem[b] &= mem[c],
                Opcode::Or => mem[b] |= mem[c],
                Opcode::Xor => mem[b] ^= mem[c],
                Opcode::Sub => mem[b] = w(mem[b].wrapping_sub(mem[c])),
                Opcode::Swap => mem.swap(b, c),
                Opcode::Cmov => {
                    if mem[b] < 0 {
                        mem[b] = mem[c]
                    }
                }
                Opcode::Mulacc => {
                    let v = mem[b];
                    let add = if v < 0 { mem[c] } else { 0 };
                    mem[b] = w((v << 1).wrapping_add(add));
                }
                Opcode::Drol => {
                    let (hi, lo) = (mem[b], mem[c]);
                    let top = |v: i32| (v < 0) as i32;
                    mem[b] = w((hi << 1) | top(lo));
                    mem[c] = w((lo << 1) | top(hi));
                }
                Opcode::Mulstep => {
                    let m = cfg.partner(c);
                    let add = if mem[m] < 0 { mem[c] } else { 0 };
                    mem[b] = w((mem[b] << 1).wrapping_add(add));
                    mem[m] = w(mem[m] << 1);
                }
                Opcode::Divsub => {
                    if cfg.unsigned(mem[b]) >= cfg.unsigned(mem[c]) {
                        mem[b] = cfg.wrap(mem[b] as i64 - mem[c] as i64 - cfg.word_min() as i64);
                    }
                }
                Opcode::Subleq => {
                    let r = w(mem[b].wrapping_sub(mem[a]));
                    mem[b] = r;
                    if r <= 0 {
                        next = c
                    }
                }
                Opcode::Load | Opcode::Store | Opcode::Find => {
                    if let Some(message) = precheck(&self.prog, self.prog.code[k], mem) {
                        break Status::Fault { pc: cfg.instr_col(k), message };
                    }
                    match op {
                        Opcode::Load => mem[b] = mem[cfg.unsigned(mem[c]) as usize],
                        Opcode::Store => {
                            let ptr = cfg.unsigned(mem[c]) as usize;
                            mem[ptr] = mem[b];
                        }
                        _ => {
                            let v = mem[c];
                            let i = mem.iter().position(|&x| x == v).expect("invariant: FIND was prechecked");
                            mem[b] = w(i as i32);
                        }
                    }
                }
            }
            steps += 1;
            k = next;
            if k == end {
                // Past the last column the PC wraps to 0: a program filling every instruction
                // slot halts right after its last instruction, as the transformer does.
                self.k = None;
                break Status::Halted;
            }
            if breaks.is_some_and(|b| b.get(k) == Some(&true)) {
                break Status::Running;
            }
        };
        if self.k.is_some() {
            self.k = Some(k);
        }
        self.steps = steps;
        if outcome != Status::Budget {
            self.status = outcome.clone();
        }
        outcome
    }
}

impl Engine for Interp {
    fn name(&self) -> &'static str {
        "interp"
    }

    fn program(&self) -> &Program {
        &self.prog
    }

    fn run(&mut self, max_steps: u64, breaks: Option<&[bool]>) -> Status {
        self.exec(max_steps, breaks)
    }

    fn status(&self) -> Status {
        self.status.clone()
    }

    fn steps(&self) -> u64 {
        self.steps
    }

    fn pc(&self) -> usize {
        self.k.map_or(0, |k| self.prog.config.instr_col(k))
    }

    fn read_slot(&self, slot: usize) -> i32 {
        self.mem[slot]
    }

    fn write_slot(&mut self, slot: usize, value: i64) {
        self.mem[slot] = self.prog.config.wrap(value);
    }

    fn state(&self) -> MachineState {
        MachineState { pc: self.pc(), mem: self.mem.clone() }
    }
}
