//! The interface every execution engine implements (interpreter, dense
//! reference transformer, sparse transformer), so the CLI, lockstep checking,
//! the host-exchange layer and the UI drive them the same way. The engines
//! themselves are built by name in the façade ([`crate::frontend::EngineKind`]),
//! so this trait depends on no engine.

use crate::image::Program;
use crate::state::{MachineState, Status};

pub trait Engine {
    /// Short name: `"interp"`, `"dense"` or `"sparse"`.
    fn name(&self) -> &'static str;

    fn program(&self) -> &Program;

    /// Runs until HALT, a fault, `max_steps` steps in total, or (when `breaks`
    /// is given, indexed by instruction) until the PC lands on an instruction
    /// marked `true`. At least one instruction executes if the machine is
    /// running. Returns [`Status::Budget`] when the budget stopped it and
    /// [`Status::Running`] when a break did; both leave it resumable.
    fn run(&mut self, max_steps: u64, breaks: Option<&[bool]>) -> Status;

    /// Executes one instruction.
    fn step(&mut self) -> Status {
        match self.run(self.steps() + 1, None) {
            Status::Budget => Status::Running,
            s => s,
        }
    }

    /// The status after the last step (never `Budget`: a budget stop stays `Running`).
    fn status(&self) -> Status;

    fn steps(&self) -> u64;

    /// The PC as a column; 0 once halted.
    fn pc(&self) -> usize;

    /// One memory word (signed).
    fn read_slot(&self, slot: usize) -> i32;

    /// Host write into memory (wrapped to N bits): how the page feeds input.
    fn write_slot(&mut self, slot: usize, value: i64);

    /// PC and all of memory.
    fn state(&self) -> MachineState {
        let m = self.program().config.mem_slots;
        MachineState { pc: self.pc(), mem: (0..m).map(|s| self.read_slot(s)).collect() }
    }
}
