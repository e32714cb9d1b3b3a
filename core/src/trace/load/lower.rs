//! From a validated binary to flat code. `wasmparser` validates the module and
//! decodes its sections and operators; this pass keeps the subset the trace
//! machine runs and resolves structured control flow into jumps:
//!
//! - a control stack mirrors `block`/`loop`/`if`; each entry knows the static
//!   stack height below its parameters, so a branch knows how many values to
//!   keep (the label's arity) and how many to drop (the rest, down to that
//!   height);
//! - a branch to a `loop` jumps back to its start (known); to a `block`, `if`
//!   or the function, forward to its end (patched when the `end` is reached;
//!   the function's end is its final `return`);
//! - code after an unconditional branch is unreachable and its stack is
//!   polymorphic: it is checked for unsupported operators but not emitted.

use super::LoadError;
use crate::trace::alu::{BinOp, UnOp};
use crate::trace::code::{Access, Branch, Code, Func, Instr, Origin};
use wasmparser::{
    BlockType, DataKind, ExternalKind, FuncType, FunctionBody, MemArg, Operator, Parser, Payload, ValType, Validator,
};

pub(super) fn lower(bytes: &[u8]) -> Result<Code, LoadError> {
    Validator::new().validate_all(bytes).map_err(|e| LoadError::new(e.message(), Some(e.offset())))?;
    let mut m = Module::default();
    for payload in Parser::new(0).parse_all(bytes) {
        m.section(payload.map_err(reader)?)?;
    }
    m.finish()
}

fn reader(e: wasmparser::BinaryReaderError) -> LoadError {
    LoadError::new(e.message(), Some(e.offset()))
}

fn unsupported(what: impl std::fmt::Display, offset: usize) -> LoadError {
    LoadError::new(format!("{what} (the trace machine runs an i32 subset of WebAssembly)"), Some(offset))
}

#[derive(Default)]
struct Module<'a> {
    types: Vec<FuncType>,
    func_types: Vec<u32>,
    bodies: Vec<FunctionBody<'a>>,
    globals: Vec<i32>,
    memories: u32,
    pages: u32,
    data: Vec<(u32, Vec<u8>, usize)>,
    main: Option<u32>,
}

impl<'a> Module<'a> {
    fn section(&mut self, payload: Payload<'a>) -> Result<(), LoadError> {
        match payload {
            Payload::Version { .. }
            | Payload::CustomSection(_)
            | Payload::DataCountSection { .. }
            | Payload::CodeSectionStart { .. }
            | Payload::End(_) => {}
            Payload::TypeSection(r) => {
                for t in r.into_iter_err_on_gc_types() {
                    self.types.push(t.map_err(reader)?);
                }
            }
            Payload::FunctionSection(r) => {
                for t in r {
                    self.func_types.push(t.map_err(reader)?);
                }
            }
            Payload::MemorySection(r) => {
                for mem in r.into_iter_with_offsets() {
                    let (offset, mem) = mem.map_err(reader)?;
                    self.memories += 1;
                    if mem.memory64 || mem.shared || self.memories > 1 {
                        return Err(unsupported("only one 32-bit, unshared memory is supported", offset));
                    }
                    self.pages = mem.initial as u32;
                }
            }
            Payload::GlobalSection(r) => {
                for g in r.into_iter_with_offsets() {
                    let (offset, g) = g.map_err(reader)?;
                    if g.ty.content_type != ValType::I32 {
                        return Err(unsupported(format!("a global of type {}", g.ty.content_type), offset));
                    }
                    self.globals.push(const_i32(&g.init_expr)?);
                }
            }
            Payload::ExportSection(r) => {
                for e in r {
                    let e = e.map_err(reader)?;
                    if e.name == "main" && e.kind == ExternalKind::Func {
                        self.main = Some(e.index);
                    }
                }
            }
            Payload::DataSection(r) => {
                for d in r {
                    let d = d.map_err(reader)?;
                    match d.kind {
                        DataKind::Active { memory_index: 0, offset_expr } => {
                            let at = const_i32(&offset_expr)? as u32;
                            self.data.push((at, d.data.to_vec(), d.range.start));
                        }
                        _ => return Err(unsupported("a passive data segment", d.range.start)),
                    }
                }
            }
            Payload::CodeSectionEntry(body) => self.bodies.push(body),
            Payload::ImportSection(r) => {
                return Err(unsupported("imports are not supported: the machine has no host", r.range().start))
            }
            Payload::StartSection { range, .. } => return Err(unsupported("a start function", range.start)),
            other => {
                let (id, range) = other.as_section().unwrap_or((0, 0..0));
                let what = match id {
                    4 | 9 => "tables and element segments (no call_indirect)".to_string(),
                    _ => format!("section {id}"),
                };
                return Err(unsupported(what, range.start));
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<Code, LoadError> {
        let main = self.main.ok_or_else(|| LoadError::new("the module exports no function `main`", None))?;
        let mut sigs = Vec::new();
        for (i, &t) in self.func_types.iter().enumerate() {
            let ty = &self.types[t as usize];
            let at = self.bodies.get(i).map_or(0, |b| b.range().start);
            let (params, results) = i32_counts(ty).map_err(|t| {
                let mut e = unsupported(format!("function {i} has a value of type {t}"), at);
                e.func = Some(i as u32);
                e
            })?;
            sigs.push((params, results));
        }
        if sigs[main as usize].0 != 0 {
            return Err(LoadError::new("`main` must take no parameters", None));
        }
        let mut code = Code { main, globals: self.globals, pages: self.pages, ..Code::default() };
        for (i, body) in self.bodies.iter().enumerate() {
            lower_body(&mut code, &self.types, &sigs, i as u32, body)?;
        }
        let bytes = code.memory_bytes();
        for (at, data, offset) in self.data {
            if u64::from(at) + data.len() as u64 > bytes {
                let msg = format!(
                    "a data segment of {} bytes at {at} does not fit in the memory ({bytes} bytes)",
                    data.len()
                );
                return Err(LoadError::new(msg, Some(offset)));
            }
            code.data.push((at, data));
        }
        Ok(code)
    }
}

/// Parameter and result counts, if every value is an i32 (else the first other type).
fn i32_counts(ty: &FuncType) -> Result<(u32, u32), ValType> {
    match ty.params().iter().chain(ty.results()).find(|&&t| t != ValType::I32) {
        Some(&t) => Err(t),
        None => Ok((ty.params().len() as u32, ty.results().len() as u32)),
    }
}

/// A constant initialiser: `i32.const N` and nothing else.
fn const_i32(expr: &wasmparser::ConstExpr) -> Result<i32, LoadError> {
    let at = expr.get_binary_reader().original_position();
    let mut ops = expr.get_operators_reader();
    match (ops.read(), ops.read()) {
        (Ok(Operator::I32Const { value }), Ok(Operator::End)) => Ok(value),
        _ => Err(unsupported("an initialiser other than `i32.const`", at)),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Func,
    Block,
    Loop,
    /// An `if` (its `If` instruction still to patch when `Some`).
    If(Option<usize>),
}

enum Patch {
    Instr(usize),
    Table(usize),
}

struct Ctrl {
    kind: Kind,
    /// Static stack height below the block's parameters.
    base: u32,
    params: u32,
    results: u32,
    /// The first instruction inside (a loop's branch target).
    start: u32,
    /// Forward branches to this block's end.
    patches: Vec<Patch>,
    /// Opened in unreachable code: nothing inside is emitted.
    dead: bool,
}

struct Lowering<'c> {
    code: &'c mut Code,
    types: &'c [FuncType],
    sigs: &'c [(u32, u32)],
    func: u32,
    /// Parameters plus declared locals.
    frame: u32,
    /// Static stack height in this function.
    h: u32,
    dead: bool,
    ctrl: Vec<Ctrl>,
    op: u32,
    offset: usize,
}

fn lower_body(
    code: &mut Code,
    types: &[FuncType],
    sigs: &[(u32, u32)],
    func: u32,
    body: &FunctionBody,
) -> Result<(), LoadError> {
    let (params, results) = sigs[func as usize];
    let mut locals = 0u32;
    let mut reader_of_locals = body.get_locals_reader().map_err(reader)?;
    for _ in 0..reader_of_locals.get_count() {
        let offset = reader_of_locals.original_position();
        let (count, ty) = reader_of_locals.read().map_err(reader)?;
        if ty != ValType::I32 {
            let mut e = unsupported(format!("a local of type {ty}"), offset);
            e.func = Some(func);
            return Err(e);
        }
        locals += count;
    }
    let entry = code.instrs.len() as u32;
    code.funcs.push(Func { entry, params, locals, results });
    let root = Ctrl { kind: Kind::Func, base: 0, params: 0, results, start: entry, patches: Vec::new(), dead: false };
    let mut l = Lowering {
        code,
        types,
        sigs,
        func,
        frame: params + locals,
        h: 0,
        dead: false,
        ctrl: vec![root],
        op: 0,
        offset: 0,
    };
    for (i, item) in body.get_operators_reader().map_err(reader)?.into_iter_with_offsets().enumerate() {
        let (op, offset) = item.map_err(reader)?;
        (l.op, l.offset) = (i as u32, offset);
        l.operator(op).map_err(|mut e| {
            e.func = Some(func);
            e.op = Some(i as u32);
            e
        })?;
    }
    Ok(())
}

impl Lowering<'_> {
    fn emit(&mut self, instr: Instr) -> usize {
        self.code.instrs.push(instr);
        self.code.origins.push(Origin { func: self.func, op: self.op, offset: self.offset as u32 });
        self.code.instrs.len() - 1
    }

    fn here(&self) -> u32 {
        self.code.instrs.len() as u32
    }

    /// Validated code never lets the static height go negative; if it did,
    /// this is our bug, reported rather than a panic.
    fn lower_h(&self, by: u32) -> Result<u32, LoadError> {
        self.h.checked_sub(by).ok_or_else(|| LoadError::new("internal: stack height below zero", Some(self.offset)))
    }

    fn operator(&mut self, op: Operator) -> Result<(), LoadError> {
        let (instr, pops, pushes) = match op {
            Operator::Block { blockty } => return self.open(Kind::Block, blockty),
            Operator::Loop { blockty } => return self.open(Kind::Loop, blockty),
            Operator::If { blockty } => return self.open(Kind::If(None), blockty),
            Operator::Else => return self.else_arm(),
            Operator::End => return self.end(),
            Operator::Br { relative_depth } => return self.br(relative_depth, false),
            Operator::BrIf { relative_depth } => return self.br(relative_depth, true),
            Operator::BrTable { targets } => {
                let mut depths = Vec::new();
                for t in targets.targets() {
                    depths.push(t.map_err(reader)?);
                }
                depths.push(targets.default());
                return self.br_table(&depths);
            }
            Operator::Return if self.dead => return Ok(()),
            Operator::Return => {
                let results = self.ctrl[0].results;
                let drop = self.lower_h(results)?;
                return self.transfer(Instr::Return { keep: results, drop });
            }
            Operator::Unreachable => return self.transfer(Instr::Unreachable),
            Operator::Call { function_index } => {
                let (p, r) = self.sigs[function_index as usize];
                (Instr::Call { func: function_index, frame: self.frame }, p, r)
            }
            Operator::Nop => (Instr::Nop, 0, 0),
            Operator::Drop => (Instr::Drop, 1, 0),
            Operator::Select => (Instr::Select, 3, 1),
            Operator::TypedSelect { ty: ValType::I32 } => (Instr::Select, 3, 1),
            Operator::LocalGet { local_index } => (Instr::LocalGet(local_index), 0, 1),
            Operator::LocalSet { local_index } => (Instr::LocalSet(local_index), 1, 0),
            Operator::LocalTee { local_index } => (Instr::LocalTee(local_index), 1, 1),
            Operator::GlobalGet { global_index } => (Instr::GlobalGet(global_index), 0, 1),
            Operator::GlobalSet { global_index } => (Instr::GlobalSet(global_index), 1, 0),
            Operator::I32Load { memarg } => (Instr::Load(access(memarg, 4, false)), 1, 1),
            Operator::I32Load8S { memarg } => (Instr::Load(access(memarg, 1, true)), 1, 1),
            Operator::I32Load8U { memarg } => (Instr::Load(access(memarg, 1, false)), 1, 1),
            Operator::I32Load16S { memarg } => (Instr::Load(access(memarg, 2, true)), 1, 1),
            Operator::I32Load16U { memarg } => (Instr::Load(access(memarg, 2, false)), 1, 1),
            Operator::I32Store { memarg } => (Instr::Store(access(memarg, 4, false)), 2, 0),
            Operator::I32Store8 { memarg } => (Instr::Store(access(memarg, 1, false)), 2, 0),
            Operator::I32Store16 { memarg } => (Instr::Store(access(memarg, 2, false)), 2, 0),
            Operator::MemorySize { mem: 0 } => (Instr::MemorySize, 0, 1),
            Operator::I32Const { value } => (Instr::Const(value), 0, 1),
            op => match arith(&op) {
                Some(Instr::Unary(u)) => (Instr::Unary(u), 1, 1),
                Some(b) => (b, 2, 1),
                None => return Err(unsupported(format!("unsupported instruction `{}`", mnemonic(&op)), self.offset)),
            },
        };
        if !self.dead {
            self.h = self.lower_h(pops)? + pushes;
            self.emit(instr);
        }
        Ok(())
    }

    /// An instruction after which the code is unreachable.
    fn transfer(&mut self, instr: Instr) -> Result<(), LoadError> {
        if !self.dead {
            self.emit(instr);
            self.dead = true;
        }
        Ok(())
    }

    fn block_type(&self, bt: BlockType) -> Result<(u32, u32), LoadError> {
        match bt {
            BlockType::Empty => Ok((0, 0)),
            BlockType::Type(ValType::I32) => Ok((0, 1)),
            BlockType::Type(t) => Err(unsupported(format!("a block of type {t}"), self.offset)),
            BlockType::FuncType(i) => i32_counts(&self.types[i as usize])
                .map_err(|t| unsupported(format!("a block with a value of type {t}"), self.offset)),
        }
    }

    fn open(&mut self, kind: Kind, bt: BlockType) -> Result<(), LoadError> {
        let (params, results) = self.block_type(bt)?;
        let mut c = Ctrl { kind, base: 0, params, results, start: 0, patches: Vec::new(), dead: self.dead };
        if !self.dead {
            if kind == Kind::If(None) {
                self.h = self.lower_h(1)?;
                c.kind = Kind::If(Some(self.emit(Instr::If(u32::MAX))));
            }
            c.base = self.lower_h(params)?;
            c.start = self.here();
        }
        self.ctrl.push(c);
        Ok(())
    }

    fn else_arm(&mut self) -> Result<(), LoadError> {
        let Some(c) = self.ctrl.last() else {
            return Err(LoadError::new("internal: else outside if", Some(self.offset)));
        };
        if c.dead {
            return Ok(());
        }
        if !self.dead {
            let at = self.emit(Instr::Else(u32::MAX));
            if let Some(c) = self.ctrl.last_mut() {
                c.patches.push(Patch::Instr(at));
            }
        }
        let here = self.here();
        if let Some(c) = self.ctrl.last_mut() {
            if let Kind::If(Some(at)) = c.kind {
                self.code.instrs[at] = Instr::If(here);
            }
            c.kind = Kind::If(None);
            self.h = c.base + c.params;
        }
        self.dead = false;
        Ok(())
    }

    fn end(&mut self) -> Result<(), LoadError> {
        let Some(c) = self.ctrl.pop() else {
            return Err(LoadError::new("internal: unbalanced end", Some(self.offset)));
        };
        if c.dead {
            return Ok(());
        }
        let here = self.here();
        for p in &c.patches {
            match *p {
                Patch::Instr(at) => match &mut self.code.instrs[at] {
                    Instr::Br(b) | Instr::BrIf(b) => b.target = here,
                    Instr::Else(t) => *t = here,
                    _ => {}
                },
                Patch::Table(at) => self.code.tables[at].target = here,
            }
        }
        if let Kind::If(Some(at)) = c.kind {
            self.code.instrs[at] = Instr::If(here);
        }
        self.h = c.base + c.results;
        self.dead = false;
        if c.kind == Kind::Func {
            self.emit(Instr::Return { keep: c.results, drop: 0 });
        }
        Ok(())
    }

    /// The branch to the label `depth` levels out, from the current height;
    /// a forward target is left to patch at `patch`.
    fn branch(&mut self, depth: u32, patch: Patch) -> Result<Branch, LoadError> {
        let i = self.ctrl.len().checked_sub(1 + depth as usize);
        let c = i.map(|i| &mut self.ctrl[i]).ok_or_else(|| LoadError::new("internal: no such label", None))?;
        let keep = if c.kind == Kind::Loop { c.params } else { c.results };
        let drop = self.h.checked_sub(c.base + keep).ok_or_else(|| LoadError::new("internal: branch height", None))?;
        let target = if c.kind == Kind::Loop {
            c.start
        } else {
            c.patches.push(patch);
            u32::MAX
        };
        Ok(Branch { target, keep, drop })
    }

    fn br(&mut self, depth: u32, conditional: bool) -> Result<(), LoadError> {
        if self.dead {
            return Ok(());
        }
        if conditional {
            self.h = self.lower_h(1)?;
        }
        let b = self.branch(depth, Patch::Instr(self.code.instrs.len()))?;
        if conditional {
            self.emit(Instr::BrIf(b));
            Ok(())
        } else {
            self.transfer(Instr::Br(b))
        }
    }

    fn br_table(&mut self, depths: &[u32]) -> Result<(), LoadError> {
        if self.dead {
            return Ok(());
        }
        self.h = self.lower_h(1)?;
        let first = self.code.tables.len() as u32;
        for &d in depths {
            let b = self.branch(d, Patch::Table(self.code.tables.len()))?;
            self.code.tables.push(b);
        }
        self.transfer(Instr::BrTable { first, count: depths.len() as u32 })
    }
}

fn access(m: MemArg, width: u8, signed: bool) -> Access {
    // Validation limits a 32-bit memory's offsets to 32 bits.
    Access { width, signed, offset: m.offset as u32 }
}

/// The i32 arithmetic operators.
fn arith(op: &Operator) -> Option<Instr> {
    use Operator as O;
    let u = |o| Some(Instr::Unary(o));
    let b = |o| Some(Instr::Binary(o));
    match op {
        O::I32Eqz => u(UnOp::Eqz),
        O::I32Clz => u(UnOp::Clz),
        O::I32Ctz => u(UnOp::Ctz),
        O::I32Popcnt => u(UnOp::Popcnt),
        O::I32Extend8S => u(UnOp::Extend8S),
        O::I32Extend16S => u(UnOp::Extend16S),
        O::I32Add => b(BinOp::Add),
        O::I32Sub => b(BinOp::Sub),
        O::I32Mul => b(BinOp::Mul),
        O::I32DivS => b(BinOp::DivS),
        O::I32DivU => b(BinOp::DivU),
        O::I32RemS => b(BinOp::RemS),
        O::I32RemU => b(BinOp::RemU),
        O::I32And => b(BinOp::And),
        O::I32Or => b(BinOp::Or),
        O::I32Xor => b(BinOp::Xor),
        O::I32Shl => b(BinOp::Shl),
        O::I32ShrS => b(BinOp::ShrS),
        O::I32ShrU => b(BinOp::ShrU),
        O::I32Rotl => b(BinOp::Rotl),
        O::I32Rotr => b(BinOp::Rotr),
        O::I32Eq => b(BinOp::Eq),
        O::I32Ne => b(BinOp::Ne),
        O::I32LtS => b(BinOp::LtS),
        O::I32LtU => b(BinOp::LtU),
        O::I32GtS => b(BinOp::GtS),
        O::I32GtU => b(BinOp::GtU),
        O::I32LeS => b(BinOp::LeS),
        O::I32LeU => b(BinOp::LeU),
        O::I32GeS => b(BinOp::GeS),
        O::I32GeU => b(BinOp::GeU),
        _ => None,
    }
}

/// The WAT mnemonic of an operator, from its name in `wasmparser`
/// (`I64ExtendI32S` → `i64.extend_i32_s`, `CallIndirect` → `call_indirect`).
fn mnemonic(op: &Operator) -> String {
    let debug = format!("{op:?}");
    let name = debug.split([' ', '{', '(']).next().unwrap_or_default();
    let mut words: Vec<String> = Vec::new();
    for ch in name.chars() {
        match words.last_mut() {
            Some(w) if !ch.is_ascii_uppercase() => w.push(ch),
            _ => words.push(ch.to_ascii_lowercase().to_string()),
        }
    }
    const PREFIXES: [&str; 14] = [
        "i32", "i64", "f32", "f64", "v128", "memory", "table", "ref", "data", "elem", "i8x16", "i16x8", "i32x4",
        "f32x4",
    ];
    match words.split_first() {
        Some((first, rest)) if PREFIXES.contains(&first.as_str()) && !rest.is_empty() => {
            format!("{first}.{}", rest.join("_"))
        }
        _ => words.join("_"),
    }
}
