//! The program image: what the assembler and the compiler produce and what the
//! interpreter and the transformer load.
//!
//! Loading validates the image once (spec §5 fixes 2, 3, 5, 6), so the engines
//! can execute without re-checking operand regions: only run-time pointers
//! (LOAD/STORE/FIND) can still fault.

use crate::config::{Column, Config};
use crate::debuginfo::DebugInfo;
use crate::isa::{Instr, Opcode, Operand};
use std::fmt;

/// A source location: 1-based line, 1-based column range `[col, end_col)` on that line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct SrcLoc {
    pub line: u32,
    pub col: u32,
    pub end_col: u32,
}

/// A named variable in memory. Scalars have `len == 1` and `is_array == false`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Symbol {
    pub name: String,
    /// First memory slot (not column).
    pub slot: usize,
    pub len: usize,
    pub is_array: bool,
    /// Where the name is visible: `"global"`, or the function (and block) that declares it.
    pub scope: String,
    /// Compiler temporaries are hidden from `vars` output and the UI's variable list.
    pub hidden: bool,
}

/// The console slot's name in listings, the heatmap and the variables a page hides.
pub const CONSOLE: &str = "console";

/// The input slot's name, likewise.
pub const INPUT: &str = "input";

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Program {
    pub config: Config,
    pub code: Vec<Instr>,
    /// Initial memory, one signed N-bit word per slot; always `config.mem_slots` long.
    pub data: Vec<i32>,
    pub symbols: Vec<Symbol>,
    /// Source location of each instruction (same length as `code`), when known.
    pub locs: Vec<Option<SrcLoc>>,
    /// Instruction indices of `frame()` points: the host may pause when the PC reaches one.
    pub frames: Vec<usize>,
    /// Instructions that stop the run with a fault when reached (e.g. the compiler's
    /// division-by-zero check jumps to one). Each is a HALT, so an engine that ignored
    /// traps would still stop; reporting them is the host's job.
    pub traps: Vec<Trap>,
    /// The console: the memory slot a program prints through (`putchar`, `puts`, `printf`),
    /// when it prints at all. Each character is one write of this slot.
    pub console: Option<usize>,
    /// Instruction indices (increasing) that write the console slot: after one executes,
    /// the host appends the slot's low byte to the program's output (`host::Output`).
    pub outputs: Vec<usize>,
    /// The input: the memory slot a program reads what the host gives it through (`getchar`,
    /// `scanf`), when it reads at all. Before an instruction of `input_reads` executes, the
    /// host writes the next unread byte there (−1, `EOF`, at the end of the input).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<usize>,
    /// Instruction indices (increasing) that read the input slot.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub input_reads: Vec<usize>,
    /// Instruction indices (increasing) that write the input slot: the program has consumed
    /// the byte it read, and the host moves on to the next.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub input_advances: Vec<usize>,
    /// Whether slot 0 is NULL's: the compiler places no object there, so a LOAD or STORE
    /// through pointer 0 is C's null pointer dereference and faults (`state::precheck`).
    /// Off for assembly, which may use slot 0 like any other.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reserves_null: bool,
    /// What the compiler knows of each instruction and variable (empty from the assembler).
    /// Not part of any JSON contract.
    #[serde(skip)]
    pub debug: DebugInfo,
}

/// A run-time fault the program raises by reaching instruction `index`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Trap {
    pub index: usize,
    pub message: String,
    /// The memory slot of the variable the faulting statement assigns, which keeps its
    /// old value (C performs no assignment whose right side faults): the debugger says so
    /// beside that variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub writes: Option<usize>,
}

/// Why an image cannot be loaded. `index` names the offending instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub index: Option<usize>,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "instruction {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for LoadError {}

impl Program {
    /// An empty image (all memory zero) for a configuration.
    pub fn empty(config: Config) -> Program {
        Program {
            config,
            code: Vec::new(),
            data: vec![0; config.mem_slots],
            symbols: Vec::new(),
            locs: Vec::new(),
            frames: Vec::new(),
            traps: Vec::new(),
            console: None,
            outputs: Vec::new(),
            input: None,
            input_reads: Vec::new(),
            input_advances: Vec::new(),
            reserves_null: false,
            debug: DebugInfo::default(),
        }
    }

    /// Checks everything that can be checked before running: sizes, opcodes,
    /// operand regions, word ranges. The engines rely on it.
    pub fn validate(&self) -> Result<(), LoadError> {
        let cfg = &self.config;
        let whole = |message: String| Err(LoadError { index: None, message });
        if let Err(e) = cfg.validate() {
            return whole(e.0);
        }
        if self.code.len() > cfg.instr_slots() {
            let hint = match Config::smallest_fitting(self.code.len(), self.used_slots(), cfg.word_bits) {
                Some(c) => format!("; `{}` has {} slots", c.name, c.instr_slots()),
                None => String::new(),
            };
            return whole(format!(
                "the program needs {} instruction slots but `{}` has {}{hint}",
                self.code.len(),
                cfg.name,
                cfg.instr_slots()
            ));
        }
        if self.data.len() != cfg.mem_slots {
            return whole(format!(
                "the image has {} memory words but `{}` has {} slots",
                self.data.len(),
                cfg.name,
                cfg.mem_slots
            ));
        }
        if self.locs.len() != self.code.len() {
            return whole("the source map does not cover every instruction".into());
        }
        for (slot, &v) in self.data.iter().enumerate() {
            if v < cfg.word_min() || v > cfg.word_max() {
                return whole(format!("memory slot {slot} holds {v}, which does not fit in {} bits", cfg.word_bits));
            }
        }
        for sym in &self.symbols {
            if sym.slot + sym.len > cfg.mem_slots {
                return whole(format!("variable `{}` lies outside memory", sym.name));
            }
        }
        for (i, ins) in self.code.iter().enumerate() {
            self.check_instr(*ins).map_err(|message| LoadError { index: Some(i), message })?;
        }
        for &f in &self.frames {
            if f > self.code.len() {
                return whole(format!("frame point {f} lies outside the program"));
            }
        }
        if self.console.is_some_and(|c| c >= cfg.mem_slots) {
            return whole("the console slot lies outside memory".into());
        }
        if self.console.is_none() && !self.outputs.is_empty() {
            return whole("the program has output points but no console slot".into());
        }
        if !self.debug.at.is_empty() && self.debug.at.len() != self.code.len() {
            return whole("the debug information does not cover every instruction".into());
        }
        if let Some(&k) = self.outputs.iter().find(|&&k| k >= self.code.len()) {
            return whole(format!("output point {k} lies outside the program"));
        }
        if !self.outputs.is_sorted_by(|a, b| a < b) {
            return whole("the output points are not in increasing order".into());
        }
        if self.input.is_some_and(|c| c >= cfg.mem_slots) {
            return whole("the input slot lies outside memory".into());
        }
        for (what, list) in [("input read", &self.input_reads), ("input advance", &self.input_advances)] {
            if self.input.is_none() && !list.is_empty() {
                return whole(format!("the program has {what} points but no input slot"));
            }
            if let Some(&k) = list.iter().find(|&&k| k >= self.code.len()) {
                return whole(format!("{what} point {k} lies outside the program"));
            }
            if !list.is_sorted_by(|a, b| a < b) {
                return whole(format!("the {what} points are not in increasing order"));
            }
        }
        for t in &self.traps {
            if self.code.get(t.index) != Some(&Instr::HALT) {
                return whole(format!("trap {} is not a HALT instruction", t.index));
            }
            if t.writes.is_some_and(|w| w >= cfg.mem_slots) {
                return whole(format!("trap {} names a variable outside memory", t.index));
            }
        }
        Ok(())
    }

    /// The trap at instruction `index`, if any.
    pub fn trap_at(&self, index: usize) -> Option<&Trap> {
        self.traps.iter().find(|t| t.index == index)
    }

    fn check_instr(&self, ins: Instr) -> Result<(), String> {
        let op = ins.opcode().ok_or_else(|| {
            let last = crate::isa::OPS.len() - 2;
            format!("undefined opcode {} (defined: 0..={last}, or a ≥ 32 for SUBLEQ)", ins.a)
        })?;
        let info = op.info();
        if op == Opcode::Subleq {
            self.check_operand("a", ins.a, info.a)?;
        }
        // Both DROL words are written by two heads that add their corrections: one column
        // would get both (see `weights::l5_write`).
        if op == Opcode::Drol && ins.b == ins.c {
            return Err("DROL needs two different operands: it writes both".into());
        }
        self.check_operand("b", ins.b, info.b)?;
        self.check_operand("c", ins.c, info.c)?;
        if op == Opcode::Mulstep {
            // c's partner holds the multiplier, which MULSTEP reads and writes like c and b.
            let partner = ins.c ^ 1;
            if !matches!(self.config.column(partner as usize), Column::Memory(_)) {
                return Err(format!("MULSTEP's multiplier slot (c ^ 1 = column {partner}) is outside memory"));
            }
            if ins.b == partner {
                return Err("MULSTEP writes b and c ^ 1: they must differ".into());
            }
        }
        Ok(())
    }

    fn check_operand(&self, field: &str, v: u32, kind: Operand) -> Result<(), String> {
        let cfg = &self.config;
        let v = v as usize;
        let ok = match kind {
            Operand::None => v == 0,
            Operand::Mem => (cfg.mem_col(0)..cfg.mem_col(cfg.mem_slots)).contains(&v),
            Operand::Target => (cfg.instr_col(0)..cfg.instr_col(self.code.len())).contains(&v),
        };
        if ok {
            return Ok(());
        }
        Err(match kind {
            Operand::None => format!("operand {field} must be 0, found {v}"),
            Operand::Mem => format!(
                "operand {field} = {v} is not a memory column (memory is columns {}..{})",
                cfg.mem_col(0),
                cfg.mem_col(cfg.mem_slots) - 1
            ),
            Operand::Target => format!(
                "jump target {field} = {v} is outside the program (instructions are columns {}..{})",
                cfg.instr_col(0),
                cfg.instr_col(self.code.len()).saturating_sub(1)
            ),
        })
    }

    /// Memory slots up to the last one a symbol or nonzero word uses.
    pub fn used_slots(&self) -> usize {
        let by_sym = self.symbols.iter().map(|s| s.slot + s.len).max().unwrap_or(0);
        let by_data = self.data.iter().rposition(|&v| v != 0).map_or(0, |i| i + 1);
        by_sym.max(by_data)
    }

    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }

    /// The global variable that owns memory slot `slot` alone: visible, of
    /// global scope (stack slots are shared by locals and temporaries over
    /// time, so they have no one name) and with a name no other variable has.
    pub fn symbol_at(&self, slot: usize) -> Option<&Symbol> {
        let visible = || self.symbols.iter().filter(|s| !s.hidden);
        visible().find(|s| {
            s.scope == "global"
                && (s.slot..s.slot + s.len).contains(&slot)
                && visible().filter(|o| o.name == s.name).count() == 1
        })
    }

    /// A memory column by what it holds, for listings and the UI: `sum`,
    /// `xs[2]`, a compiler constant `#5`, or `[7]` (the slot); any other column `col 3`.
    pub fn slot_name(&self, col: u32) -> String {
        let Some(slot) = (col as usize).checked_sub(self.config.mem_col(0)).filter(|&s| s < self.config.mem_slots)
        else {
            return format!("col {col}");
        };
        if self.console == Some(slot) {
            return CONSOLE.to_string();
        }
        if self.input == Some(slot) {
            return INPUT.to_string();
        }
        if let Some(s) = self.symbol_at(slot) {
            return if s.is_array { format!("{}[{}]", s.name, slot - s.slot) } else { s.name.clone() };
        }
        match self.symbol("$const") {
            Some(c) if (c.slot..c.slot + c.len).contains(&slot) => format!("#{}", self.data[slot]),
            _ => format!("[{slot}]"),
        }
    }

    /// Source line of the instruction at column `pc`, if known.
    pub fn line_at_pc(&self, pc: usize) -> Option<u32> {
        let k = pc.checked_sub(self.config.instr_col(0))?;
        self.locs.get(k).copied().flatten().map(|l| l.line)
    }
}
