//! One program through every engine: our trace machine (both heads, compared
//! on every lookup), our reference (plain memory), and wasmi. They must agree
//! on the outcome, the results, the memory written and the globals; machine
//! and reference also step by step on the full `[op, arg, sp, top]` rows and
//! records.

use loom_core::trace::{self, HeadMode, Machine, Reference, Status, Trap};
use std::collections::BTreeSet;
use wasmi::TrapCode;

/// How a run ended, comparable across engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Returned(Vec<i32>),
    Trapped(&'static str),
}

fn trap_kind(t: &Trap) -> &'static str {
    match t {
        Trap::Unreachable => "unreachable",
        Trap::DivideByZero => "divide by zero",
        Trap::Overflow => "overflow",
        Trap::OutOfBounds => "out of bounds",
        Trap::CallStackExhausted => "stack exhausted",
        Trap::StackUnderflow => "stack underflow",
        Trap::TraceFull => "trace full",
        Trap::Internal(_) => "internal",
    }
}

fn wasmi_kind(code: TrapCode) -> &'static str {
    match code {
        TrapCode::UnreachableCodeReached => "unreachable",
        TrapCode::IntegerDivisionByZero => "divide by zero",
        TrapCode::IntegerOverflow => "overflow",
        TrapCode::MemoryOutOfBounds => "out of bounds",
        TrapCode::StackOverflow => "stack exhausted",
        _ => "other wasmi trap",
    }
}

/// What wasmi computes: the outcome, the bytes at the addresses asked for
/// (`None` when the module exports no memory), exported globals `g0`, `g1`…
pub struct Wasmi {
    pub outcome: Outcome,
    pub memory: Option<Vec<u8>>,
    pub globals: Vec<i32>,
}

pub fn wasmi_run(bytes: &[u8], addrs: &[u32]) -> Wasmi {
    let engine = wasmi::Engine::default();
    let module = wasmi::Module::new(&engine, bytes).expect("wasmi accepts the module");
    let mut store = wasmi::Store::new(&engine, ());
    let linker = wasmi::Linker::<()>::new(&engine);
    let instance = linker.instantiate_and_start(&mut store, &module).expect("wasmi instantiates");
    let main = instance.get_func(&store, "main").expect("main");
    let n = main.ty(&store).results().len();
    let mut results = vec![wasmi::Val::I32(0); n];
    let outcome = match main.call(&mut store, &[], &mut results) {
        Ok(()) => Outcome::Returned(results.iter().map(|v| v.i32().expect("i32 result")).collect()),
        Err(e) => Outcome::Trapped(e.as_trap_code().map_or("not a trap", wasmi_kind)),
    };
    let memory = instance.get_memory(&store, "memory").map(|m| {
        let data = m.data(&store);
        addrs.iter().map(|&a| data.get(a as usize).copied().unwrap_or(0)).collect()
    });
    let mut globals = Vec::new();
    while let Some(g) = instance.get_global(&store, &format!("g{}", globals.len())) {
        globals.push(g.get(&store).i32().expect("i32 global"));
    }
    Wasmi { outcome, memory, globals }
}

fn ours(status: &Status, stack: Vec<i32>) -> Outcome {
    match status {
        Status::Halted => Outcome::Returned(stack),
        Status::Trapped(t) => Outcome::Trapped(trap_kind(t)),
        Status::Running => panic!("budget ran out"),
    }
}

/// What a program did, once every engine agreed on it.
pub struct Agreed {
    pub steps: u64,
    pub outcome: Outcome,
    /// The mnemonics executed.
    pub ops: BTreeSet<&'static str>,
}

/// Runs `wat` everywhere and panics (with the program) on any difference.
pub fn agree(name: &str, wat: &str, mode: HeadMode, budget: u64) -> Agreed {
    agree_with(name, wat, mode, budget, true)
}

/// As [`agree`]; without wasmi when `with_wasmi` is false (it allocates and
/// zeroes the whole declared memory: 2 GiB for the pins at 2³¹ − 1).
pub fn agree_with(name: &str, wat: &str, mode: HeadMode, budget: u64, with_wasmi: bool) -> Agreed {
    let bytes = wat::parse_str(wat).unwrap_or_else(|e| panic!("{e}\n{name}:\n{wat}"));
    let code = trace::load_wasm(&bytes).unwrap_or_else(|e| panic!("{e}\n{name}:\n{wat}"));
    let mut m = Machine::with_heads(code.clone(), mode);
    let mut r = Reference::reference(code.clone());
    m.run(budget);
    r.run(budget);
    if let Status::Trapped(Trap::Internal(msg)) = m.status() {
        panic!("internal error: {msg}\n{name}:\n{wat}");
    }
    assert_eq!(m.status(), r.status(), "status\n{name}:\n{wat}");
    assert_eq!(m.records(), r.records(), "records\n{name}:\n{wat}");
    for i in 0..m.records().len() {
        assert_eq!(m.row(i), r.row(i), "row {i}\n{name}:\n{wat}");
    }
    let outcome = ours(m.status(), m.stack());
    assert_eq!(outcome, ours(r.status(), r.stack()), "reference outcome\n{name}:\n{wat}");
    let mut addrs: Vec<u32> = code.data.iter().flat_map(|(a, d)| *a..*a + d.len() as u32).collect();
    addrs.extend(m.writes().iter().filter(|w| w.space == trace::exec::Space::Memory).map(|w| w.addr));
    if !with_wasmi {
        return Agreed { steps: m.steps(), outcome, ops: executed(&m) };
    }
    let w = wasmi_run(&bytes, &addrs);
    assert_eq!(outcome, w.outcome, "wasmi outcome\n{name}:\n{wat}");
    for (i, &a) in addrs.iter().enumerate() {
        let Some(theirs) = w.memory.as_ref().map(|m| m[i]) else { break };
        assert_eq!(m.memory(a, 1)[0], theirs, "memory byte {a}\n{name}:\n{wat}");
        assert_eq!(r.byte(a), theirs, "reference memory byte {a}\n{name}:\n{wat}");
    }
    let globals = m.globals();
    assert_eq!(globals[..w.globals.len()], w.globals[..], "globals\n{name}:\n{wat}");
    Agreed { steps: m.steps(), outcome, ops: executed(&m) }
}

/// The mnemonics a run executed.
fn executed(m: &Machine) -> BTreeSet<&'static str> {
    let mut ops: BTreeSet<_> = (0..m.records().len()).filter_map(|i| m.row(i)).map(|r| r.op).collect();
    if let Status::Trapped(_) = m.status() {
        // The trapping instruction leaves no record.
        ops.extend(m.code().instrs.get(m.regs().pc as usize).map(|i| i.name()));
    }
    ops
}
