//! Machine state as the ISA sees it, shared by every engine so they can be
//! compared (lockstep) and reported (`loom run --json`, the UI) the same way.

use crate::image::Program;
use crate::isa::{Instr, Opcode};

/// The architectural state: PC (a column) and every memory word (signed).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MachineState {
    pub pc: usize,
    pub mem: Vec<i32>,
}

/// How a run stands.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Status {
    Running,
    Halted,
    /// The step at `pc` could not execute (bad pointer, trap, non-unique FIND…).
    Fault {
        pc: usize,
        message: String,
    },
    /// The step budget ran out before HALT.
    Budget,
}

impl Status {
    pub fn is_running(&self) -> bool {
        matches!(self, Status::Running)
    }

    /// The `status` string of the JSON contract.
    pub fn name(&self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Halted => "halted",
            Status::Fault { .. } => "fault",
            Status::Budget => "budget",
        }
    }
}

/// Whether executing `ins` of `prog` in state `mem` faults, and why. Every engine
/// calls this before a step, so a bad pointer stops the run instead of writing
/// somewhere wrong; the transformer calls it on its *decoded* state. A program
/// compiled from C also faults on NULL (`Program::reserves_null`), as C's would.
pub fn precheck(prog: &Program, ins: Instr, mem: &[i32]) -> Option<String> {
    let cfg = &prog.config;
    let word = |col: u32| mem[col as usize - cfg.mem_col(0)];
    match ins.opcode()? {
        op @ (Opcode::Load | Opcode::Store) => match cfg.unsigned(word(ins.c)) {
            0 if prog.reserves_null => Some(format!("{op}: NULL pointer dereference (pointer 0)")),
            ptr if ptr as usize >= cfg.mem_slots => {
                Some(format!("{op}: pointer {ptr} is outside memory (slots 0..{})", cfg.mem_slots - 1))
            }
            _ => None,
        },
        Opcode::Find => {
            let v = word(ins.c);
            let count = mem.iter().filter(|&&w| w == v).count();
            (count != 1).then(|| format!("FIND: the value {v} occurs {count} times in memory; it must be unique"))
        }
        _ => None,
    }
}

/// The trap message if the PC stands on one of the program's trap instructions.
pub fn trap_message(prog: &Program, pc: usize) -> Option<String> {
    let k = pc.checked_sub(prog.config.instr_col(0))?;
    prog.trap_at(k).map(|t| t.message.clone())
}
