//! The reference interpreter: the ISA's semantics (spec §5 with the project's
//! fixes), written to be obviously correct. It is the oracle every other
//! engine is checked against.
//!
//! For speed the validated image is pre-decoded into [`Op`]s with slot indices
//! and instruction indices (no column arithmetic in the loop); a HALT sentinel
//! after the last instruction makes "running off the end" halt exactly as the
//! transformer does (an empty instruction column decodes to HALT 0 0).

use crate::config::Config;
use crate::engine::Engine;
use crate::image::{LoadError, Program};
use crate::isa::{Instr, Opcode};
use crate::state::{precheck, MachineState, Status};

/// A pre-decoded instruction: memory operands are slot indices, targets are
/// instruction indices.
#[derive(Clone, Copy, Debug)]
enum Op {
    Halt,
    Trap,
    Mov(u32, u32),
    Add(u32, u32),
    Jmp(u32),
    Jz(u32, u32),
    Jnz(u32, u32),
    Inc(u32),
    Dec(u32),
    Shl(u32),
    Shr(u32),
    Cmp(u32, u32),
    Load(u32, u32),
    And(u32, u32),
    Or(u32, u32),
    Xor(u32, u32),
    Sub(u32, u32),
    Find(u32, u32),
    Swap(u32, u32),
    Cmov(u32, u32),
    Mulacc(u32, u32),
    Store(u32, u32),
    Subleq(u32, u32, u32),
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
        let cfg = prog.config;
        let slot = |col: u32| col - cfg.mem_col(0) as u32;
        let tgt = |col: u32| col - cfg.instr_col(0) as u32;
        let mut ops: Vec<Op> = prog
            .code
            .iter()
            .map(|&ins| {
                let Instr { a, b, c } = ins;
                match ins.opcode().expect("validated") {
                    Opcode::Halt => Op::Halt,
                    Opcode::Mov => Op::Mov(slot(b), slot(c)),
                    Opcode::Add => Op::Add(slot(b), slot(c)),
                    Opcode::Jmp => Op::Jmp(tgt(c)),
                    Opcode::Jz => Op::Jz(slot(b), tgt(c)),
                    Opcode::Jnz => Op::Jnz(slot(b), tgt(c)),
                    Opcode::Inc => Op::Inc(slot(b)),
                    Opcode::Dec => Op::Dec(slot(b)),
                    Opcode::Shl => Op::Shl(slot(b)),
                    Opcode::Shr => Op::Shr(slot(b)),
                    Opcode::Cmp => Op::Cmp(slot(b), tgt(c)),
                    Opcode::Load => Op::Load(slot(b), slot(c)),
                    Opcode::And => Op::And(slot(b), slot(c)),
                    Opcode::Or => Op::Or(slot(b), slot(c)),
                    Opcode::Xor => Op::Xor(slot(b), slot(c)),
                    Opcode::Sub => Op::Sub(slot(b), slot(c)),
                    Opcode::Find => Op::Find(slot(b), slot(c)),
                    Opcode::Swap => Op::Swap(slot(b), slot(c)),
                    Opcode::Cmov => Op::Cmov(slot(b), slot(c)),
                    Opcode::Mulacc => Op::Mulacc(slot(b), slot(c)),
                    Opcode::Store => Op::Store(slot(b), slot(c)),
                    Opcode::Subleq => Op::Subleq(slot(a), slot(b), tgt(c)),
                }
            })
            .collect();
        for t in &prog.traps {
            ops[t.index] = Op::Trap;
        }
        ops.push(Op::Halt);
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
        let outcome = loop {
            if steps >= max_steps {
                break Status::Budget;
            }
            let op = self.ops[k];
            let mut next = k + 1;
            match op {
                Op::Halt => {
                    steps += 1;
                    self.k = None;
                    break Status::Halted;
                }
                Op::Trap => {
                    let t = self.prog.trap_at(k).expect("trap op has a trap");
                    break Status::Fault { pc: cfg.instr_col(k), message: t.message.clone() };
                }
                Op::Mov(b, c) => mem[b as usize] = mem[c as usize],
                Op::Add(b, c) => mem[b as usize] = w(mem[b as usize].wrapping_add(mem[c as usize])),
                Op::Jmp(t) => next = t as usize,
                Op::Jz(b, t) => {
                    if mem[b as usize] == 0 {
                        next = t as usize
                    }
                }
                Op::Jnz(b, t) => {
                    if mem[b as usize] != 0 {
                        next = t as usize
                    }
                }
                Op::Inc(b) => mem[b as usize] = w(mem[b as usize].wrapping_add(1)),
                Op::Dec(b) => mem[b as usize] = w(mem[b as usize].wrapping_sub(1)),
                Op::Shl(b) => mem[b as usize] = w(mem[b as usize] << 1),
                Op::Shr(b) => mem[b as usize] >>= 1,
                Op::Cmp(b, t) => {
                    if mem[b as usize] < 0 {
                        next = t as usize
                    }
                }
                Op::And(b, c) => mem[b as usize] &= mem[c as usize],
                Op::Or(b, c) => mem[b as usize] |= mem[c as usize],
                Op::Xor(b, c) => mem[b as usize] ^= mem[c as usize],
                Op::Sub(b, c) => mem[b as usize] = w(mem[b as usize].wrapping_sub(mem[c as usize])),
                Op::Swap(b, c) => mem.swap(b as usize, c as usize),
                Op::Cmov(b, c) => {
                    if mem[b as usize] < 0 {
                        mem[b as usize] = mem[c as usize]
                    }
                }
                Op::Mulacc(b, c) => {
                    let v = mem[b as usize];
                    let add = if v < 0 { mem[c as usize] } else { 0 };
                    mem[b as usize] = w((v << 1).wrapping_add(add));
                }
                Op::Subleq(a, b, t) => {
                    let r = w(mem[b as usize].wrapping_sub(mem[a as usize]));
                    mem[b as usize] = r;
                    if r <= 0 {
                        next = t as usize
                    }
                }
                Op::Load(..) | Op::Store(..) | Op::Find(..) => {
                    let ins = self.prog.code[k];
                    if let Some(message) = precheck(&cfg, ins, mem) {
                        break Status::Fault { pc: cfg.instr_col(k), message };
                    }
                    match op {
                        Op::Load(b, c) => mem[b as usize] = mem[cfg.unsigned(mem[c as usize]) as usize],
                        Op::Store(b, c) => {
                            let ptr = cfg.unsigned(mem[c as usize]) as usize;
                            mem[ptr] = mem[b as usize];
                        }
                        Op::Find(b, c) => {
                            let v = mem[c as usize];
                            let i = mem.iter().position(|&x| x == v).expect("prechecked");
                            mem[b as usize] = w(i as i32);
                        }
                        _ => unreachable!(),
                    }
                }
            }
            steps += 1;
            k = next;
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
