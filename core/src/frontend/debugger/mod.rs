//! The debugger every front end shares: a [`Machine`] with what stepping through a C
//! program needs — checkpoints and the host's writes log (so any step can be gone back
//! to by restoring a snapshot and replaying), the shadow interpreter beside a
//! transformer (the agreement check), breakpoints (with a C condition), the stepping
//! modes (instruction, line, over a call, out of a function, to a line, back) and the
//! call stack read with the compiler's debug information.
//!
//! Every move is recorded as the steps it went from and to, so Back undoes a whole move
//! (a step over a call, a finish) as one; after anything else (a run, a host's write)
//! Back goes one instruction back. Nothing here is in the engines' step loop: a run to
//! a breakpoint is one `Engine::run` with the breakpoints' instructions marked, and
//! only the moves that must watch the call stack (over, out) step one by one.

mod checkpoints;
pub mod expr;
mod frames;
mod memory;
pub mod script;
pub mod value;
mod writes;

pub use frames::{frames, lookup, Frame};
pub use memory::{MemCell, MemObject, MemRegion, MemoryView};
pub use writes::Write;

use checkpoints::{Checkpoint, Checkpoints};
use writes::Writes;

use super::machine::{EngineKind, Machine};
use super::StepTrace;
use crate::debuginfo::{CType, Field, Home};
use crate::engine::Engine;
use crate::host;
use crate::image::{LoadError, Program};
use crate::state::{MachineState, Status};
use expr::{Env, Expr, Value};
use value::{Object, Reader};

/// How far a move that watches lines or frames may run before it gives up (a loop that
/// never leaves its line, a call that never returns).
pub const MOVE_BUDGET: u64 = 5_000_000;

/// A snapshot every this many steps near the newest step (sparser with age): stepping
/// back from where a run stopped replays at most this many (some 30 ms of the sparse
/// engine's time). Snapshots are not free: measured natively on the classic Sudoku, one
/// every 2,048 sparse steps made the run 12 % slower (one every 128 took two thirds of
/// the page's time), one every 8,192 makes it 1.5 % slower.
pub fn checkpoint_every(engine: EngineKind) -> u64 {
    match engine {
        EngineKind::Interp => 1 << 16,
        EngineKind::Sparse => 1 << 13,
        EngineKind::Dense => 1 << 5,
    }
}

/// A line to stop at, perhaps only when a C condition holds there.
#[derive(Clone, Debug, PartialEq)]
pub struct Breakpoint {
    pub line: u32,
    pub condition: Option<(String, Expr)>,
}

impl Breakpoint {
    /// `condition` is C (`n == 1`), parsed now so a mistake is told at once.
    pub fn new(line: u32, condition: Option<&str>) -> Result<Breakpoint, String> {
        let condition = match condition.map(str::trim).filter(|c| !c.is_empty()) {
            Some(c) => Some((c.to_string(), expr::parse(c)?)),
            None => None,
        };
        Ok(Breakpoint { line, condition })
    }
}

/// Why a move stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It got where it was asked to.
    Done,
    /// A breakpoint on this line (whose condition, if any, held).
    Breakpoint(u32),
    /// The program halted or faulted.
    Finished,
    /// It ran [`MOVE_BUDGET`] steps (or the run's budget) first.
    Budget,
    /// Nothing to do: the program is not running.
    Idle,
}

/// A variable of a frame, as shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Binding {
    pub name: String,
    pub ty: String,
    pub value: String,
    /// The memory slot its first word is in now (an activation's saved copy on the
    /// run-time stack, for a caller of a recursive function); `None` for a constant the
    /// compiler substituted, or a word the activation cannot see.
    #[serde(default)]
    pub slot: Option<usize>,
    /// How many words it takes (an array's cells).
    #[serde(default)]
    pub words: usize,
}

/// A frame of the call stack, as shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FrameView {
    pub func: String,
    pub line: Option<u32>,
    pub library: bool,
    /// Which activation of a recursive function this is, counted from the outermost
    /// (1); `None` for a function that cannot recur.
    #[serde(default)]
    pub activation: Option<u32>,
    /// Parameters and locals in declaration order.
    pub vars: Vec<Binding>,
}

impl FrameView {
    /// The frame's name as the call stack and the heatmap say it: `fact#3`, `main`.
    pub fn label(&self) -> String {
        match self.activation {
            Some(k) => format!("{}#{k}", self.func),
            None => self.func.clone(),
        }
    }
}

/// Who owns memory words: a variable of an activation (`fact#3: n`), a global
/// (`global total`) or the console, at the slots it occupies now.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Owner {
    pub name: String,
    pub slot: usize,
    pub words: usize,
}

/// The owner of memory slot `slot` in `owners` (the innermost activation's first).
pub fn owner_of(owners: &[Owner], slot: usize) -> Option<&Owner> {
    owners.iter().find(|o| (o.slot..o.slot + o.words).contains(&slot))
}

pub struct Debugger {
    program: Program,
    machine: Machine,
    /// The interpreter kept in step with a transformer, for the agreement check.
    /// (A machine of its own, so it reads the same input.)
    shadow: Option<Machine>,
    checkpoints: Checkpoints,
    /// The host's writes, replayed at their steps when going back.
    writes: Writes,
    breakpoints: Vec<Breakpoint>,
    /// Indexed by instruction: the first instruction of a breakpoint's line.
    break_at: Vec<bool>,
    /// Each move's first and last step, the latest last.
    moves: Vec<(u64, u64)>,
    returned: Option<Returned>,
}

/// A function's return, seen by the caller.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Returned {
    pub func: String,
    /// `None` for a `void` function or a result the caller does not use.
    pub value: Option<i32>,
}

impl Debugger {
    /// Loads a program on an engine (with the shadow interpreter beside a transformer).
    pub fn new(kind: EngineKind, program: &Program) -> Result<Debugger, LoadError> {
        let machine = Machine::new(kind, program)?;
        let shadow = if kind.is_transformer() { Some(Machine::new(EngineKind::Interp, program)?) } else { None };
        let mut d = Debugger {
            program: program.clone(),
            machine,
            shadow,
            checkpoints: Checkpoints::new(checkpoint_every(kind)),
            writes: Writes::default(),
            breakpoints: Vec::new(),
            break_at: vec![false; program.code.len() + 1],
            moves: Vec::new(),
            returned: None,
        };
        d.checkpoint_if_due();
        Ok(d)
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The shadow interpreter (beside a transformer).
    pub fn shadow(&self) -> Option<&Machine> {
        self.shadow.as_ref()
    }

    /// Gives the program `text` to read (the machine and its shadow alike). What was
    /// consumed stays consumed; going back replays with the text given last.
    pub fn set_input(&mut self, text: &[u8]) {
        self.machine.set_input(text);
        if let Some(sh) = &mut self.shadow {
            sh.set_input(text);
        }
    }

    /// Whether the transformer's decoded state equals the shadow interpreter's (None: no transformer).
    pub fn agrees(&self) -> Option<bool> {
        Some(self.machine.state() == self.shadow.as_ref()?.state())
    }

    pub fn steps(&self) -> u64 {
        self.machine.steps()
    }

    pub fn status(&self) -> Status {
        self.machine.status()
    }

    pub fn state(&self) -> MachineState {
        self.machine.state()
    }

    /// The index of the instruction the PC stands on.
    pub fn pc_index(&self) -> Option<usize> {
        host::current_instr(&self.machine).filter(|&k| k < self.program.code.len())
    }

    /// The source line of the instruction the PC stands on.
    pub fn line(&self) -> Option<u32> {
        self.program.locs.get(self.pc_index()?).copied().flatten().map(|l| l.line)
    }

    /// The host's writes made before the first step, when none was made later.
    pub fn writes_at_start(&self) -> Option<Vec<Write>> {
        self.writes.at_start()
    }

    // ---- execution with checkpoints, the shadow and the host's writes ----

    fn checkpoint_if_due(&mut self) {
        let step = self.steps();
        if self.checkpoints.due(step) {
            let shadow = self.shadow.as_ref().map(Machine::snapshot);
            let (machine, writes) = (self.machine.snapshot(), self.writes.applied());
            self.checkpoints.push(Checkpoint { step, machine, shadow, writes });
        }
    }

    /// Writes again the host's writes due at the current step (a replay's).
    fn rewrite_due(&mut self) {
        for w in self.writes.due(self.machine.steps()) {
            self.machine.write_slot(w.slot, i64::from(w.value));
            if let Some(sh) = &mut self.shadow {
                sh.write_slot(w.slot, i64::from(w.value));
            }
        }
    }

    /// Runs at most `max` instructions (stopping early where `breaks` says), taking
    /// checkpoints on the way, keeping the shadow in step and, in a replay, writing the
    /// host's logged writes again at their steps. Not a move (Back does not undo it whole).
    pub fn exec(&mut self, max: u64, breaks: Option<&[bool]>) -> Status {
        let mut left = max;
        loop {
            self.rewrite_due();
            self.checkpoint_if_due();
            let steps = self.steps();
            let next_write = self.writes.next_step().filter(|&w| w > steps).unwrap_or(u64::MAX);
            let chunk = left.min(self.checkpoints.next_due(steps + 1).min(next_write) - steps);
            let status = self.machine.run(steps + chunk, breaks);
            let done = self.machine.steps() - steps;
            left -= done;
            if let Some(sh) = &mut self.shadow {
                sh.run(sh.steps() + done, None);
            }
            if status != Status::Budget || left == 0 {
                self.rewrite_due();
                return status;
            }
        }
    }

    /// One instruction, traced on a transformer (every layer's tensor, every head). Not a move.
    pub fn exec_traced(&mut self) -> Option<StepTrace> {
        self.checkpoint_if_due();
        self.rewrite_due();
        let start = self.machine.steps();
        let (_, trace) = self.machine.step_traced();
        let done = self.machine.steps() - start;
        if let Some(sh) = &mut self.shadow {
            sh.run(sh.steps() + done, None);
        }
        // Arriving at a step where the host wrote (forward after back): so it does again.
        self.rewrite_due();
        trace
    }

    /// Puts the machine at step `target` (at most the current one): the latest
    /// checkpoint before it, then a replay. Not a move.
    pub fn rewind_to(&mut self, target: u64) {
        let Some(c) = self.checkpoints.back_to(target.min(self.steps())) else { return };
        let (from, snap, shadow, writes) = (c.step, c.machine.clone(), c.shadow.clone(), c.writes);
        self.machine.restore(&snap);
        if let (Some(sh), Some(s)) = (&mut self.shadow, &shadow) {
            sh.restore(s);
        }
        self.writes.rewind(writes);
        if target > from {
            self.exec(target - from, None);
        }
    }

    /// Lets the host write the machine's memory (a demo's inputs) through `f`. The words
    /// it changed are copied into the shadow and logged at the current step, so going
    /// back replays them. Returns what `f` returns and the words changed.
    pub fn host<T>(&mut self, f: impl FnOnce(&mut dyn Engine) -> T) -> (T, Vec<(usize, i32)>) {
        let m = &mut self.machine;
        let before: Vec<i32> = (0..self.program.config.mem_slots).map(|s| m.read_slot(s)).collect();
        let out = f(m);
        let changed: Vec<(usize, i32)> = before
            .into_iter()
            .enumerate()
            .filter_map(|(s, old)| Some((s, m.read_slot(s))).filter(|&(_, v)| v != old))
            .collect();
        if let Some(sh) = &mut self.shadow {
            for &(s, v) in &changed {
                sh.write_slot(s, i64::from(v));
            }
        }
        self.writes.record(m.steps(), changed.iter().copied());
        (out, changed)
    }

    // ---- breakpoints ----

    pub fn breakpoints(&self) -> &[Breakpoint] {
        &self.breakpoints
    }

    pub fn set_breakpoints(&mut self, list: Vec<Breakpoint>) {
        self.breakpoints = list;
        let lines: Vec<u32> = self.breakpoints.iter().map(|b| b.line).collect();
        self.break_at = self.line_entries(|l| lines.contains(&l));
    }

    /// Marks, by instruction, where the PC enters a line `pick` chooses (a line's first
    /// instruction, or one a jump reaches from another line: where a loop comes back).
    pub fn line_entries(&self, pick: impl Fn(u32) -> bool) -> Vec<bool> {
        let line = |k: usize| self.program.locs.get(k).copied().flatten().map(|l| l.line);
        (0..=self.program.code.len())
            .map(|k| line(k).is_some_and(|l| pick(l) && (k == 0 || line(k - 1) != Some(l))))
            .collect()
    }

    /// The instructions a run stops at: breakpoints, and `frame()` points with `frames`.
    pub fn run_breaks(&self, frames: bool) -> Option<Vec<bool>> {
        let mut b = if frames { host::frame_breaks(&self.program) } else { vec![false; self.program.code.len() + 1] };
        for (x, &bp) in b.iter_mut().zip(&self.break_at) {
            *x |= bp;
        }
        b.iter().any(|&x| x).then_some(b)
    }

    /// The breakpoint the PC stands on whose condition holds (or cannot be read: then
    /// the learner should look).
    pub fn breakpoint_hit(&self) -> Option<u32> {
        let k = self.pc_index()?;
        if !self.break_at.get(k).copied().unwrap_or(false) {
            return None;
        }
        let line = self.line()?;
        let holds = |b: &Breakpoint| match &b.condition {
            None => true,
            Some((_, e)) => self.eval_expr(e).map(expr::truth).unwrap_or(true),
        };
        self.breakpoints.iter().any(|b| b.line == line && holds(b)).then_some(line)
    }

    // ---- moves ----

    fn record(&mut self, from: u64) {
        self.returned = None;
        let to = self.steps();
        if to > from {
            self.moves.push((from, to));
        }
    }

    fn running(&self) -> bool {
        self.machine.status().is_running()
    }

    fn finished(&self) -> Stop {
        if self.running() {
            Stop::Budget
        } else {
            Stop::Finished
        }
    }

    /// One instruction.
    pub fn step_instruction(&mut self) -> Stop {
        if !self.running() {
            return Stop::Idle;
        }
        let from = self.steps();
        self.exec(1, None);
        self.record(from);
        if self.running() {
            Stop::Done
        } else {
            Stop::Finished
        }
    }

    /// Steps until `arrived` says so (checked after each instruction), a breakpoint, the
    /// end or the budget. Records the move.
    fn step_until(&mut self, arrived: impl Fn(&Debugger) -> bool) -> Stop {
        if !self.running() {
            return Stop::Idle;
        }
        let from = self.steps();
        let stop = loop {
            self.exec(1, None);
            if !self.running() {
                break Stop::Finished;
            }
            if arrived(self) {
                break Stop::Done;
            }
            if let Some(l) = self.breakpoint_hit() {
                break Stop::Breakpoint(l);
            }
            if self.steps() - from >= MOVE_BUDGET {
                break Stop::Budget;
            }
        };
        self.record(from);
        stop
    }

    /// The call stack's depth and the line, where the PC stands.
    fn place(&self) -> (usize, Option<u32>) {
        (self.raw_frames().len(), self.line())
    }

    /// Into the next line executed, whatever function it is in (gdb's `step`).
    pub fn step_line(&mut self) -> Stop {
        let start = self.place();
        self.step_until(|d| {
            let (depth, line) = d.place();
            line.is_some() && (line != start.1 || depth != start.0)
        })
    }

    /// To the next line of this function, running any call made on the way whole; or
    /// out of it, when it returns first (gdb's `next`).
    pub fn step_over(&mut self) -> Stop {
        let start = self.place();
        self.step_until(|d| {
            let (depth, line) = d.place();
            depth < start.0 || (depth == start.0 && line.is_some() && line != start.1)
        })
    }

    /// Until this function returns to its caller (gdb's `finish`); then
    /// [`Debugger::returned`] says what it returned.
    pub fn step_out(&mut self) -> Stop {
        let frames = self.raw_frames();
        if frames.len() <= 1 {
            return self.cont();
        }
        // A library frame returns with its caller: finish the C function that called it.
        let own = frames.iter().position(|f| !f.library).unwrap_or(0);
        let (depth, func, result) = (frames.len() - own, frames[own].func.clone(), frames[own].result);
        let stop = self.step_until(|d| d.place().0 < depth && d.line().is_some());
        if stop == Stop::Done {
            let caller = self.raw_frames();
            let mem = |s: usize| self.machine.read_slot(s);
            let value = result.and_then(|h| match (h, caller.first()) {
                (Home::Const(v), _) => Some(v),
                (Home::Slot(s), Some(f)) => f.word(s, &mem),
                (Home::Slot(s), None) => Some(mem(s)),
            });
            self.returned = Some(Returned { func, value });
        }
        stop
    }

    /// What the function the last [`Debugger::step_out`] finished returned (cleared by
    /// the next move).
    pub fn returned(&self) -> Option<&Returned> {
        self.returned.as_ref()
    }

    /// Runs until the PC enters `line` (or a breakpoint, or the end) — run to cursor.
    pub fn run_to_line(&mut self, line: u32) -> Stop {
        if !self.running() {
            return Stop::Idle;
        }
        let target = self.line_entries(|l| l == line);
        self.run_with(&target)
    }

    /// Runs to the next breakpoint whose condition holds, or the end.
    pub fn cont(&mut self) -> Stop {
        if !self.running() {
            return Stop::Idle;
        }
        let none = vec![false; self.break_at.len()];
        self.run_with(&none)
    }

    /// Runs to an instruction `target` marks, or a breakpoint whose condition holds.
    fn run_with(&mut self, target: &[bool]) -> Stop {
        let from = self.steps();
        let breaks: Vec<bool> = target.iter().zip(&self.break_at).map(|(&t, &b)| t || b).collect();
        let stop = loop {
            let left = MOVE_BUDGET.saturating_sub(self.steps() - from);
            if left == 0 {
                break Stop::Budget;
            }
            let s = self.exec(left, Some(&breaks));
            if s != Status::Running {
                break self.finished();
            }
            if self.pc_index().is_some_and(|k| target[k]) {
                break Stop::Done;
            }
            if let Some(l) = self.breakpoint_hit() {
                break Stop::Breakpoint(l);
            }
        };
        self.record(from);
        stop
    }

    /// Undoes the last move as one (or one instruction, when the machine moved otherwise
    /// since). Returns whether it went back.
    pub fn back(&mut self) -> bool {
        let Some(target) = self.take_back() else { return false };
        self.rewind_to(target);
        true
    }

    /// Where Back goes from here, forgetting the move it undoes: the start of the last
    /// move when the machine stands where that move ended, else one instruction back.
    /// For a front end that replays the way there itself (to show the last step's change).
    pub fn take_back(&mut self) -> Option<u64> {
        let now = self.steps();
        match self.moves.last() {
            Some(&(from, to)) if to == now => {
                self.moves.pop();
                Some(from)
            }
            _ => now.checked_sub(1),
        }
    }

    // ---- the call stack and values ----

    fn raw_frames(&self) -> Vec<Frame> {
        let Some(k) = self.pc_index() else { return Vec::new() };
        frames(&self.program, k, &|s| self.machine.read_slot(s))
    }

    /// The objects pointers may name: the globals and the variables of the frames' scopes
    /// whose storage is a slot.
    fn objects<'a>(&'a self, frames: &[Frame]) -> Vec<Object<'a>> {
        let d = &self.program.debug;
        let vars = d.globals.iter().chain(frames.iter().flat_map(|f| f.vars.iter()));
        vars.filter_map(|&v| {
            let v = &d.vars[v as usize];
            match v.home {
                Home::Slot(slot) => Some(Object { name: &v.name, ty: &v.ty, slot }),
                Home::Const(_) => None,
            }
        })
        .collect()
    }

    /// The call stack, innermost first, each frame with its variables' values.
    pub fn frames(&self) -> Vec<FrameView> {
        let frames = self.raw_frames();
        let objects = self.objects(&frames[..frames.len().min(1)]);
        let d = &self.program.debug;
        let mem = |s: usize| self.machine.read_slot(s);
        let mut views: Vec<FrameView> = frames
            .iter()
            .map(|f| {
                let word = |s: usize| f.word(s, &mem);
                let r = Reader {
                    word: &word,
                    objects: &objects,
                    structs: &self.program.debug.structs,
                    mem_slots: self.program.config.mem_slots,
                    word_bits: self.program.config.word_bits,
                };
                let vars = f
                    .vars
                    .iter()
                    .rev()
                    .map(|&v| {
                        let v = &d.vars[v as usize];
                        let (value, slot) = match v.home {
                            Home::Slot(s) => (r.at(&v.ty, s), f.home(s)),
                            Home::Const(c) => (r.scalar(&v.ty, c), None),
                        };
                        Binding { name: v.name.clone(), ty: v.ty.describe(), value, slot, words: v.ty.words() }
                    })
                    .collect();
                FrameView { func: f.func.clone(), line: f.line, library: f.library, activation: None, vars }
            })
            .collect();
        // A recursive function's activations are numbered from the outermost.
        for i in (0..views.len()).rev() {
            if frames[i].recursive {
                let k = views[i + 1..].iter().filter(|o| o.func == views[i].func).count() as u32 + 1;
                views[i].activation = Some(k);
            }
        }
        views
    }

    /// Who owns which memory words now: the call stack's variables (innermost first,
    /// named by their activation: `fact#3: n`), the globals (`global total`) and the
    /// console. What the heatmap says of a memory column. `frames`: [`Debugger::frames`].
    pub fn owners(&self, frames: &[FrameView]) -> Vec<Owner> {
        let d = &self.program.debug;
        let locals = frames.iter().flat_map(|f| {
            let label = f.label();
            f.vars.iter().filter_map(move |b| {
                Some(Owner { name: format!("{label}: {}", b.name), slot: b.slot?, words: b.words })
            })
        });
        let globals = d.globals.iter().filter_map(|&v| {
            let v = &d.vars[v as usize];
            match v.home {
                Home::Slot(slot) => Some(Owner { name: format!("global {}", v.name), slot, words: v.ty.words() }),
                Home::Const(_) => None,
            }
        });
        let console = self.program.console.map(|slot| Owner { name: crate::image::CONSOLE.into(), slot, words: 1 });
        locals.chain(globals).chain(console).collect()
    }

    fn eval_expr(&self, e: &Expr) -> Result<Value, String> {
        let frames = self.raw_frames();
        let env = FrameEnv { dbg: self, frame: frames.first() };
        expr::eval(e, &env)
    }

    /// A C expression evaluated in the innermost frame, shown as a value.
    pub fn print(&self, text: &str) -> Result<String, String> {
        let v = self.eval_expr(&expr::parse(text)?)?;
        let frames = self.raw_frames();
        let objects = self.objects(&frames[..frames.len().min(1)]);
        let mem = |s: usize| self.machine.read_slot(s);
        let word = |s: usize| match frames.first() {
            Some(f) => f.word(s, &mem),
            None => Some(mem(s)),
        };
        let r = Reader {
            word: &word,
            objects: &objects,
            structs: &self.program.debug.structs,
            mem_slots: self.program.config.mem_slots,
            word_bits: self.program.config.word_bits,
        };
        Ok(match v {
            Value::Int(n) => n.to_string(),
            Value::Ptr(t, p) => r.pointer(Some(&t), p as i32),
            Value::Array(t, s) => r.at(&t, s),
        })
    }
}

/// Names and words as the innermost frame sees them.
struct FrameEnv<'a> {
    dbg: &'a Debugger,
    frame: Option<&'a Frame>,
}

impl Env for FrameEnv<'_> {
    fn var(&self, name: &str) -> Option<(CType, Home)> {
        lookup(&self.dbg.program.debug, self.frame, name).map(|v| (v.ty.clone(), v.home))
    }

    fn member(&self, id: u32, name: &str) -> Option<Field> {
        let s = self.dbg.program.debug.structs.get(id as usize)?;
        s.fields.iter().find(|f| f.name == name).cloned()
    }

    fn word_bits(&self) -> u32 {
        self.dbg.program.config.word_bits
    }

    fn word(&self, slot: usize) -> Option<i32> {
        if slot >= self.dbg.program.config.mem_slots {
            return None;
        }
        let mem = |s: usize| self.dbg.machine.read_slot(s);
        match self.frame {
            Some(f) => f.word(slot, &mem),
            None => Some(mem(slot)),
        }
    }
}
