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

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HeadTrace {
    pub name: &'static str,
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
