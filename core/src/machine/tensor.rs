//! The machine state as one `d × n` f32 tensor, stored column-major (each
//! column's `d` values contiguous: the FFNs work column by column), plus the
//! encoder from a [`Program`] and the decoder back to ISA state.

use super::layout::{Layout, Region};
use crate::config::Config;
use crate::image::Program;
use crate::isa::Instr;
use crate::state::MachineState;

#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub d: usize,
    pub n: usize,
    /// `data[col * d + row]`.
    pub data: Vec<f32>,
}

impl Tensor {
    pub fn zeros(d: usize, n: usize) -> Tensor {
        Tensor { d, n, data: vec![0.0; d * n] }
    }

    #[inline(always)]
    pub fn get(&self, row: usize, col: usize) -> f32 {
        self.data[col * self.d + row]
    }

    #[inline(always)]
    pub fn set(&mut self, row: usize, col: usize, v: f32) {
        self.data[col * self.d + row] = v;
    }

    pub fn col(&self, col: usize) -> &[f32] {
        &self.data[col * self.d..(col + 1) * self.d]
    }

    /// Writes `value`'s low `region.len` bits, bipolar.
    pub fn put_bits(&mut self, region: Region, col: usize, value: u64) {
        for i in 0..region.len {
            self.set(region.bit(i), col, if value >> i & 1 == 1 { 1.0 } else { -1.0 });
        }
    }

    /// Reads a field as unsigned bits: a bit is 1 when its row is positive
    /// (absent values, 0.0, read as 0).
    pub fn bits(&self, region: Region, col: usize) -> u64 {
        // The field's rows top down are its bits from the most significant (`Region::bit`).
        let at = col * self.d + region.start;
        self.data[at..at + region.len].iter().fold(0, |v, &x| v << 1 | (x > 0.0) as u64)
    }
}

/// Builds the initial tensor of a program: instructions, memory, PC, position
/// and tag encodings, indicator. The weights never see the program; this is
/// its only way in.
pub fn encode(prog: &Program, lay: &Layout) -> Tensor {
    let cfg = &prog.config;
    let mut x = Tensor::zeros(lay.d, lay.n);
    for col in 1..lay.n {
        x.put_bits(lay.pos, col, col as u64);
    }
    for col in 0..cfg.s() {
        x.set(lay.indicator.start, col, 1.0);
    }
    for (slot, &w) in prog.data.iter().enumerate() {
        let col = cfg.mem_col(slot);
        x.put_bits(lay.mem, col, cfg.unsigned(w) as u64);
        x.put_bits(lay.tag, col, slot as u64);
    }
    for (k, ins) in prog.code.iter().enumerate() {
        let col = cfg.instr_col(k);
        x.put_bits(lay.cmd_a, col, ins.a as u64);
        x.put_bits(lay.cmd_b, col, ins.b as u64);
        x.put_bits(lay.cmd_c, col, ins.c as u64);
    }
    x.put_bits(lay.pc, 0, cfg.start_pc() as u64);
    x
}

// Reading the tensor back as ISA state.
pub fn pc(x: &Tensor, lay: &Layout) -> usize {
    x.bits(lay.pc, 0) as usize
}

pub fn word(x: &Tensor, lay: &Layout, cfg: &Config, slot: usize) -> i32 {
    cfg.wrap(x.bits(lay.mem, cfg.mem_col(slot)) as i64)
}

pub fn mem(x: &Tensor, lay: &Layout, cfg: &Config) -> Vec<i32> {
    (0..cfg.mem_slots).map(|s| word(x, lay, cfg, s)).collect()
}

/// The instruction stored at column `col` (an empty column reads as HALT).
pub fn instr(x: &Tensor, lay: &Layout, col: usize) -> Instr {
    let f = |r| x.bits(r, col) as u32;
    Instr { a: f(lay.cmd_a), b: f(lay.cmd_b), c: f(lay.cmd_c) }
}

pub fn state(x: &Tensor, lay: &Layout, cfg: &Config) -> MachineState {
    MachineState { pc: pc(x, lay), mem: mem(x, lay, cfg) }
}

/// The signed N-bit value of a word field in column 0 (scratch registers).
pub fn register(x: &Tensor, cfg: &Config, region: Region) -> i32 {
    cfg.wrap(x.bits(region, 0) as i64)
}

/// Writes a memory word into the tensor (host input).
pub fn write_word(x: &mut Tensor, lay: &Layout, cfg: &Config, slot: usize, value: i64) {
    x.put_bits(lay.mem, cfg.mem_col(slot), cfg.unsigned(cfg.wrap(value)) as u64);
}
