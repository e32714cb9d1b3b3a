//! Lockstep: a transformer engine and the interpreter side by side, compared
//! after every step; the first divergence is reported with enough context
//! to debug it (step, PC, instruction, differing slots).

use crate::asm::format_instr;
use crate::engine::Engine;
use crate::state::Status;
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// Steps completed before the diverging one.
    pub step: u64,
    pub pc: usize,
    pub instr: String,
    pub detail: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "divergence at step {} (pc {}: {}): {}", self.step, self.pc, self.instr, self.detail)
    }
}

/// Runs both until they stop or `max_steps`; returns the final status or the first divergence.
/// The oracle is the interpreter, or a `frontend::Machine` on the interpreter when the
/// program reads input (each side is given the input by its own host).
pub fn lockstep(engine: &mut dyn Engine, interp: &mut dyn Engine, max_steps: u64) -> Result<Status, Divergence> {
    let prog = interp.program().clone();
    loop {
        let pc = interp.pc();
        let k = pc.checked_sub(prog.config.instr_col(0));
        let ins = k.and_then(|k| prog.code.get(k)).copied().unwrap_or_default();
        let instr = format_instr(&prog, ins, &|c| c.to_string());
        let step = interp.steps();
        let diverge = |detail: String| Divergence { step, pc, instr: instr.clone(), detail };
        if interp.steps() >= max_steps || !interp.status().is_running() {
            return Ok(interp.status());
        }
        let want = interp.step();
        let got = engine.step();
        if want != got {
            return Err(diverge(format!("status {want:?} (interpreter) vs {got:?} ({})", engine.name())));
        }
        let (a, b) = (interp.state(), engine.state());
        if a.pc != b.pc {
            return Err(diverge(format!("next pc {} (interpreter) vs {} ({})", a.pc, b.pc, engine.name())));
        }
        let slots: Vec<String> = (0..a.mem.len())
            .filter(|&s| a.mem[s] != b.mem[s])
            .map(|s| format!("slot {s}: {} vs {}", a.mem[s], b.mem[s]))
            .collect();
        if !slots.is_empty() {
            return Err(diverge(format!("memory differs (interpreter vs {}): {}", engine.name(), slots.join(", "))));
        }
        if !want.is_running() {
            return Ok(want);
        }
    }
}
