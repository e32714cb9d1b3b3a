//! Shared helpers for the transformer tests: program construction, a small
//! PRNG, and lockstep checking on both engines.
#![allow(dead_code)]

use loom_core::machine::lockstep::lockstep;
use loom_core::machine::{DenseEngine, SparseEngine};
use loom_core::{image::Program, isa::Instr, isa::Opcode, Config, Interp};

/// xorshift64*: deterministic, seedable, dependency-free.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub fn cfg(name: &str) -> Config {
    match name {
        "tiny16" => Config::custom(64, 16, 8).unwrap(),
        "small16" => Config::custom(128, 16, 32).unwrap(),
        "tiny32" => Config::custom(64, 32, 8).unwrap(),
        "small32" => Config::custom(128, 32, 32).unwrap(),
        other => Config::preset(other).unwrap(),
    }
}

/// A random word: the whole range for 32-bit words, 16-bit values (wrapped) below.
pub fn random_word(cfg: &Config, rng: &mut Rng) -> i64 {
    if cfg.word_bits == 32 {
        rng.next() as i32 as i64
    } else {
        rng.next() as i16 as i64
    }
}

pub fn program(cfg: Config, code: Vec<Instr>, data: &[(usize, i64)]) -> Program {
    let mut p = Program::empty(cfg);
    p.locs = vec![None; code.len()];
    p.code = code;
    for &(slot, v) in data {
        p.data[slot] = cfg.wrap(v);
    }
    p
}

/// Memory column of a slot, as an operand.
pub fn m(cfg: &Config, slot: usize) -> u32 {
    cfg.mem_col(slot) as u32
}

/// Instruction column of instruction `k`, as a jump target.
pub fn t(cfg: &Config, k: usize) -> u32 {
    cfg.instr_col(k) as u32
}

pub fn ext(op: Opcode, b: u32, c: u32) -> Instr {
    Instr::ext(op, b, c)
}

/// Engines for one configuration, reused across programs (weights are built once).
pub struct Rig {
    pub cfg: Config,
    pub sparse: SparseEngine,
    pub dense: Option<DenseEngine>,
}

impl Rig {
    pub fn new(name: &str, with_dense: bool) -> Rig {
        let cfg = cfg(name);
        let p = Program::empty(cfg);
        let sparse = SparseEngine::new(&p).unwrap();
        let dense = with_dense.then(|| DenseEngine::new(&p).unwrap());
        Rig { cfg, sparse, dense }
    }

    /// Runs `prog` on every engine in lockstep with the interpreter; panics
    /// with the divergence. Returns the steps run.
    pub fn check(&mut self, prog: &Program, max_steps: u64, what: &str) -> u64 {
        self.sparse.reload(prog).unwrap();
        let mut i = Interp::new(prog).unwrap();
        if let Err(d) = lockstep(&mut self.sparse, &mut i, max_steps) {
            panic!("{} sparse, {what}: {d}", self.cfg.name);
        }
        if let Some(dense) = self.dense.as_mut() {
            dense.reload(prog).unwrap();
            let mut i = Interp::new(prog).unwrap();
            if let Err(d) = lockstep(dense, &mut i, max_steps) {
                panic!("{} dense, {what}: {d}", self.cfg.name);
            }
        }
        loom_core::Engine::steps(&self.sparse)
    }
}
