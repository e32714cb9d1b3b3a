//! A run that keeps its state tensors: what `loom state` writes and what the
//! page's "Download state" must equal. It lives in the façade (not in
//! `export`, which only formats files) because it drives a [`Machine`].

use super::{EngineKind, Machine};
use crate::engine::Engine;
use crate::image::Program;
use crate::machine::tensor::Tensor;
use crate::state::Status;

/// The states of a run, in order.
#[derive(Debug)]
pub struct Run {
    /// The initial state and the state after every instruction, or only the last state.
    pub states: Vec<Tensor>,
    /// Instructions executed.
    pub steps: u64,
    pub halted: bool,
}

impl Run {
    pub fn last(&self) -> &Tensor {
        self.states.last().expect("a run has at least its initial state")
    }
}

/// A run on a transformer engine (dense, the reference, or sparse, equal to
/// it bit for bit) for up to `steps` instructions or until the program halts,
/// keeping every state when `every` is set and otherwise the last. A run-time
/// fault is an error, located at its source line.
pub fn run_states(prog: &Program, engine: EngineKind, steps: u64, every: bool) -> Result<Run, String> {
    if !engine.is_transformer() {
        return Err(format!(
            "the {} engine has no state tensor: use a transformer engine (dense, sparse)",
            engine.name()
        ));
    }
    let mut m = Machine::new(engine, prog).map_err(|e| e.to_string())?;
    let tensor = |m: &Machine| m.tensor().expect("invariant: a transformer has a tensor").clone();
    let mut out = Run { states: vec![tensor(&m)], steps: 0, halted: false };
    while !out.halted && m.steps() < steps {
        match m.step() {
            Status::Fault { pc, message } => {
                let line = prog.line_at_pc(pc).map(|l| format!(" (line {l})")).unwrap_or_default();
                return Err(format!("fault after {} steps at column {pc}{line}: {message}", m.steps()));
            }
            status => {
                if !every {
                    out.states.clear();
                }
                out.states.push(tensor(&m));
                out.steps = m.steps();
                out.halted = !status.is_running();
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{asm, Config};

    fn tiny(src: &str) -> Program {
        asm::assemble(src, Config::preset("tiny").unwrap()).unwrap()
    }

    const COUNTDOWN: &str = ".data n = 3\nloop: DEC n\nJNZ n, loop\nHALT\n";

    #[test]
    fn runs_keep_every_state_or_the_last() {
        let prog = tiny(COUNTDOWN);
        let every = run_states(&prog, EngineKind::Dense, 100, true).unwrap();
        assert_eq!((every.states.len(), every.steps, every.halted), (8, 7, true));
        let sparse = run_states(&prog, EngineKind::Sparse, 100, true).unwrap();
        assert_eq!(sparse.states, every.states, "sparse and dense states are the same bits");
        let last = run_states(&prog, EngineKind::Dense, 4, false).unwrap();
        assert_eq!((last.states.len(), last.steps, last.halted), (1, 4, false));
        assert_eq!(last.last(), &every.states[4]);
        let start = run_states(&prog, EngineKind::Dense, 0, false).unwrap();
        assert_eq!(start.last(), &every.states[0]);
        assert!(run_states(&prog, EngineKind::Interp, 1, false).unwrap_err().contains("use a transformer engine"));
    }

    #[test]
    fn a_fault_is_an_error_with_its_line() {
        let prog = tiny(".data p = 100\n.data t\nLOAD t, p\nHALT\n");
        let e = run_states(&prog, EngineKind::Dense, 10, true).err().unwrap();
        assert!(e.starts_with("fault after 0 steps") && e.contains("(line 3)"), "{e}");
    }
}
