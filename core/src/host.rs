//! Host ↔ program exchange: how a page (or a test) talks to a running C
//! program, whatever engine runs it.
//!
//! One convention for every program (documented in `demos/README.md`):
//! - the host reads and writes the program's **global variables by name**,
//!   through the compiler's symbol table ([`Program::symbols`]);
//! - `frame()` in C marks a point ([`Program::frames`]) where the host pauses
//!   the run to draw and to feed input: [`run_to_frame`] stops *before* the
//!   instruction after `frame()` executes, so writes made there are seen by the
//!   code that follows;
//! - what the page draws (e.g. `int screen[64]`) is named by the demo's metadata;
//! - what the program prints it writes, one character at a time, into its console slot
//!   ([`Program::console`]); the host appends the slot's byte to an [`Output`] after each
//!   instruction that writes it ([`Program::outputs`]). The machine does the formatting;
//!   the host only reads what it wrote, so the console holds one character and a program
//!   may print any amount: the host keeps the whole text;
//! - what the program reads is the host's [`Input`], given the same way: before an
//!   instruction that reads the input slot ([`Program::input`], [`Program::input_reads`]) the
//!   host writes the next unread byte there (−1, C's `EOF`, once the text is used up), and
//!   after an instruction that writes the slot ([`Program::input_advances`]) it moves on to
//!   the next byte. The machine does the reading (`getchar`, `scanf`'s conversions); the host
//!   only hands it one byte at a time.

use crate::engine::Engine;
use crate::image::{Program, Symbol};
use crate::state::Status;
use std::fmt;

/// Why a host read or write was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostError {
    /// No global of that name; `known` lists the globals there are.
    Unknown { name: String, known: Vec<String> },
    /// A write whose length is not the variable's.
    Length { name: String, expected: usize, found: usize },
    /// A value that is neither a signed nor an unsigned N-bit word.
    Range { name: String, value: i64, bits: u32 },
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Unknown { name, known } if known.is_empty() => {
                write!(f, "the program has no global `{name}` (it has no globals at all)")
            }
            HostError::Unknown { name, known } => {
                write!(f, "the program has no global `{name}`; its globals are: {}", known.join(", "))
            }
            HostError::Length { name, expected, found } => {
                write!(f, "`{name}` holds {expected} word(s) but {found} were written")
            }
            HostError::Range { name, value, bits } => {
                write!(f, "{value} does not fit a {bits}-bit word (writing `{name}`)")
            }
        }
    }
}

impl std::error::Error for HostError {}

/// The visible global called `name`.
pub fn global<'p>(prog: &'p Program, name: &str) -> Result<&'p Symbol, HostError> {
    let visible = |s: &&Symbol| s.scope == "global" && !s.hidden;
    prog.symbols.iter().filter(visible).find(|s| s.name == name).ok_or_else(|| HostError::Unknown {
        name: name.to_string(),
        known: prog.symbols.iter().filter(visible).map(|s| s.name.clone()).collect(),
    })
}

/// The words of a global (one for a scalar), signed.
pub fn read_var(engine: &dyn Engine, name: &str) -> Result<Vec<i32>, HostError> {
    let sym = global(engine.program(), name)?;
    Ok((sym.slot..sym.slot + sym.len).map(|s| engine.read_slot(s)).collect())
}

/// A scalar global (or an array's first word).
pub fn read_scalar(engine: &dyn Engine, name: &str) -> Result<i32, HostError> {
    let sym = global(engine.program(), name)?;
    Ok(engine.read_slot(sym.slot))
}

/// Writes a whole global: `values` must have its length. Each value may be
/// given signed or unsigned (−128..=255 for 8-bit words); it is stored wrapped.
pub fn write_var(engine: &mut dyn Engine, name: &str, values: &[i64]) -> Result<(), HostError> {
    let cfg = engine.program().config;
    let sym = global(engine.program(), name)?;
    if values.len() != sym.len {
        return Err(HostError::Length { name: name.to_string(), expected: sym.len, found: values.len() });
    }
    let fits = |v: i64| (cfg.word_min() as i64..=(1i64 << cfg.word_bits) - 1).contains(&v);
    if let Some(&value) = values.iter().find(|&&v| !fits(v)) {
        return Err(HostError::Range { name: name.to_string(), value, bits: cfg.word_bits });
    }
    let slot = sym.slot;
    for (k, &v) in values.iter().enumerate() {
        engine.write_slot(slot + k, v);
    }
    Ok(())
}

/// Writes a scalar global.
pub fn write_scalar(engine: &mut dyn Engine, name: &str, value: i64) -> Result<(), HostError> {
    write_var(engine, name, &[value])
}

/// The `breaks` argument of [`Engine::run`] that stops at every `frame()`:
/// indexed by instruction, one longer than the code (the halting sentinel).
pub fn frame_breaks(prog: &Program) -> Vec<bool> {
    let mut breaks = vec![false; prog.code.len() + 1];
    for &f in &prog.frames {
        breaks[f] = true;
    }
    breaks
}

/// Runs at most `max_steps` more instructions, stopping at the next `frame()`.
/// Returns [`Status::Running`] when paused at a frame (the host may now read,
/// draw and write), [`Status::Budget`] when the steps ran out first, or the
/// final status (halted, fault). Called again, it runs on to the next frame.
pub fn run_to_frame(engine: &mut dyn Engine, max_steps: u64) -> Status {
    let breaks = frame_breaks(engine.program());
    let budget = engine.steps().saturating_add(max_steps);
    engine.run(budget, Some(&breaks))
}

/// The text a program printed so far, as the host collected it from the console slot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    bytes: Vec<u8>,
    /// The engine's step count just after the last character was written.
    last_step: Option<u64>,
}

impl Output {
    /// The text; bytes that are not UTF-8 show as U+FFFD.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether the step that brought the engine to `steps` steps printed the last byte.
    pub fn printed_at(&self, steps: u64) -> bool {
        self.last_step == Some(steps)
    }

    /// Collects the character of an instruction that just executed: `executed` is its
    /// index. Called after every step the host takes by itself (stepping in a debugger).
    pub fn after_step(&mut self, engine: &dyn Engine, executed: Option<usize>) {
        let prog = engine.program();
        let (Some(slot), Some(k)) = (prog.console, executed) else { return };
        if prog.outputs.binary_search(&k).is_ok() {
            // `putchar` writes an `unsigned char`: the low byte of the word.
            self.bytes.push(engine.read_slot(slot) as u8);
            self.last_step = Some(engine.steps());
        }
    }
}

/// The text a program reads, and how much of it it has consumed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Input {
    bytes: Vec<u8>,
    pos: usize,
}

impl Input {
    pub fn new(text: impl Into<Vec<u8>>) -> Input {
        Input { bytes: text.into(), pos: 0 }
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// How many bytes the program has consumed.
    pub fn consumed(&self) -> usize {
        self.pos
    }

    /// Puts the reading position back (a snapshot's); the text stays.
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Replaces the text, keeping what was consumed as consumed (the page's Input box
    /// edited while the program is paused: its later reads see the new text).
    pub fn set_text(&mut self, text: impl Into<Vec<u8>>) {
        self.bytes = text.into();
    }

    /// Before the instruction `at` executes: when it reads the input slot, the host writes
    /// the next unread byte there (−1 at the end). Called before every step the host takes.
    pub fn before_step(&self, engine: &mut dyn Engine, at: Option<usize>) {
        let prog = engine.program();
        let (Some(slot), Some(k)) = (prog.input, at) else { return };
        if engine.status() == Status::Running && prog.input_reads.binary_search(&k).is_ok() {
            let byte = self.bytes.get(self.pos).map_or(-1, |&b| i64::from(b));
            engine.write_slot(slot, byte);
        }
    }

    /// After the instruction `at` executed: when it wrote the input slot, the byte is consumed.
    pub fn after_step(&mut self, engine: &dyn Engine, at: Option<usize>) {
        let Some(k) = at else { return };
        if engine.program().input_advances.binary_search(&k).is_ok() && self.pos < self.bytes.len() {
            self.pos += 1;
        }
    }
}

/// The instruction the PC points at (`None` once halted).
pub fn current_instr(engine: &dyn Engine) -> Option<usize> {
    engine.pc().checked_sub(engine.program().config.instr_col(0))
}

/// One step with the host's part of input and output: the input byte written before an
/// instruction that reads it, the character read after one that prints, the position moved
/// after one that consumes.
pub fn step_io(engine: &mut dyn Engine, out: &mut Output, input: &mut Input) -> Status {
    let at = current_instr(engine);
    input.before_step(engine, at);
    let s = engine.step();
    out.after_step(engine, at);
    input.after_step(engine, at);
    s
}

/// [`Engine::run`] that also gives the program its `input` and collects what it prints into
/// `out`: the run stops before each instruction that writes the console or reads or writes
/// the input slot, executes it alone with [`step_io`], then goes on. `breaks` and the
/// result mean what they mean for `run`. A program without input or output runs exactly
/// as `run` would.
pub fn run_printing(
    engine: &mut dyn Engine,
    max_steps: u64,
    breaks: Option<&[bool]>,
    out: &mut Output,
    input: &mut Input,
) -> Status {
    let prog = engine.program();
    let mut io: Vec<usize> =
        [&prog.outputs, &prog.input_reads, &prog.input_advances].into_iter().flatten().copied().collect();
    if io.is_empty() {
        return engine.run(max_steps, breaks);
    }
    io.sort_unstable();
    io.dedup();
    let len = prog.code.len() + 1;
    let user = |k: Option<usize>| k.is_some_and(|k| breaks.is_some_and(|b| b.get(k) == Some(&true)));
    let mut stops = breaks.map_or_else(|| vec![false; len], <[bool]>::to_vec);
    for &k in &io {
        stops[k] = true;
    }
    loop {
        let at = current_instr(engine);
        if engine.status() == Status::Running && at.is_some_and(|k| io.binary_search(&k).is_ok()) {
            if engine.steps() >= max_steps {
                return Status::Budget;
            }
            let s = step_io(engine, out, input);
            if s != Status::Running {
                return s;
            }
            if user(current_instr(engine)) {
                return Status::Running;
            }
            continue;
        }
        match engine.run(max_steps, Some(&stops)) {
            Status::Running if !user(current_instr(engine)) => {}
            s => return s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::assemble;
    use crate::{Config, Interp};

    /// Counts `n` down, pausing at the instruction after each decrement.
    fn countdown() -> Program {
        let src = ".data n = 3\n.data xs[2] = 7, -1\nloop: DEC n\nJNZ n, loop\nHALT";
        let mut prog = assemble(src, Config::preset("tiny").unwrap()).unwrap();
        prog.frames = vec![1];
        prog
    }

    #[test]
    fn reads_and_writes_globals_by_name() {
        let mut e = Interp::new(&countdown()).unwrap();
        assert_eq!(read_var(&e, "xs").unwrap(), [7, -1]);
        write_var(&mut e, "xs", &[255, -128]).unwrap();
        assert_eq!(read_var(&e, "xs").unwrap(), [-1, -128]);
        write_scalar(&mut e, "n", 5).unwrap();
        assert_eq!(read_scalar(&e, "n").unwrap(), 5);
    }

    #[test]
    fn refuses_unknown_names_wrong_lengths_and_values_out_of_range() {
        let mut e = Interp::new(&countdown()).unwrap();
        let err = read_var(&e, "ys").unwrap_err();
        assert_eq!(err.to_string(), "the program has no global `ys`; its globals are: n, xs");
        let err = write_var(&mut e, "xs", &[1, 2, 3]).unwrap_err();
        assert_eq!(err, HostError::Length { name: "xs".into(), expected: 2, found: 3 });
        assert!(matches!(write_scalar(&mut e, "n", 256), Err(HostError::Range { value: 256, .. })));
        assert!(matches!(write_scalar(&mut e, "n", -129), Err(HostError::Range { .. })));
        assert_eq!(read_scalar(&e, "n").unwrap(), 3, "a refused write changes nothing");
    }

    #[test]
    fn pauses_at_each_frame_and_honours_the_budget() {
        let mut e = Interp::new(&countdown()).unwrap();
        assert_eq!(run_to_frame(&mut e, 100), Status::Running);
        assert_eq!((e.steps(), read_scalar(&e, "n").unwrap()), (1, 2));
        // The host's write is what the program sees next.
        write_scalar(&mut e, "n", 1).unwrap();
        assert_eq!(run_to_frame(&mut e, 100), Status::Running);
        assert_eq!((e.steps(), read_scalar(&e, "n").unwrap()), (3, 0));
        assert_eq!(run_to_frame(&mut e, 100), Status::Halted);
        assert_eq!(e.steps(), 5);

        let mut e = Interp::new(&countdown()).unwrap();
        assert_eq!(run_to_frame(&mut e, 1), Status::Running);
        assert_eq!(run_to_frame(&mut e, 1), Status::Budget, "one step is not enough to reach the next frame");
    }
}
