//! The generator: a seed gives one random [`Program`] in our C subset, which
//! terminates (every loop is counted or guarded, `MAX_MULT` bounds how often a
//! statement runs), stays in bounds (indices are masked), and is defined C with
//! one meaning (no unsequenced side effects, shift counts below N, no
//! uninitialised reads). Division by anything stays: a zero divisor is our
//! machine's fault, which gcc's side reports the same way.

mod expr;

use super::alias::{Aliases, Object, Shape};
use super::program::*;
use super::rng::Rng;
use super::scope::*;

/// The pseudo-variable a statement that prints writes, in function summaries.
const OUTPUT: &str = "<output>";

/// No statement runs more often than this per run of `main`.
const MAX_MULT: u64 = 64;
/// Nodes in `main` once calls are inlined: keeps most programs within the
/// instruction slots of a 512-column machine.
const MAX_SIZE: usize = 260;

/// The parts of the language the generator may use beyond the first subset
/// (`ours::features` finds what the compiler accepts). Off, they draw nothing
/// from the seed, so a seed names the same program either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// `char` variables and arrays, strings as initializers.
    pub chars: bool,
    pub switch: bool,
    /// Recursive functions (a depth parameter bounds them).
    pub recursion: bool,
    /// Pointer and array parameters (`int *p`, `int v[]`).
    pub pointers: bool,
    /// `printf` and `putchar`.
    pub output: bool,
    /// 32-bit words with C's integer types: typed variables, casts, suffixed constants.
    pub types: bool,
    /// `enum` declarations, their enumerators used as constants.
    pub enums: bool,
    /// `typedef` names for the types of declarations.
    pub typedefs: bool,
    /// `static` locals (one object across calls).
    pub statics: bool,
    /// The comma operator.
    pub comma: bool,
    /// `goto` forward over a block.
    pub goto: bool,
    /// `struct` types, globals and arrays of them, members, copies.
    pub structs: bool,
    /// `scanf("%d", …)` and `getchar()` reading a generated input.
    pub input: bool,
    /// Function-like macros.
    pub macros: bool,
    /// `<ctype.h>`, and on 32-bit words `strlen`, `strcmp` and `atoi`.
    pub library: bool,
    /// `union`s whose members have one type (so reading any member is defined).
    pub unions: bool,
    /// Pointers to functions and tables of them, called from `main`.
    pub fn_pointers: bool,
}

/// The program a seed names. `avoid_known`: steer around the bugs in `known`.
pub fn program(seed: u64, avoid_known: bool, features: Features) -> Program {
    let mut rng = Rng::new(seed);
    let bits = if features.types && rng.chance(1, 3) {
        32
    } else if rng.chance(1, 4) {
        16
    } else {
        8
    };
    let mut g = Gen {
        rng,
        bits,
        scopes: Scopes::default(),
        funcs: Vec::new(),
        fresh: 0,
        cur: Acc::default(),
        aliases: Aliases::default(),
        mult: 1,
        loops: 0,
        returns_int: false,
        in_plain_function: false,
        avoid_known,
        defines: Vec::new(),
        enumerators: Vec::new(),
        typedefs: Vec::new(),
        features,
        breakable: 0,
        strings: Vec::new(),
        struct_objects: Vec::new(),
    };
    g.program()
}

struct Gen {
    rng: Rng,
    bits: u32,
    scopes: Scopes,
    funcs: Vec<FnInfo>,
    fresh: usize,
    /// What the function being written touches so far.
    cur: Acc,
    /// What its names may denote (its pointer and array parameters).
    aliases: Aliases,
    /// How often the current statement runs per call of its function.
    mult: u64,
    /// Enclosing loops (`break` and `continue` need one).
    loops: u32,
    returns_int: bool,
    /// Writing a function that is not recursive (only these get `static` locals).
    in_plain_function: bool,
    avoid_known: bool,
    /// The program's `#define`s: name, value, spelling.
    defines: Vec<(String, i64, Lit)>,
    /// Every enumerator of the program's `enum`s: name and value.
    enumerators: Vec<(String, i64)>,
    typedefs: Vec<(String, CTy)>,
    features: Features,
    /// Enclosing `switch`es (`break` needs a loop or one of them).
    breakable: u32,
    /// Read-only global `char` arrays that hold their string's 0.
    strings: Vec<String>,
    /// Struct globals: name, length, and their type's members.
    struct_objects: Vec<(String, Option<usize>, StructDef)>,
}

#[derive(Default)]
struct Acc {
    reads: Names,
    writes: Names,
    may_fault: bool,
    mult: u64,
    size: usize,
}

/// The expression being written: its footprint and what it may contain.
struct Cx {
    fp: Footprint,
    mode: Mode,
    /// What can fault in it so far. Faults in unsequenced operands race (C
    /// leaves their order open), so a call that can fault excludes any other
    /// fault source; divisions may share one: they fault with one message on one line.
    faults: Faults,
}

#[derive(Clone, Copy, Default, PartialEq)]
enum Faults {
    #[default]
    None,
    Divisions,
    Call,
}

/// How an assignment target is used.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    /// `t = …` as a statement: the right side may read `t` and call functions that write it.
    Plain,
    /// `t op= …`, `t++`: `t` is also read.
    ReadWrite,
    /// An assignment inside an expression.
    Nested,
}

impl Gen {
    fn program(&mut self) -> Program {
        self.scopes.push();
        self.defines = (0..self.rng.below(3))
            .map(|_| {
                let v = self.value();
                let lit = self.spelling(v);
                (self.name("K"), v, lit)
            })
            .collect();
        let enums = if self.features.enums && self.rng.chance(1, 2) {
            (0..1 + self.rng.below(2)).map(|_| self.enum_decl()).collect()
        } else {
            vec![]
        };
        if self.features.typedefs && self.rng.chance(1, 2) {
            self.typedefs = (0..1 + self.rng.below(3))
                .map(|_| {
                    let t = if self.typed() { self.rng.pick(&CTy::ALL) } else { CTy::Int };
                    (self.name("T"), t)
                })
                .collect();
        }
        let mut structs: Vec<StructDef> = if self.features.structs && self.rng.chance(1, 2) {
            (0..1 + self.rng.below(2)).map(|_| self.struct_def()).collect()
        } else {
            vec![]
        };
        if self.features.unions && self.rng.chance(1, 3) {
            let ty = self.ty();
            let fields = (1..=2 + self.rng.below(2)).map(|k| (format!("m{k}"), ty)).collect();
            structs.push(StructDef { tag: self.name("U"), fields, union: true });
        }
        let globals = (0..1 + self.rng.below(6)).map(|_| self.global()).collect();
        let struct_globals = if structs.is_empty() {
            vec![]
        } else {
            (0..1 + self.rng.below(3)).map(|_| self.struct_global(&structs)).collect()
        };
        let input = if self.features.input { self.input_text() } else { String::new() };
        let mut funcs = Vec::new();
        for _ in 0..self.rng.below(5) {
            let recursive = self.features.recursion && self.rng.chance(1, 3);
            funcs.push(if recursive { self.recursive_function() } else { self.function(false) });
        }
        let fn_pointers = if self.features.fn_pointers { self.fn_pointers() } else { vec![] };
        funcs.push(self.function(true));
        let prototypes = self.features.recursion && self.rng.chance(1, 2);
        let mut p = Program {
            bits: self.bits,
            defines: std::mem::take(&mut self.defines),
            enums,
            typedefs: std::mem::take(&mut self.typedefs),
            globals,
            funcs,
            prototypes,
            macros: vec![],
            structs,
            struct_globals,
            input,
            fn_pointers,
        };
        if self.features.macros && self.rng.chance(1, 2) {
            self.macros(&mut p);
        }
        p
    }

    /// One or two function-like macros, each standing for an operator, and
    /// about half of that operator's uses spelled as the macro's calls (so the
    /// macro's operands are checked exactly as the operator's were).
    fn macros(&mut self, p: &mut Program) {
        const OPS: [BinOp; 12] = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::Lt,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::LogAnd,
        ];
        for _ in 0..1 + self.rng.below(2) {
            let op = self.rng.pick(&OPS);
            if !p.macros.iter().any(|m| m.1 == op) {
                p.macros.push((self.name("M"), op));
            }
        }
        let macros = p.macros.clone();
        let rng = &mut self.rng;
        p.visit_exprs_mut(&mut |e| {
            if let Expr::Binary(op, a, b) = e {
                if let Some((name, _)) = macros.iter().find(|m| m.1 == *op) {
                    if rng.chance(1, 2) {
                        *e = Expr::MacroCall(name.clone(), *op, a.clone(), b.clone());
                    }
                }
            }
        });
    }

    /// `struct S { T m1; … };` with one to three integer members.
    fn struct_def(&mut self) -> StructDef {
        let tag = self.name("S");
        let fields = (1..=1 + self.rng.below(3)).map(|k| (format!("m{k}"), self.ty())).collect();
        StructDef { tag, fields, union: false }
    }

    /// Pointers to the functions written so far that take only `int`s, one or a
    /// table of them per signature, sometimes; `main` calls through them as it
    /// calls functions (`t[1](…)`, `p(…)`, `(*p)(…)`), each call with its target's summary.
    fn fn_pointers(&mut self) -> Vec<FnPointer> {
        let mut out = Vec::new();
        let plain: Vec<FnInfo> = (self.funcs.iter())
            .filter(|f| !f.recursive && f.params.iter().all(|k| *k == Kind::Int) && !f.name.contains(['[', '(']))
            .cloned()
            .collect();
        if plain.is_empty() || self.rng.chance(1, 2) {
            return out;
        }
        for _ in 0..1 + self.rng.below(2) {
            let first = plain[self.rng.below(plain.len())].clone();
            let same: Vec<&FnInfo> = plain
                .iter()
                .filter(|f| f.params.len() == first.params.len() && f.returns_int == first.returns_int)
                .collect();
            let len = self.rng.chance(1, 2).then(|| 1 + self.rng.below(3));
            let targets: Vec<FnInfo> =
                (0..len.unwrap_or(1)).map(|_| same[self.rng.below(same.len())].clone()).collect();
            let name = self.name(if len.is_some() { "t" } else { "fp" });
            for (k, f) in targets.iter().enumerate() {
                let callee = match len {
                    Some(_) => format!("{name}[{k}]"),
                    None if self.rng.chance(1, 2) => format!("(*{name})"),
                    None => name.clone(),
                };
                self.funcs.push(FnInfo { name: callee, ..f.clone() });
            }
            out.push(FnPointer {
                name,
                len,
                targets: targets.into_iter().map(|f| f.name).collect(),
                arity: first.params.len(),
                returns_int: first.returns_int,
                ampersand: self.rng.chance(1, 3),
            });
        }
        out
    }

    /// A global of one of `structs`' types, or an array of them, with a brace list
    /// per element (never an empty one: C99 has none); its members become variables.
    fn struct_global(&mut self, structs: &[StructDef]) -> StructGlobal {
        let def = structs[self.rng.below(structs.len())].clone();
        let len = (!def.union && self.rng.chance(1, 2)).then(|| 1 + self.rng.below(4));
        let name = self.name(if len.is_some() { "a" } else { "g" });
        let elements = if self.rng.chance(1, 3) { 0 } else { 1 + self.rng.below(len.unwrap_or(1)) };
        // A union's list initializes its first member only.
        let members = if def.union { 1 } else { def.fields.len() };
        let init =
            (0..elements).map(|_| (0..1 + self.rng.below(members)).map(|_| self.const_expr(2)).collect()).collect();
        for (m, ty) in &def.fields {
            let member = if len.is_some() { format!("{name}[].{m}") } else { format!("{name}.{m}") };
            self.scopes.declare(Var { name: member, len, writable: true, global: true, deref: false, ty: *ty });
        }
        self.struct_objects.push((name.clone(), len, def.clone()));
        StructGlobal { name, tag: def.tag, len, init }
    }

    /// `d = s;` for two struct globals of one type (elements at constant indices).
    fn struct_copy(&mut self) -> Option<Stmt> {
        let (dst, dlen, def) = self.struct_objects[self.rng.below(self.struct_objects.len())].clone();
        let same: Vec<(String, Option<usize>)> =
            self.struct_objects.iter().filter(|o| o.2.tag == def.tag).map(|o| (o.0.clone(), o.1)).collect();
        let (src, slen) = same[self.rng.below(same.len())].clone();
        let at = |g: &mut Gen, len: Option<usize>| len.map(|n| g.rng.below(n));
        let (di, si) = (at(self, dlen), at(self, slen));
        for (m, _) in &def.fields {
            let member =
                |o: &str, len: Option<usize>| if len.is_some() { format!("{o}[].{m}") } else { format!("{o}.{m}") };
            self.touch(&member(&dst, dlen), true);
            self.touch(&member(&src, slen), false);
        }
        Some(Stmt::StructCopy { dst: (dst, di), src: (src, si) })
    }

    /// The program's standard input: numbers in the word's range (never its most
    /// negative, whose digits alone would not be) and words, apart or glued, so
    /// `scanf` meets numbers, letters, and the end of the input.
    fn input_text(&mut self) -> String {
        let mut text = String::new();
        let mut last_number = false;
        let max = (1i64 << (self.bits - 1)) - 1;
        for _ in 0..self.rng.below(9) {
            let number = self.rng.chance(2, 3);
            let glued = !(text.is_empty() || number && last_number) && self.rng.chance(1, 5);
            if !text.is_empty() && !glued {
                text += self.rng.pick(&[" ", " ", "\n", "  ", "\t"]);
            }
            if number {
                let v = self.value().clamp(-max, max);
                text += &v.to_string();
            } else {
                let letters = ["a", "x", "Q", "z", "."];
                text += &(0..1 + self.rng.below(3)).map(|_| self.rng.pick(&letters)).collect::<String>();
            }
            last_number = number;
        }
        if self.rng.chance(1, 2) {
            text.push('\n');
        }
        text
    }

    /// `scanf("%d", &x);` or `x = getchar();` into a scalar the function may write.
    fn read_input(&mut self) -> Option<Stmt> {
        let scan = self.rng.chance(1, 2);
        let ok: Vec<String> = self
            .scopes
            .visible()
            .iter()
            .filter(|v| v.writable && v.len.is_none() && !v.deref && (!scan || v.ty == CTy::Int))
            .map(|v| v.name.clone())
            .collect();
        if ok.is_empty() {
            return None;
        }
        let x = ok[self.rng.below(ok.len())].clone();
        self.touch(&x, true);
        // Reading input is a side effect: two calls that read cannot share an expression.
        self.cur.writes.insert(OUTPUT.to_string());
        Some(if scan { Stmt::Scan(x) } else { Stmt::GetChar(x) })
    }

    /// `enum { A = v, B, C = w };`: one to four enumerators, each explicit or the
    /// previous one plus one (while that stays an N-bit `int`).
    fn enum_decl(&mut self) -> Vec<Enumerator> {
        let max = (1i64 << (self.bits - 1)) - 1;
        let mut out: Vec<Enumerator> = Vec::new();
        for _ in 0..1 + self.rng.below(4) {
            let next = out.last().map_or(0, |e| e.value + 1);
            let explicit = next > max || self.rng.chance(1, 2);
            let value = if explicit { self.value() } else { next };
            let name = self.name("E");
            self.enumerators.push((name.clone(), value));
            out.push(Enumerator { name, value, explicit });
        }
        out
    }

    /// A `typedef` name for `t`, sometimes, if the program has one.
    fn alias(&mut self, t: CTy) -> Option<String> {
        let names: Vec<String> = self.typedefs.iter().filter(|d| d.1 == t).map(|d| d.0.clone()).collect();
        (!names.is_empty() && self.rng.chance(1, 2)).then(|| names[self.rng.below(names.len())].clone())
    }

    /// Whether this program has C's integer types (32-bit words only: on 8 and 16
    /// bits our types are clipped to the word, which gcc cannot build).
    fn typed(&self) -> bool {
        self.features.types && self.bits == 32
    }

    /// A declaration's type: `int` half the time, any other integer type otherwise.
    fn ty(&mut self) -> CTy {
        if !self.typed() || self.rng.chance(1, 2) {
            return CTy::Int;
        }
        self.rng.pick(&CTy::ALL)
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn global(&mut self) -> Global {
        let mut len = self.rng.chance(1, 3).then(|| 1 + self.rng.below(8));
        // A length spelled by a `#define` with a fitting value.
        let len_macro = self.defines.iter().find(|d| (1..=8).contains(&d.1)).map(|d| (d.0.clone(), d.1));
        let len_macro = match (len, len_macro) {
            (Some(_), Some((m, v))) if self.rng.chance(1, 2) => {
                len = Some(v as usize);
                Some(m)
            }
            _ => None,
        };
        let char = self.features.chars && self.rng.chance(1, 4);
        if char && len.is_some() && len_macro.is_none() && self.rng.chance(1, 2) {
            let (name, len, text) = self.string_array();
            let ty = if self.typed() { CTy::Char } else { CTy::Int };
            if len > text.len() {
                self.strings.push(name.clone());
            }
            self.scopes.declare(Var {
                name: name.clone(),
                len: Some(len),
                writable: false,
                global: true,
                deref: false,
                ty,
            });
            return Global { name, len: Some(len), len_macro, init: vec![], char, string: Some(text), ty, alias: None };
        }
        let name = self.name(if len.is_some() { "a" } else { "g" });
        let n = len.unwrap_or(1);
        let count = if self.rng.chance(1, 3) { 0 } else { 1 + self.rng.below(n) };
        let init = (0..count)
            .map(|_| {
                let depth = if self.rng.chance(1, 3) { 3 } else { 0 };
                self.const_expr(depth)
            })
            .collect();
        let ty = self.ty();
        let alias = self.alias(ty);
        self.scopes.declare(Var { name: name.clone(), len, writable: true, global: true, deref: false, ty });
        Global { name, len, len_macro, init, char, string: None, ty, alias }
    }

    fn function(&mut self, main: bool) -> Func {
        let name = if main { "main".to_string() } else { self.name("f") };
        self.in_plain_function = true;
        let arity = if main { 0 } else { self.rng.below(4) };
        self.returns_int = self.rng.chance(if main { 3 } else { 4 }, if main { 4 } else { 5 });
        self.scopes.push();
        let params: Vec<Param> = (0..arity)
            .map(|_| {
                let kind = match self.features.pointers && self.rng.chance(1, 3) {
                    false => Kind::Int,
                    true if self.rng.chance(1, 2) => Kind::Pointer,
                    true => Kind::Array(1 + self.rng.below(4)),
                };
                Param { name: self.name("p"), kind }
            })
            .collect();
        for p in &params {
            let len = match p.kind {
                Kind::Array(n) => Some(n),
                _ => None,
            };
            let deref = p.kind == Kind::Pointer;
            self.scopes.declare(Var { name: p.name.clone(), len, writable: true, global: false, deref, ty: CTy::Int });
        }
        self.aliases = self.aliases_of(&params);
        self.cur = Acc { mult: 1, ..Acc::default() };
        self.mult = 1;
        self.loops = 0;
        let n = if main { 3 + self.rng.below(8) } else { 1 + self.rng.below(5) };
        let mut body = Vec::new();
        self.stmts_into(&mut body, n, if main { 3 } else { 2 });
        if self.returns_int {
            let e = if main && self.rng.chance(1, 2) { Expr::Num(0, Lit::Dec) } else { self.full_expr() };
            body.push(Stmt::Return(Some(e)));
        }
        self.scopes.pop();
        self.aliases = Aliases::default();
        if !main {
            let acc = std::mem::take(&mut self.cur);
            self.funcs.push(FnInfo {
                name: name.clone(),
                params: params.iter().map(|p| p.kind).collect(),
                returns_int: self.returns_int,
                reads: acc.reads,
                writes: acc.writes,
                may_fault: acc.may_fault,
                mult: acc.mult,
                size: acc.size,
                recursive: false,
            });
        }
        Func { name, params, returns_int: self.returns_int, body }
    }

    /// The may-alias relation of a function with these parameters: what a
    /// caller may pass for one (`pointee`) is a writable global of its shape
    /// or another parameter's object.
    fn aliases_of(&self, params: &[Param]) -> Aliases {
        let globals = self.scopes.visible().into_iter().filter(|v| v.global && v.writable && v.ty == CTy::Int);
        let objects: Vec<Object> = globals
            .map(|v| Object {
                name: &v.name,
                shape: if v.len.is_some() { Shape::Array } else { Shape::Scalar },
                indirect: false,
            })
            .chain(params.iter().filter_map(|p| {
                let shape = match p.kind {
                    Kind::Int => return None,
                    Kind::Pointer => Shape::Scalar,
                    Kind::Array(_) => Shape::Array,
                };
                Some(Object { name: &p.name, shape, indirect: true })
            }))
            .collect();
        let mut aliases = Aliases::new(&objects);
        // The members of a union are one object.
        for (name, _, def) in self.struct_objects.iter().filter(|o| o.2.union) {
            let members: Vec<String> = def.fields.iter().map(|(m, _)| format!("{name}.{m}")).collect();
            aliases.join(&members);
        }
        aliases
    }

    /// `f(d, …)`: returns at depth 0, otherwise runs loop-free statements and
    /// calls itself once or twice with `d - 1` (at most 15 activations).
    fn recursive_function(&mut self) -> Func {
        let name = self.name("f");
        self.in_plain_function = false;
        self.returns_int = self.rng.chance(4, 5);
        self.scopes.push();
        let depth = self.name("d");
        self.scopes.declare(Var::counter(&depth));
        let params: Vec<Param> = std::iter::once(depth.clone())
            .chain((0..self.rng.below(3)).map(|_| self.name("p")))
            .map(|name| Param { name, kind: Kind::Int })
            .collect();
        self.aliases = self.aliases_of(&params);
        for p in &params[1..] {
            self.scopes.declare(Var {
                name: p.name.clone(),
                len: None,
                writable: true,
                global: false,
                deref: false,
                ty: CTy::Int,
            });
        }
        self.cur = Acc { mult: 1, ..Acc::default() };
        // No loops, and only calls to loop-free functions: the activations multiply.
        self.mult = MAX_MULT;
        self.loops = 0;
        let base = self.returns_int.then(|| self.full_expr());
        let at_zero = Expr::Binary(BinOp::Le, Box::new(Expr::Var(depth.clone())), Box::new(Expr::Num(0, Lit::Dec)));
        let mut body = vec![Stmt::If(at_zero, vec![Stmt::Return(base)], None)];
        for _ in 0..1 + self.rng.below(2) {
            let n = self.rng.below(3);
            self.stmts_into(&mut body, n, 1);
            let lower = Expr::Binary(BinOp::Sub, Box::new(Expr::Var(depth.clone())), Box::new(Expr::Num(1, Lit::Dec)));
            // Only `int` parameters here: no name aliases another.
            let mut cx = Cx { fp: Footprint::default(), mode: Mode::Pure, faults: Faults::None };
            let args = std::iter::once(lower).chain((1..params.len()).map(|_| self.expr(&mut cx, 2))).collect();
            let call = Expr::Call(name.clone(), args);
            body.push(if self.returns_int && self.rng.chance(2, 3) {
                let local = self.name("x");
                self.scopes.declare(Var {
                    name: local.clone(),
                    len: None,
                    writable: true,
                    global: false,
                    deref: false,
                    ty: CTy::Int,
                });
                Stmt::Decl(vec![Local {
                    name: local,
                    len: None,
                    init: vec![call],
                    char: false,
                    string: None,
                    ty: CTy::Int,
                    alias: None,
                }])
            } else {
                Stmt::Expr(call)
            });
        }
        if self.returns_int {
            let e = self.full_expr();
            body.push(Stmt::Return(Some(e)));
        }
        self.scopes.pop();
        self.aliases = Aliases::default();
        let acc = std::mem::take(&mut self.cur);
        let returns_int = self.returns_int;
        self.funcs.push(FnInfo {
            name: name.clone(),
            params: params.iter().map(|p| p.kind).collect(),
            returns_int,
            reads: acc.reads,
            writes: acc.writes,
            may_fault: acc.may_fault,
            mult: 15,
            size: 4,
            recursive: true,
        });
        Func { name, params, returns_int, body }
    }

    /// A `char` array holding a string: its name, length (room for the 0, or exactly the text) and text.
    fn string_array(&mut self) -> (String, usize, String) {
        const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?-";
        let text: String = (0..self.rng.below(7)).map(|_| LETTERS[self.rng.below(LETTERS.len())] as char).collect();
        let len = (text.len() + self.rng.below(3)).max(1);
        (self.name("s"), len, text)
    }

    /// A block in its own scope.
    fn block(&mut self, n: usize, depth: u32) -> Vec<Stmt> {
        self.scopes.push();
        let mut out = Vec::new();
        self.stmts_into(&mut out, n, depth);
        self.scopes.pop();
        out
    }

    fn stmts_into(&mut self, out: &mut Vec<Stmt>, n: usize, depth: u32) {
        for _ in 0..n {
            if self.cur.size > MAX_SIZE {
                break;
            }
            out.push(self.stmt(depth));
        }
    }

    fn stmt(&mut self, depth: u32) -> Stmt {
        self.cur.size += 1;
        let nested = depth > 0;
        if nested && self.features.switch && self.rng.chance(1, 12) {
            return self.switch(depth);
        }
        if self.breakable > 0 && self.loops == 0 && self.rng.chance(1, 10) {
            return self.guarded(Stmt::Break);
        }
        if self.features.statics && self.in_plain_function && self.rng.chance(1, 14) {
            return self.static_local();
        }
        if self.features.structs && !self.struct_objects.is_empty() && self.rng.chance(1, 16) {
            if let Some(s) = self.struct_copy() {
                return s;
            }
        }
        if self.features.input && self.rng.chance(1, 12) {
            if let Some(s) = self.read_input() {
                return s;
            }
        }
        if nested && self.features.goto && self.rng.chance(1, 16) {
            let cond = self.full_expr();
            let n = 1 + self.rng.below(3);
            let skipped = self.block(n, depth - 1);
            return Stmt::Goto { cond, skipped, label: self.name("L") };
        }
        match self.rng.below(100) {
            0..=11 => self.decl(false),
            12..=15 => self.decl(true),
            16..=44 => self.assign_stmt(),
            45..=54 if nested => {
                let c = self.full_expr();
                let n = 1 + self.rng.below(3);
                let a = self.block(n, depth - 1);
                let b = self.rng.chance(1, 2).then(|| {
                    let n = 1 + self.rng.below(3);
                    self.block(n, depth - 1)
                });
                Stmt::If(c, a, b)
            }
            55..=62 if nested && self.mult * 2 <= MAX_MULT => self.for_loop(depth),
            63..=69 if nested && self.mult * 2 <= MAX_MULT => self.while_loop(depth),
            70..=72 if nested => {
                let n = 1 + self.rng.below(3);
                Stmt::Block(self.block(n, depth - 1))
            }
            73..=79 if self.loops > 0 => {
                let s = if self.rng.chance(1, 2) { Stmt::Break } else { Stmt::Continue };
                self.guarded(s)
            }
            80..=83 => {
                let e = self.returns_int.then(|| self.full_expr());
                self.guarded(Stmt::Return(e))
            }
            84..=92 => self.assert(),
            93..=94 => Stmt::Frame,
            95..=97 if self.features.output => self.print(),
            _ => self.assign_stmt(),
        }
    }

    /// `static T s = constant;`: like a global of its function (a call writes it,
    /// so two calls are never unordered in one expression), visible in its block.
    fn static_local(&mut self) -> Stmt {
        let ty = self.ty();
        let init = if self.rng.chance(1, 4) { vec![] } else { vec![self.const_expr(2)] };
        let name = self.name("s");
        self.scopes.declare(Var { name: name.clone(), len: None, writable: true, global: true, deref: false, ty });
        let alias = self.alias(ty);
        Stmt::Static(Local { name, len: None, init, char: false, string: None, ty, alias })
    }

    /// `switch` with up to five arms (distinct labels, maybe a `default` anywhere),
    /// each falling through or ending with `break`.
    fn switch(&mut self, depth: u32) -> Stmt {
        let cond = self.full_expr();
        let n = 1 + self.rng.below(5);
        let default_at = self.rng.chance(1, 2).then(|| self.rng.below(n));
        let mut used = Vec::new();
        self.breakable += 1;
        let mut arms = Vec::new();
        for k in 0..n {
            let label = (default_at != Some(k)).then(|| {
                let mut v = self.rng.range(-3, 12);
                while used.contains(&v) {
                    v += 1;
                }
                used.push(v);
                Expr::Num(v, self.spelling(v))
            });
            let m = 1 + self.rng.below(3);
            let mut body = self.block(m, depth - 1);
            if self.rng.chance(2, 3) {
                body.push(Stmt::Break);
            }
            arms.push(Arm { label, body });
        }
        self.breakable -= 1;
        Stmt::Switch(cond, arms)
    }

    /// `s`, usually under an `if` (a bare jump makes the rest of the block dead).
    fn guarded(&mut self, s: Stmt) -> Stmt {
        if self.rng.chance(1, 4) {
            return s;
        }
        let c = self.full_expr();
        Stmt::If(c, vec![s], None)
    }

    /// `printf` of one to three values (conversions with flags and widths), or `putchar`.
    fn print(&mut self) -> Stmt {
        // Printing is a side effect: a function that prints is no pure call, and two calls
        // that print cannot share an expression (C leaves their order open).
        self.cur.writes.insert(OUTPUT.to_string());
        let mut cx = self.cx();
        if self.rng.chance(1, 4) {
            return Stmt::Putchar(self.expr(&mut cx, 2));
        }
        let n = 1 + self.rng.below(3);
        let mut convs = Vec::new();
        let mut args = Vec::new();
        for _ in 0..n {
            let letter = ['d', 'i', 'u', 'x', 'X', 'c'][self.rng.below(6)];
            let flag = match (letter, self.rng.below(4)) {
                ('c', 0) | (_, 1) => "-",
                ('c', _) | (_, 0) => "",
                _ => "0",
            };
            let width = if self.rng.chance(1, 2) { 0 } else { self.rng.below(8) as u32 };
            convs.push(Conv { flag, width, letter });
            args.push(self.expr(&mut cx, 2));
        }
        Stmt::Printf(convs, args)
    }

    fn assert(&mut self) -> Stmt {
        let mut cx = self.cx();
        let e = self.expr(&mut cx, 3);
        self.cur.may_fault = true;
        // Mostly true: comparing with a literal rarely hits it.
        let c = if self.rng.chance(1, 8) {
            e
        } else {
            let k = Expr::Num(self.value(), Lit::Dec);
            Expr::Binary(BinOp::Ne, Box::new(e), Box::new(k))
        };
        Stmt::Assert(c)
    }

    /// A fresh local name, or (sometimes) an outer name to shadow.
    fn local_name(&mut self, prefix: &str, init: &[Expr]) -> String {
        if self.rng.chance(1, 5) {
            let inner = self.scopes.innermost();
            let outer: Vec<String> = self
                .scopes
                .visible()
                .iter()
                .map(|v| v.name.clone())
                .filter(|n| !n.contains('.') && !inner.contains(n) && !init.iter().any(|e| e.names(n)))
                .collect();
            if !outer.is_empty() {
                return outer[self.rng.below(outer.len())].clone();
            }
        }
        self.name(prefix)
    }

    /// `int …;` with one to three declarators, each seeing the ones before it.
    fn decl(&mut self, arrays: bool) -> Stmt {
        let n = if self.rng.chance(1, 4) { 2 + self.rng.below(2) } else { 1 };
        let ty = self.ty();
        let mut locals: Vec<Local> = (0..n)
            .map(|_| if arrays && self.rng.chance(1, 2) { self.local_array(ty) } else { self.local(ty) })
            .collect();
        locals[0].alias = self.alias(ty);
        Stmt::Decl(locals)
    }

    fn local(&mut self, ty: CTy) -> Local {
        let init = vec![self.full_expr()];
        let name = self.local_name("x", &init);
        self.scopes.declare(Var { name: name.clone(), len: None, writable: true, global: false, deref: false, ty });
        Local { name, len: None, init, char: false, string: None, ty, alias: None }
    }

    fn local_array(&mut self, ty: CTy) -> Local {
        let len = 1 + self.rng.below(6);
        let mut cx = self.cx();
        let init: Vec<Expr> = (0..1 + self.rng.below(len)).map(|_| self.expr(&mut cx, 2)).collect();
        let name = self.local_name("b", &init);
        self.scopes.declare(Var {
            name: name.clone(),
            len: Some(len),
            writable: true,
            global: false,
            deref: false,
            ty,
        });
        Local { name, len: Some(len), init, char: false, string: None, ty, alias: None }
    }

    fn for_loop(&mut self, depth: u32) -> Stmt {
        let n = self.trips();
        let var = self.name("i");
        if self.rng.chance(1, 3) {
            // Any bounds, any comparison: a guard stops it (the counter may even wrap).
            let g = Guard { var: self.name("k"), bound: n.max(1) as i64 };
            self.scopes.declare(Var::counter(&g.var));
            let from = self.full_expr();
            let cmp = self.rng.pick(&[BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge, BinOp::Ne]);
            let step = self.rng.pick(&[1, 1, 2, 3, -1, -1, -2]);
            self.scopes.push();
            self.scopes.declare(Var::counter(&var));
            let to = self.full_expr();
            let body = self.loop_body(g.bound as u64, depth);
            self.scopes.pop();
            return Stmt::For { var, from, cmp, to, step, guard: Some(g), body };
        }
        let step = self.rng.pick(&[1, 1, 1, 2, 3]);
        let up = self.rng.chance(1, 2);
        let max = (1i64 << (self.bits - 1)) - 1;
        // Near zero, or ending next to an edge of the word (the step after the last stays in range).
        let span = step * n as i64 + self.rng.range(0, 3);
        let from = match (self.rng.chance(1, 2), up) {
            (true, _) => self.rng.range(-20, 20),
            (false, true) => max - span,
            (false, false) => -max - 1 + span,
        };
        // `n` trips: the last value is from ± step·(n − 1); the bound lies before the next one.
        let last = from + (n as i64 - 1) * step * if up { 1 } else { -1 };
        let slack = self.rng.range(0, step - 1);
        let (cmp, to, step) = match (up, self.rng.chance(1, 2)) {
            (true, true) => (BinOp::Lt, last + 1 + slack, step),
            (true, false) => (BinOp::Le, last + slack, step),
            (false, true) => (BinOp::Gt, last - 1 - slack, -step),
            (false, false) => (BinOp::Ge, last - slack, -step),
        };
        self.scopes.push();
        self.scopes.declare(Var::counter(&var));
        let body = self.loop_body(n, depth);
        self.scopes.pop();
        let (from, to) = (Expr::Num(from, Lit::Dec), Expr::Num(to, Lit::Dec));
        Stmt::For { var, from, cmp, to, step, guard: None, body }
    }

    fn while_loop(&mut self, depth: u32) -> Stmt {
        let bound = self.trips().max(1) as i64;
        let var = self.name("k");
        self.scopes.declare(Var::counter(&var));
        let cond = self.full_expr();
        let body = self.loop_body(bound as u64, depth);
        Stmt::While { guard: Guard { var, bound }, cond, body, do_while: self.rng.chance(1, 2) }
    }

    /// Trips of a new loop, within what the enclosing loops leave of `MAX_MULT`.
    fn trips(&mut self) -> u64 {
        let most = (MAX_MULT / self.mult).min(6);
        self.rng.below(most as usize + 1) as u64
    }

    fn loop_body(&mut self, trips: u64, depth: u32) -> Vec<Stmt> {
        let saved = self.mult;
        self.mult *= trips.max(1);
        self.cur.mult = self.cur.mult.max(self.mult);
        self.loops += 1;
        let n = 1 + self.rng.below(4);
        let body = self.block(n, depth - 1);
        self.loops -= 1;
        self.mult = saved;
        body
    }

    /// An expression statement: an assignment, `++`/`--`, or a call.
    fn assign_stmt(&mut self) -> Stmt {
        let mut cx = self.cx();
        if self.rng.chance(1, 6) {
            if let Some(call) = self.call(&mut cx, 2, true) {
                return Stmt::Expr(call);
            }
        }
        if self.rng.chance(1, 6) {
            if let Some(t) = self.target(&mut cx, Target::ReadWrite) {
                return Stmt::Expr(self.incdec(t));
            }
        }
        let compound = self.rng.chance(2, 5);
        let kind = if compound { Target::ReadWrite } else { Target::Plain };
        let Some((name, len)) = self.pick_target(&cx, kind) else {
            return Stmt::Expr(self.expr(&mut cx, 2));
        };
        let t = self.claim_target(&mut cx, name, len, kind);
        Stmt::Expr(self.assignment(&mut cx, t, compound, 3))
    }
}

/// The variable an lvalue names (`*p` names `p`).
fn root(e: &Expr) -> &str {
    match e {
        Expr::Var(n) | Expr::Index(n, _) | Expr::Deref(n) => n,
        _ => "",
    }
}
