//! The machine a session runs: one of the three engines behind one type, so
//! the session can ask the transformer for its tensor and traced steps, and
//! save and restore any engine for stepping back.

use loom_core::machine::layout::Layout;
use loom_core::machine::tensor::Tensor;
use loom_core::machine::trace::StepTrace;
use loom_core::machine::{DenseEngine, SparseEngine};
use loom_core::state::Status;
use loom_core::{Engine, Interp, Program};

/// Which engine executes the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// The transformer, sparse argmax engine (the product engine).
    Sparse,
    /// The reference interpreter (no tensor).
    Interp,
    /// The transformer, dense reference (slow: small configurations only).
    Dense,
}

/// Configurations with at most this many columns may use the dense engine.
pub const DENSE_MAX_N: usize = 128;

impl EngineKind {
    pub const ALL: [EngineKind; 3] = [EngineKind::Sparse, EngineKind::Interp, EngineKind::Dense];

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Sparse => "sparse",
            EngineKind::Interp => "interp",
            EngineKind::Dense => "dense",
        }
    }

    pub fn by_name(name: &str) -> Option<EngineKind> {
        EngineKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What a picker shows.
    pub fn label(self) -> &'static str {
        match self {
            EngineKind::Sparse => "transformer (sparse)",
            EngineKind::Interp => "interpreter",
            EngineKind::Dense => "transformer (dense)",
        }
    }

    /// Whether the engine is offered for a configuration of `n` columns.
    pub fn offered(self, n: usize) -> bool {
        self != EngineKind::Dense || n <= DENSE_MAX_N
    }

    pub fn is_transformer(self) -> bool {
        self != EngineKind::Interp
    }
}

pub enum Machine {
    Interp(Interp),
    Sparse(SparseEngine),
    Dense(DenseEngine),
}

/// A saved machine. The transformer's whole state is its tensor.
#[derive(Clone)]
pub enum Snapshot {
    Interp(Box<Interp>),
    Tensor(Tensor),
}

impl Machine {
    pub fn load(kind: EngineKind, prog: &Program) -> Result<Machine, String> {
        let e = |e: loom_core::image::LoadError| e.to_string();
        Ok(match kind {
            EngineKind::Interp => Machine::Interp(Interp::new(prog).map_err(e)?),
            EngineKind::Sparse => Machine::Sparse(SparseEngine::new(prog).map_err(e)?),
            EngineKind::Dense => Machine::Dense(DenseEngine::new(prog).map_err(e)?),
        })
    }

    pub fn engine(&self) -> &dyn Engine {
        match self {
            Machine::Interp(m) => m,
            Machine::Sparse(m) => m,
            Machine::Dense(m) => m,
        }
    }

    pub fn engine_mut(&mut self) -> &mut dyn Engine {
        match self {
            Machine::Interp(m) => m,
            Machine::Sparse(m) => m,
            Machine::Dense(m) => m,
        }
    }

    /// The state tensor (transformers only).
    pub fn tensor(&self) -> Option<&Tensor> {
        match self {
            Machine::Interp(_) => None,
            Machine::Sparse(m) => Some(m.tensor()),
            Machine::Dense(m) => Some(m.tensor()),
        }
    }

    pub fn layout(&self) -> Option<&Layout> {
        match self {
            Machine::Interp(_) => None,
            Machine::Sparse(m) => Some(m.layout()),
            Machine::Dense(m) => Some(m.layout()),
        }
    }

    /// One instruction, with the per-layer trace when the engine is a transformer.
    pub fn step_traced(&mut self) -> (Status, Option<StepTrace>) {
        match self {
            Machine::Interp(m) => (m.step(), None),
            Machine::Sparse(m) => {
                let (s, t) = m.step_traced();
                (s, Some(t))
            }
            Machine::Dense(m) => {
                let (s, t) = m.step_traced();
                (s, Some(t))
            }
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        match self {
            Machine::Interp(m) => Snapshot::Interp(Box::new(m.clone())),
            Machine::Sparse(m) => Snapshot::Tensor(m.tensor().clone()),
            Machine::Dense(m) => Snapshot::Tensor(m.tensor().clone()),
        }
    }

    /// Puts a snapshot of this machine back. A transformer restarts (keeping
    /// its weights) and takes the tensor; its own step counter then counts
    /// from the snapshot, so callers keep the absolute count themselves.
    pub fn restore(&mut self, snap: &Snapshot) {
        match (self, snap) {
            (Machine::Interp(m), Snapshot::Interp(s)) => *m = (**s).clone(),
            (Machine::Sparse(m), Snapshot::Tensor(x)) => restart(m, x),
            (Machine::Dense(m), Snapshot::Tensor(x)) => restart(m, x),
            _ => unreachable!("a snapshot is restored into the engine kind that took it"),
        }
    }
}

fn restart<B: loom_core::machine::Backend>(m: &mut loom_core::machine::Transformer<B>, x: &Tensor) {
    let prog = m.program().clone();
    m.reload(&prog).expect("the loaded program validated before");
    m.set_tensor(x.clone());
}
