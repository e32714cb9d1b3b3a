//! What one step looked like, for the UI: the tensor after each layer and,
//! per head, where each source column's value went. Engines fill a
//! [`StepTrace`] only when asked (`Transformer::step_traced`).

use super::tensor::Tensor;

/// One source column's argmax outcome (spec §7). Sources that only matched
/// themselves (the common case: every column with a key sees itself) are not recorded.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Match {
    pub source: usize,
    /// One target, or two when the 50/50 tie fired (lower column first).
    pub targets: Vec<usize>,
    pub best1: f32,
    pub best2: f32,
    pub tie: bool,
}

/// What a head is for, declared with its weights (`weights::Head::role`): the
/// UI and the explanations ask the role, never the layer's or head's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HeadRole {
    /// L1: column 0 reads the instruction at the PC.
    Fetch,
    /// L2: column 0 reads an operand M[a], M[b] or M[c].
    ReadOperand,
    /// L3: column 0 reads the word a pointer names (LOAD, and what STORE/SWAP overwrite).
    Load,
    /// L3: column 0 finds the memory column holding a value (FIND).
    Find,
    /// L5: column 0 writes the result into column b.
    Write,
    /// L5: column 0 writes a second column (SWAP's other operand, STORE's target).
    SecondWrite,
}

impl HeadRole {
    /// Whether the head's matches land on memory it writes (otherwise it reads them).
    pub fn writes_memory(self) -> bool {
        matches!(self, HeadRole::Write | HeadRole::SecondWrite)
    }

    /// Whether its match reads a memory column.
    pub fn reads_memory(self) -> bool {
        matches!(self, HeadRole::ReadOperand | HeadRole::Load | HeadRole::Find)
    }

    /// What the head does, in a phrase.
    pub fn doc(self) -> &'static str {
        match self {
            HeadRole::Fetch => "reads the instruction at the program counter",
            HeadRole::ReadOperand => "reads an operand from memory",
            HeadRole::Load => "reads the memory word a pointer names",
            HeadRole::Find => "finds the memory column holding a value",
            HeadRole::Write => "writes the result into memory",
            HeadRole::SecondWrite => "writes a second memory column",
        }
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HeadTrace {
    pub name: &'static str,
    pub role: HeadRole,
    pub matches: Vec<Match>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LayerTrace {
    pub name: &'static str,
    pub heads: Vec<HeadTrace>,
    /// The tensor after this layer.
    pub after: Tensor,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepTrace {
    pub layers: Vec<LayerTrace>,
}

/// The best two of a score scan, ties toward the lower column.
#[derive(Clone, Copy, Debug)]
pub struct BestTwo {
    pub j1: usize,
    pub s1: f32,
    pub j2: usize,
    pub s2: f32,
}

impl BestTwo {
    /// Scans `(column, score)` in ascending column order.
    pub fn scan(scores: impl Iterator<Item = (usize, f32)>) -> BestTwo {
        let mut b = BestTwo { j1: usize::MAX, s1: f32::NEG_INFINITY, j2: usize::MAX, s2: f32::NEG_INFINITY };
        for (j, s) in scores {
            if s > b.s1 {
                (b.j2, b.s2) = (b.j1, b.s1);
                (b.j1, b.s1) = (j, s);
            } else if s > b.s2 {
                (b.j2, b.s2) = (j, s);
            }
        }
        b
    }

    /// The spec's rule: a gap under 1.0 splits the value 50/50.
    pub fn tie(&self) -> bool {
        self.s1 - self.s2 < 1.0
    }

    pub fn record(&self, source: usize) -> Option<Match> {
        let tie = self.tie();
        let targets = if tie { vec![self.j1.min(self.j2), self.j1.max(self.j2)] } else { vec![self.j1] };
        (targets != [source]).then_some(Match { source, targets, best1: self.s1, best2: self.s2, tie })
    }
}
