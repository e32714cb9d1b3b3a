//! Label resolution and memory layout: a small peephole pass over the
//! symbolic code, then slot 0 for NULL (no object there), the globals from slot 1
//! (declaration order, so the host can find them; string literals after them), the deduplicated constant pool, the
//! console (when the program prints), the registers of recursive calls, the
//! compile-time stack, MULSTEP's operand pair (on an even slot), and the run-time
//! stack of recursive calls in the rest of memory.

use super::codegen::{ctype, CallGen, Item, Label, Lowered, Mem, Opd, Reg, Tracker};
use super::resolved::Resolved;
use crate::config::Config;
use crate::debuginfo::{At, Call, DebugInfo, Field, Frame, Home, Scope, Site, StructInfo, Var};
use crate::diag::{Diagnostic, Span};
use crate::image::{Program, Symbol, Trap, CONSOLE, INPUT};
use crate::isa::{Instr, Opcode};
use std::collections::HashMap;

/// The registers in the order layout places them.
const REGS: [Reg; 4] = [Reg::Sp, Reg::Room, Reg::Ret, Reg::Site];

pub fn layout(low: Lowered, ck: &Resolved, cfg: Config) -> Result<Program, Diagnostic> {
    if low.truncated {
        let d = Diagnostic::error(
            Span::new(1, 1, 2),
            format!("the program does not fit: inlining every call needs more than {} instructions", low.items.len()),
        )
        .with_note("each call is compiled as a copy of the function's body")
        .with_hint("call large functions from fewer places, for example inside a loop");
        return Err(d);
    }
    let items = peephole(low.items, &low.frames);
    let tracker = low.debug;
    let mut at: HashMap<Label, usize> = HashMap::new();
    let mut count = 0;
    for it in &items {
        match it {
            Item::Label(l) => {
                at.insert(*l, count);
            }
            Item::Ins { .. } => count += 1,
        }
    }
    // A global's address is the pooled constant of the same value.
    let pooled = |m: Mem| match m {
        Mem::GlobalAddr(s) => Mem::Const(cfg.wrap(s as i64) as i64),
        m => m,
    };
    let mut pool: Vec<Mem> = Vec::new();
    let mut recursion = false;
    let mut prints = false;
    let mut reads = false;
    let mut multiplies = false;
    for it in &items {
        if let Item::Ins { a, b, c, .. } = it {
            for o in [a, b, c] {
                match o {
                    Opd::M(m @ (Mem::Const(_) | Mem::StackAddr(_) | Mem::GlobalAddr(_)))
                        if !pool.contains(&pooled(*m)) =>
                    {
                        pool.push(pooled(*m))
                    }
                    Opd::M(Mem::Reg(_)) => recursion = true,
                    Opd::M(Mem::Console) => prints = true,
                    Opd::M(Mem::Input) => reads = true,
                    Opd::M(Mem::Mul(_)) => multiplies = true,
                    _ => {}
                }
            }
        }
    }
    let globals = ck.data.len();
    // The console follows the constants, when the program prints, then the input slot, when it reads.
    let console = globals + pool.len();
    let input = console + usize::from(prints);
    let regs = input + usize::from(reads);
    let stack = regs + if recursion { REGS.len() } else { 0 };
    // MULSTEP's pair starts on an even slot (its two words are partners).
    let mul = (stack + low.stack_slots).next_multiple_of(2);
    let slots = if multiplies { mul + 2 } else { stack + low.stack_slots };
    if count > cfg.instr_slots() || slots > cfg.mem_slots {
        return Err(budget_error(cfg, count, slots, globals, pool.len(), low.stack_slots));
    }
    let slot_of = |m: Mem| -> usize {
        match m {
            Mem::Global(s) => s,
            Mem::Stack(d) => stack + d,
            Mem::Reg(r) => regs + REGS.iter().position(|&x| x == r).expect("invariant: every register is listed"),
            Mem::Console => console,
            Mem::Input => input,
            Mem::Mul(k) => mul + k,
            Mem::Frame(_) | Mem::Num(_) => unreachable!("invariant: these slots are placed by code generation"),
            other => {
                globals + pool.iter().position(|p| *p == pooled(other)).expect("invariant: every constant is pooled")
            }
        }
    };
    let col = |o: Opd| -> u32 {
        match o {
            Opd::Nil => 0,
            Opd::M(m) => cfg.mem_col(slot_of(m)) as u32,
            Opd::L(l) => cfg.instr_col(*at.get(&l).expect("invariant: every jump target is placed")) as u32,
        }
    };
    let mut prog = Program::empty(cfg);
    prog.reserves_null = true;
    for it in &items {
        if let Item::Ins { op, a, b, c, loc, dbg } = *it {
            prog.debug.at.push(dbg);
            if b == Opd::M(Mem::Console) {
                prog.outputs.push(prog.code.len());
            }
            if c == Opd::M(Mem::Input) {
                prog.input_reads.push(prog.code.len());
            }
            if b == Opd::M(Mem::Input) {
                prog.input_advances.push(prog.code.len());
            }
            let ins = match op {
                Opcode::Subleq => Instr::subleq(col(a), col(b), col(c)),
                _ => Instr::ext(op, col(b), col(c)),
            };
            prog.code.push(ins);
            prog.locs.push(loc);
        }
    }
    for (slot, v) in ck.data.iter().enumerate() {
        prog.data[slot] = cfg.wrap(*v);
    }
    for (k, m) in pool.iter().enumerate() {
        prog.data[globals + k] = match *m {
            Mem::Const(v) => cfg.wrap(v),
            Mem::StackAddr(d) => cfg.wrap((stack + d) as i64),
            _ => unreachable!("invariant: the pool holds constants and addresses"),
        };
    }
    for v in ck.vars.iter() {
        if let Some(slot) = v.global_slot {
            // The library's globals (`rand`'s state) are hidden like its locals.
            let library = ck.unit.library.contains(&v.span);
            prog.symbols.push(symbol(&v.name, slot, v.ty.words(), v.ty.is_aggregate(), &v.scope, library));
        }
    }
    prog.symbols.push(symbol("$null", 0, 1, false, "compiler", true));
    let user_globals = ck.vars.iter().filter_map(|v| v.global_slot.map(|s| s + v.ty.words())).max().unwrap_or(1);
    if globals > user_globals {
        prog.symbols.push(symbol("$strings", user_globals, globals - user_globals, true, "compiler", true));
    }
    for &(id, d) in &low.locals {
        let v = &ck.vars[id];
        // Two locals of one function with the same name are told apart by their declaration line.
        let twins = low.locals.iter().filter(|&&(o, _)| ck.vars[o].name == v.name && ck.vars[o].scope == v.scope);
        let scope = if twins.count() > 1 { format!("{}@{}", v.scope, v.span.line) } else { v.scope.clone() };
        let library = ck.unit.library.contains(&v.span);
        prog.symbols.push(symbol(&v.name, stack + d, v.ty.words(), v.ty.is_aggregate(), &scope, library));
    }
    if !pool.is_empty() {
        prog.symbols.push(symbol("$const", globals, pool.len(), true, "compiler", true));
    }
    if prints {
        prog.console = Some(console);
        prog.symbols.push(symbol(CONSOLE, console, 1, false, "compiler", true));
    }
    if reads {
        prog.input = Some(input);
        prog.symbols.push(symbol(INPUT, input, 1, false, "compiler", true));
    }
    if recursion {
        // The run-time stack takes the rest of memory; `Room` counts its words (at most the
        // largest word, so the count itself cannot wrap).
        let base = slots;
        let room = (cfg.mem_slots - base).min(cfg.word_max() as usize);
        prog.data[slot_of(Mem::Reg(Reg::Sp))] = cfg.wrap(base as i64);
        prog.data[slot_of(Mem::Reg(Reg::Room))] = cfg.wrap(room as i64);
        prog.symbols.push(symbol("$calls", regs, REGS.len(), true, "compiler", true));
        if room > 0 {
            prog.symbols.push(symbol("$callstack", base, room, true, "compiler", true));
        }
    }
    if low.stack_slots > 0 {
        prog.symbols.push(symbol("$stack", stack, low.stack_slots, true, "compiler", true));
    }
    if multiplies {
        prog.symbols.push(symbol("$mul", mul, 2, true, "compiler", true));
    }
    prog.debug = debug_info(tracker, &prog.debug.at, ck, cfg, &slot_of);
    prog.frames = low.frames.iter().filter_map(|l| at.get(l).copied()).collect();
    prog.traps = low
        .traps
        .iter()
        .filter_map(|(l, m, writes)| {
            Some(Trap { index: *at.get(l)?, message: m.clone(), writes: writes.map(&slot_of) })
        })
        .collect();
    Ok(prog)
}

/// The tracker's scopes, variables and sites with their storage placed.
fn debug_info(t: Tracker, at: &[At], ck: &Resolved, cfg: Config, slot_of: &dyn Fn(Mem) -> usize) -> DebugInfo {
    // A substituted address is a constant of its own (it need not be pooled: the callee may
    // never have used it as an operand).
    let home = |m: Mem| match m {
        Mem::Const(v) => Home::Const(cfg.wrap(v)),
        Mem::StackAddr(d) => Home::Const(cfg.wrap(slot_of(Mem::Stack(d)) as i64)),
        Mem::GlobalAddr(s) => Home::Const(cfg.wrap(s as i64)),
        m => Home::Slot(slot_of(m)),
    };
    let mut vars = Vec::new();
    let scopes = t
        .scopes
        .into_iter()
        .map(|s| {
            let frame = s.frame.map(|f| Frame {
                func: f.func,
                call: match f.call {
                    CallGen::Entry => Call::Entry,
                    CallGen::Inline { line } => Call::Inline { line },
                    CallGen::Outlined => Call::Outlined,
                    CallGen::Library { site } => Call::Library { site: slot_of(site) },
                },
                result: f.result.map(home),
            });
            let ids = s
                .vars
                .into_iter()
                .map(|(id, m)| {
                    let v = &ck.vars[id];
                    vars.push(Var { name: v.name.clone(), ty: ctype(&v.ty), home: home(m), line: v.span.line });
                    (vars.len() - 1) as u32
                })
                .collect();
            Scope { parent: s.parent, frame, vars: ids }
        })
        .collect();
    let sites = t
        .sites
        .into_iter()
        .map(|s| Site {
            callee: s.callee,
            number: s.number,
            scope: s.scope,
            line: s.line,
            saved: s.saved,
            saved_from: s.saved_from.map(slot_of),
        })
        .collect();
    let mut globals = Vec::new();
    for v in &ck.vars {
        if let Some(slot) = v.global_slot {
            globals.push(vars.len() as u32);
            vars.push(Var { name: v.name.clone(), ty: ctype(&v.ty), home: Home::Slot(slot), line: v.span.line });
        }
    }
    let structs = ck
        .structs
        .iter()
        .map(|(name, union, members)| StructInfo {
            name: name.clone(),
            union: *union,
            fields: members
                .iter()
                .map(|m| Field { name: m.name.clone(), ty: ctype(&m.ty), offset: m.offset })
                .collect(),
        })
        .collect();
    DebugInfo { scopes, vars, globals, at: at.to_vec(), sites, structs }
}

fn symbol(name: &str, slot: usize, len: usize, array: bool, scope: &str, hidden: bool) -> Symbol {
    Symbol { name: name.to_string(), slot, len, is_array: array && !hidden, scope: scope.to_string(), hidden }
}

fn budget_error(cfg: Config, instrs: usize, slots: usize, globals: usize, pool: usize, stack: usize) -> Diagnostic {
    let mut parts = Vec::new();
    if instrs > cfg.instr_slots() {
        parts.push(format!("{instrs} instruction slots (`{}` has {})", cfg.name, cfg.instr_slots()));
    }
    if slots > cfg.mem_slots {
        parts.push(format!("{slots} memory slots (`{}` has {})", cfg.name, cfg.mem_slots));
    }
    let d =
        Diagnostic::error(Span::new(1, 1, 2), format!("the program does not fit: it needs {}", parts.join(" and ")))
            .with_note(format!(
                "memory: 1 for NULL, {} for globals, {pool} for constants, {stack} for locals and temporaries",
                globals - 1
            ));
    match Config::smallest_fitting(instrs, slots, cfg.word_bits) {
        Some(c) => d.with_hint(format!("the `{}` configuration fits ({c})", c.name)),
        None => d.with_hint("no configuration is large enough: shrink arrays or split work into fewer calls"),
    }
}

fn is_jump_to(it: &Item) -> Option<Label> {
    match it {
        Item::Ins { op: Opcode::Jmp, c: Opd::L(l), .. } => Some(*l),
        _ => None,
    }
}

/// Removes jumps to the next instruction and code after an unconditional
/// jump, and threads jumps that land on another `JMP`.
fn peephole(mut items: Vec<Item>, keep: &[Label]) -> Vec<Item> {
    // A label whose jump was removed because the code falls into it is still reached: it
    // stays, so a trap's HALT reached that way (an `assert` that always fails, placed
    // right before its trap) is still known as the trap.
    let mut keep: std::collections::HashSet<Label> = keep.iter().copied().collect();
    loop {
        let before = items.len();
        // Labels nobody jumps to no longer protect the code after them (e.g. unused traps).
        let mut used = keep.clone();
        for it in &items {
            if let Item::Ins { a, c, .. } = it {
                for o in [a, c] {
                    if let Opd::L(l) = o {
                        used.insert(*l);
                    }
                }
            }
        }
        items.retain(|it| !matches!(it, Item::Label(l) if !used.contains(l)));
        // Thread: a branch to a label followed directly by `JMP m` goes to `m`.
        let mut forward: HashMap<Label, Label> = HashMap::new();
        for (i, it) in items.iter().enumerate() {
            if let Item::Label(l) = it {
                if let Some(next) = items[i + 1..].iter().find(|x| matches!(x, Item::Ins { .. })) {
                    if let Some(m) = is_jump_to(next) {
                        if m != *l {
                            forward.insert(*l, m);
                        }
                    }
                }
            }
        }
        for it in &mut items {
            if let Item::Ins { c: Opd::L(l), .. } | Item::Ins { a: Opd::L(l), .. } = it {
                let mut seen = 0;
                while let Some(&m) = forward.get(l) {
                    *l = m;
                    seen += 1;
                    if seen > 64 {
                        break;
                    }
                }
            }
        }
        let mut out: Vec<Item> = Vec::with_capacity(items.len());
        let mut dead = false;
        for (i, it) in items.iter().enumerate() {
            match it {
                Item::Label(_) => {
                    dead = false;
                    out.push(it.clone());
                }
                _ if dead => {}
                Item::Ins { op, .. } => {
                    if let Some(l) = is_jump_to(it) {
                        let falls = items[i + 1..]
                            .iter()
                            .take_while(|x| matches!(x, Item::Label(_)))
                            .any(|x| matches!(x, Item::Label(m) if *m == l));
                        if falls {
                            keep.insert(l);
                            continue;
                        }
                    }
                    dead = *op == Opcode::Jmp || *op == Opcode::Halt;
                    out.push(it.clone());
                }
            }
        }
        items = out;
        if items.len() == before {
            return items;
        }
    }
}
