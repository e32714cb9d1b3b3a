//! The transformer that is the computer (spec §1–7): the state layout, the
//! weights of the eight layers (derived from the configuration alone), and
//! two engines that apply them — the dense reference and the sparse argmax
//! engine, which agree bit for bit.
//!
//! [`Transformer`] wraps either engine as a [`crate::Engine`]: before every
//! step it decodes the PC, the current instruction and (for the pointer
//! operations) memory *from the tensor*, applies the shared fault rules
//! ([`precheck`], [`trap_message`]), and only then runs the eight layers.

pub mod dense;
pub mod layout;
pub mod lockstep;
pub mod sparse;
pub mod tensor;
pub mod trace;
pub mod weights;

use crate::engine::Engine;
use crate::image::{LoadError, Program};
use crate::isa::Opcode;
use crate::state::{precheck, trap_message, Status};
use layout::Layout;
use tensor::Tensor;
use trace::StepTrace;
use weights::Weights;

/// A way to apply the eight layers to the tensor.
pub trait Backend {
    const NAME: &'static str;
    fn new(weights: &Weights) -> Self;
    /// One forward pass (one instruction), optionally recording a trace.
    fn forward(&mut self, x: &mut Tensor, trace: Option<&mut StepTrace>);
    /// Applies layer `index` alone (for layer-by-layer comparisons).
    fn forward_layer(&mut self, index: usize, x: &mut Tensor);
    /// The host changed column `col` of the tensor between steps (`None`:
    /// any column), so engines that cache per column know to look again.
    fn touched(&mut self, _col: Option<usize>) {}
    /// Bytes of the engine's own caches and weight copies.
    fn bytes(&self) -> usize {
        0
    }
}

/// What one machine holds in memory, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemoryUse {
    pub tensor: usize,
    /// The engine's caches, buffers and its own form of the weights.
    pub engine: usize,
    /// The weights as built (entries of every head and unit).
    pub weights: usize,
}

/// A transformer's state between steps ([`Transformer::save`]): the
/// columns where the tensor differs from the program's encoding (a run
/// changes column 0, the scratch columns and the memory words it wrote, not
/// the instructions), so a checkpoint of the biggest machine holds what the
/// run wrote rather than a copy of a tensor of tens of megabytes.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The differing columns, ascending, and their rows (`d` each, in order).
    cols: Vec<u32>,
    data: Vec<f32>,
    steps: u64,
    status: Status,
}

impl Saved {
    /// Bytes the saved columns hold.
    pub fn bytes(&self) -> usize {
        self.cols.len() * std::mem::size_of::<u32>() + self.data.len() * std::mem::size_of::<f32>()
    }
}

pub type DenseEngine = Transformer<dense::Dense>;
pub type SparseEngine = Transformer<sparse::Sparse>;

pub struct Transformer<B: Backend> {
    prog: Program,
    weights: Weights,
    backend: B,
    x: Tensor,
    steps: u64,
    status: Status,
    /// Memory words decoded for the fault check (reused: no allocation per step).
    mem: Vec<i32>,
}

impl<B: Backend> Transformer<B> {
    /// Validates the program, derives the weights for its configuration and encodes the tensor.
    pub fn new(prog: &Program) -> Result<Self, LoadError> {
        prog.validate()?;
        let weights = Weights::build(&prog.config);
        Ok(Self::with_backend(prog, B::new(&weights), weights))
    }

    /// As [`Transformer::new`] with a prepared backend (e.g. sparse with chosen shortcuts).
    pub fn with_backend(prog: &Program, backend: B, weights: Weights) -> Self {
        let x = tensor::encode(prog, &weights.layout);
        let mem = vec![0; prog.config.mem_slots];
        Transformer { prog: prog.clone(), weights, backend, x, steps: 0, status: Status::Running, mem }
    }

    /// Starts over with another program of the same configuration, keeping
    /// the weights and the backend (and its caches, which notice the change).
    pub fn reload(&mut self, prog: &Program) -> Result<(), LoadError> {
        prog.validate()?;
        assert_eq!(prog.config, self.prog.config, "reload needs the same configuration");
        self.x = tensor::encode(prog, &self.weights.layout);
        self.backend.touched(None);
        self.prog = prog.clone();
        self.steps = 0;
        self.status = Status::Running;
        Ok(())
    }

    /// The machine between steps, to come back to: the tensor is the whole
    /// state; the step count and status are this wrapper's bookkeeping.
    pub fn save(&self) -> Saved {
        let origin = tensor::encode(&self.prog, &self.weights.layout);
        let (mut cols, mut data) = (Vec::new(), Vec::new());
        for j in 0..self.x.n {
            if !sparse::same_bits(self.x.col(j), origin.col(j)) {
                cols.push(j as u32);
                data.extend_from_slice(self.x.col(j));
            }
        }
        Saved { cols, data, steps: self.steps, status: self.status.clone() }
    }

    /// Returns to a saved point of this machine (same program and weights);
    /// the backend's caches notice that every column may have changed.
    pub fn restore(&mut self, saved: &Saved) {
        self.x = tensor::encode(&self.prog, &self.weights.layout);
        let d = self.x.d;
        for (&j, col) in saved.cols.iter().zip(saved.data.chunks_exact(d)) {
            let j = j as usize;
            self.x.data[j * d..(j + 1) * d].copy_from_slice(col);
        }
        self.backend.touched(None);
        self.steps = saved.steps;
        self.status = saved.status.clone();
    }

    /// Bytes for the tensor, the engine's caches and the weights.
    pub fn memory(&self) -> MemoryUse {
        let f = std::mem::size_of::<f32>();
        MemoryUse { tensor: self.x.data.len() * f, engine: self.backend.bytes(), weights: self.weights.bytes() }
    }

    pub fn layout(&self) -> &Layout {
        &self.weights.layout
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    pub fn tensor(&self) -> &Tensor {
        &self.x
    }

    /// The fault that stops the step at the current PC, decoded from the tensor.
    /// Only the words the rule reads are decoded: the pointer for LOAD/STORE, all for FIND.
    fn fault(&mut self, pc: usize) -> Option<String> {
        if let Some(m) = trap_message(&self.prog, pc) {
            return Some(m);
        }
        let (cfg, lay) = (self.prog.config, self.weights.layout);
        let ins = tensor::instr(&self.x, &lay, pc);
        match ins.opcode() {
            Some(Opcode::Load | Opcode::Store) => {
                let slot = ins.c as usize - cfg.mem_col(0);
                self.mem[slot] = tensor::word(&self.x, &lay, &cfg, slot);
                precheck(&self.prog, ins, &self.mem)
            }
            Some(Opcode::Find) => {
                for slot in 0..cfg.mem_slots {
                    self.mem[slot] = tensor::word(&self.x, &lay, &cfg, slot);
                }
                precheck(&self.prog, ins, &self.mem)
            }
            Some(_) => None,
            None => Some(format!("undefined opcode {} at column {pc}", ins.a)),
        }
    }

    /// One instruction; `trace` receives the per-layer record when given.
    fn advance(&mut self, trace: Option<&mut StepTrace>) -> Status {
        if !self.status.is_running() {
            return self.status.clone();
        }
        let pc = tensor::pc(&self.x, self.layout());
        if let Some(message) = self.fault(pc) {
            self.status = Status::Fault { pc, message };
            return self.status.clone();
        }
        self.backend.forward(&mut self.x, trace);
        self.steps += 1;
        if tensor::pc(&self.x, self.layout()) == 0 {
            self.status = Status::Halted;
        }
        self.status.clone()
    }

    /// One instruction with the tensor after every layer and every head's matches.
    pub fn step_traced(&mut self) -> (Status, StepTrace) {
        let mut t = StepTrace::default();
        let s = self.advance(Some(&mut t));
        (s, t)
    }
}

impl<B: Backend> Engine for Transformer<B> {
    fn name(&self) -> &'static str {
        B::NAME
    }

    fn program(&self) -> &Program {
        &self.prog
    }

    fn run(&mut self, max_steps: u64, breaks: Option<&[bool]>) -> Status {
        loop {
            if !self.status.is_running() {
                return self.status.clone();
            }
            if self.steps >= max_steps {
                return Status::Budget;
            }
            let s = self.advance(None);
            if !s.is_running() {
                return s;
            }
            let k = self.pc().wrapping_sub(self.prog.config.instr_col(0));
            if breaks.is_some_and(|b| b.get(k) == Some(&true)) {
                return Status::Running;
            }
        }
    }

    fn status(&self) -> Status {
        self.status.clone()
    }

    fn steps(&self) -> u64 {
        self.steps
    }

    fn pc(&self) -> usize {
        tensor::pc(&self.x, self.layout())
    }

    fn read_slot(&self, slot: usize) -> i32 {
        tensor::word(&self.x, self.layout(), &self.prog.config, slot)
    }

    fn write_slot(&mut self, slot: usize, value: i64) {
        let (lay, cfg) = (self.weights.layout, self.prog.config);
        tensor::write_word(&mut self.x, &lay, &cfg, slot, value);
        self.backend.touched(Some(cfg.mem_col(slot)));
    }
}
