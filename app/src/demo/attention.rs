//! Which array elements a step touched, read off the attention heads' matches
//! (no instrumentation): the heads of L2 (read M[a], M[b], M[c]) and L3
//! (LOAD's indirect read, FIND) read memory columns, the heads of L5 write them.
//! Only the working column's matches count: its query carries the current
//! instruction's addresses, while other columns' matches are incidental (the
//! FIND head pairs up memory columns holding equal values on every step).
//! A memory column is `config.mem_col(slot)`; the symbol table maps slots to
//! array elements.

use loom_core::frontend::Config;
use loom_core::frontend::{HeadRole, StepTrace};

/// One head's match in one step: (the head's role, source column, target columns).
/// Heads whose role writes memory (L5's) write what they match; every other
/// head that lands on a memory column is reading it. L5's "write b" head
/// matches operand b of every instruction (adding a zero difference when
/// nothing changes), so a step that only tests an element in place
/// (`JNZ values[0]`) also counts as a write: the attention did touch it.
pub type AttnMatch = (HeadRole, usize, Vec<usize>);

/// Column 0, where the instruction is decoded (spec §3).
const WORKING_COLUMN: usize = 0;

/// The matches of a traced step (`Transformer::step_traced`) in the form
/// [`crate::demo::DemoRunner::view`] takes; concatenate several steps' to
/// highlight what they touched together.
pub fn trace_matches(trace: &StepTrace) -> Vec<AttnMatch> {
    trace
        .layers
        .iter()
        .flat_map(|l| l.heads.iter().flat_map(|h| h.matches.iter().map(move |m| (h.role, m.source, m.targets.clone()))))
        .collect()
}

/// Elements of the array at slots `first..first + len` that the matches read
/// and wrote, each in the order last touched (most recent last, no repeats).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Touched {
    pub read: Vec<usize>,
    pub written: Vec<usize>,
}

pub fn touched(cfg: &Config, first: usize, len: usize, matches: &[AttnMatch]) -> Touched {
    let columns = cfg.mem_col(first)..cfg.mem_col(first + len);
    let mut t = Touched::default();
    for (role, _, targets) in matches.iter().filter(|m| m.1 == WORKING_COLUMN) {
        let list = if role.writes_memory() { &mut t.written } else { &mut t.read };
        for &col in targets.iter().filter(|&&c| columns.contains(&c)) {
            let index = col - columns.start;
            list.retain(|&i| i != index);
            list.push(index);
        }
    }
    t
}
