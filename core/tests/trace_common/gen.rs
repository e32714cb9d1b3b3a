//! Random WAT programs over every supported instruction, with random 32-bit
//! values. Valid by construction (a typed expression/statement grammar),
//! terminating by construction (loops count down a dedicated local from at
//! most 4; the one recursive function recurses at most 15 deep). Traps are
//! welcome: divisors are only sometimes forced odd, addresses only mostly
//! masked into the memory, and `unreachable` sits behind rare conditions.

use super::Rng;
use std::fmt::Write;

const BINOPS: [&str; 25] = [
    "add", "sub", "mul", "div_s", "div_u", "rem_s", "rem_u", "and", "or", "xor", "shl", "shr_s", "shr_u", "rotl",
    "rotr", "eq", "ne", "lt_s", "lt_u", "gt_s", "gt_u", "le_s", "le_u", "ge_s", "ge_u",
];
const UNOPS: [&str; 6] = ["eqz", "clz", "ctz", "popcnt", "extend8_s", "extend16_s"];
const LOADS: [(&str, u32); 5] = [("load", 4), ("load8_s", 1), ("load8_u", 1), ("load16_s", 2), ("load16_u", 2)];
const STORES: [(&str, u32); 3] = [("store", 4), ("store8", 1), ("store16", 2)];
/// Locals 0..VARS are free for random writes; the loop counters come after.
const VARS: u32 = 4;
const COUNTERS: u32 = 3;
const GLOBALS: u32 = 3;
const HELPERS: usize = 3;

struct Gen<'r> {
    rng: &'r mut Rng,
    /// Enclosing blocks (no values; targets of `br_if` and `br_table`).
    labels: Vec<String>,
    next_label: u32,
    /// Loop nesting (each loop owns a counter).
    loops: u32,
    /// Helpers this function may call (lower indices only, so no recursion
    /// but through `$rec`).
    callable: usize,
    /// Locals of this function (params included).
    locals: u32,
    /// The function's result count, for `return`.
    results: u32,
}

/// A module with helpers, the bounded-recursion `$rec` and `main`.
pub fn program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut s = String::from("(module\n  (memory (export \"memory\") 1)\n");
    for g in 0..GLOBALS {
        let _ = writeln!(s, "  (global $g{g} (export \"g{g}\") (mut i32) (i32.const {}))", rng.value());
    }
    let _ = writeln!(s, "  (global $k i32 (i32.const {}))", rng.value());
    let at = rng.below(60000);
    let bytes: String = (0..rng.below(12)).map(|_| format!("\\{:02x}", rng.below(256))).collect();
    let _ = writeln!(s, "  (data (i32.const {at}) \"{bytes}\")");
    let _ = writeln!(s, "  (type $p1 (func (param i32) (result i32)))");
    let c = rng.value();
    let _ = writeln!(
        s,
        "  (func $rec (param i32 i32) (result i32)\n    (if (result i32) (i32.le_s (local.get 0) (i32.const 0))\n      \
         (then (local.get 1))\n      (else (i32.add (call $rec (i32.sub (local.get 0) (i32.const 1)) (i32.xor (local.get 1) \
         (i32.const {c}))) (local.get 0)))))"
    );
    for h in 0..HELPERS {
        // Helpers have no loops (`loops` starts full): a helper called in
        // main's loops would multiply their rounds.
        let mut g = Gen {
            rng: &mut rng,
            labels: Vec::new(),
            next_label: 0,
            loops: COUNTERS,
            callable: h,
            locals: 2 + VARS + COUNTERS,
            results: 1,
        };
        let body = g.stmts(2, 3);
        let result = g.expr(3);
        let locals = VARS + COUNTERS;
        let _ = writeln!(
            s,
            "  (func $h{h} (param i32 i32) (result i32) (local{})\n{body}    {result})",
            " i32".repeat(locals as usize)
        );
    }
    let mut g = Gen {
        rng: &mut rng,
        labels: Vec::new(),
        next_label: 0,
        loops: 0,
        callable: HELPERS,
        locals: VARS + COUNTERS,
        results: 2,
    };
    let body = g.stmts(3, 6);
    let (r1, r2) = (g.expr(3), g.expr(3));
    let _ = writeln!(
        s,
        "  (func (export \"main\") (result i32 i32) (local{})\n{body}    {r1}\n    {r2}))",
        " i32".repeat(g.locals as usize)
    );
    s
}

impl Gen<'_> {
    fn label(&mut self) -> String {
        self.next_label += 1;
        format!("$l{}", self.next_label)
    }

    fn var(&mut self) -> u32 {
        self.rng.below(u64::from(self.locals - COUNTERS)) as u32
    }

    fn any_label(&mut self) -> Option<String> {
        (!self.labels.is_empty()).then(|| self.rng.pick(&self.labels).clone())
    }

    fn constant(&mut self) -> String {
        format!("(i32.const {})", self.rng.value())
    }

    /// An address: mostly masked into the 64 KiB memory (with an offset that
    /// can still push a wide access past its end), sometimes raw.
    fn address(&mut self, d: u32) -> (String, u32) {
        let offset = if self.rng.chance(30) { self.rng.below(70) as u32 } else { 0 };
        let e = self.expr(d);
        let a = if self.rng.chance(92) { format!("(i32.and {e} (i32.const 0xFFFF))") } else { e };
        (a, offset)
    }

    fn offset(o: u32) -> String {
        if o == 0 {
            String::new()
        } else {
            format!(" offset={o}")
        }
    }

    /// An expression leaving one i32.
    fn expr(&mut self, d: u32) -> String {
        if d == 0 {
            return match self.rng.below(4) {
                0 | 1 => self.constant(),
                2 => format!("(local.get {})", self.rng.below(u64::from(self.locals))),
                _ => format!("(global.get $g{})", self.rng.below(u64::from(GLOBALS))),
            };
        }
        let d1 = d - 1;
        match self.rng.below(20) {
            0..=5 => {
                let op = *self.rng.pick(&BINOPS);
                let (mut a, mut b) = (self.expr(d1), self.expr(d1));
                if op.contains("div") || op.contains("rem") {
                    if self.rng.chance(10) {
                        // The one signed quotient that overflows.
                        (a, b) = (format!("(i32.const {})", i32::MIN), "(i32.const -1)".into());
                    } else if self.rng.chance(60) {
                        b = format!("(i32.or {b} (i32.const 1))");
                    }
                }
                format!("(i32.{op} {a} {b})")
            }
            6 | 7 => format!("(i32.{} {})", self.rng.pick(&UNOPS), self.expr(d1)),
            8 => {
                let (name, _) = *self.rng.pick(&LOADS);
                let (a, o) = self.address(d1);
                format!("(i32.{name}{} {a})", Self::offset(o))
            }
            9 => format!("(select {} {} {})", self.expr(d1), self.expr(d1), self.expr(d1)),
            10 => format!("(local.tee {} {})", self.var(), self.expr(d1)),
            11 => {
                let (c, t, e) = (self.expr(d1), self.expr(d1), self.expr(d1));
                format!("(if (result i32) {c} (then {t}) (else {e}))")
            }
            12 => {
                // A value-carrying block left early by br_if (the value stays when not taken).
                let l = self.label();
                let (v, c, e) = (self.expr(d1), self.expr(d1), self.expr(d1));
                format!("(block {l} (result i32) (drop (br_if {l} {v} {c})) {e})")
            }
            13 => {
                // A branch from inside an expression to an enclosing statement's
                // label: the operands pending on the stack are dropped.
                let e = self.expr(d1);
                match self.any_label() {
                    Some(l) => format!(
                        "(block (result i32) (br_if {l} (i32.eqz (i32.and {} (i32.const 3)))) {e})",
                        self.expr(d1)
                    ),
                    None => e,
                }
            }
            14 => {
                // A block parameter.
                let (a, b) = (self.expr(d1), self.expr(d1));
                format!("(block (result i32) {a} (block (type $p1) {b} (i32.{})))", self.rng.pick(&BINOPS[..3]))
            }
            15 if self.callable > 0 => {
                let h = self.rng.below(self.callable as u64);
                format!("(call $h{h} {} {})", self.expr(d1), self.expr(d1))
            }
            16 => format!("(call $rec (i32.and {} (i32.const 15)) {})", self.expr(d1), self.expr(d1)),
            17 => "(memory.size)".into(),
            18 => "(global.get $k)".into(),
            _ => self.expr(0),
        }
    }

    /// Up to `n` statements, nested at most `d` deep.
    fn stmts(&mut self, d: u32, n: u64) -> String {
        let mut s = String::new();
        for _ in 0..=self.rng.below(n) {
            s += "    ";
            s += &self.stmt(d);
            s += "\n";
        }
        s
    }

    fn stmt(&mut self, d: u32) -> String {
        let e = |g: &mut Self| {
            let d = 2 + g.rng.below(2) as u32;
            g.expr(d)
        };
        let pick = if d == 0 { self.rng.below(6) } else { self.rng.below(14) };
        match pick {
            0 | 1 => format!("(local.set {} {})", self.var(), e(self)),
            2 => format!("(global.set $g{} {})", self.rng.below(u64::from(GLOBALS)), e(self)),
            3 | 4 => {
                let (name, _) = *self.rng.pick(&STORES);
                let (a, o) = self.address(2);
                format!("(i32.{name}{} {a} {})", Self::offset(o), e(self))
            }
            5 => format!("(drop {})", e(self)),
            6 => {
                let c = e(self);
                let (t, f) = (self.stmts(d - 1, 2), self.stmts(d - 1, 2));
                format!("(if {c} (then\n{t}    ) (else\n{f}    ))")
            }
            7 | 8 => {
                let l = self.label();
                self.labels.push(l.clone());
                let body = self.stmts(d - 1, 3);
                let c = e(self);
                let exit = self.any_label().unwrap_or_else(|| l.clone());
                let leave = if self.rng.chance(50) {
                    format!("(br_if {exit} {c})")
                } else {
                    format!("(if {c} (then (nop) (br {exit})))")
                };
                self.labels.pop();
                format!("(block {l}\n{body}    {leave}\n{}    )", self.stmts(d - 1, 2))
            }
            9 | 10 if self.loops < COUNTERS => {
                let counter = self.locals - COUNTERS + self.loops;
                let (l, n) = (self.label(), 1 + self.rng.below(4));
                // Not a target for random branches: jumping back to the start
                // without counting down would never end.
                self.loops += 1;
                let body = self.stmts(d - 1, 3);
                self.loops -= 1;
                format!(
                    "(local.set {counter} (i32.const {n}))\n    (loop {l}\n{body}    (br_if {l} (i32.gt_s (local.tee {counter} \
                     (i32.sub (local.get {counter}) (i32.const 1))) (i32.const 0))))"
                )
            }
            11 => {
                // br_table over two fresh blocks and any enclosing one:
                // to $b runs the statements after it, to $a skips them.
                let (a, b) = (self.label(), self.label());
                let mut targets = vec![a.clone(), b.clone()];
                targets.extend(self.any_label());
                let table: Vec<String> = (0..1 + self.rng.below(4)).map(|_| self.rng.pick(&targets).clone()).collect();
                let default = self.rng.pick(&targets).clone();
                let i = e(self);
                self.labels.push(a.clone());
                let after = self.stmts(d - 1, 2);
                self.labels.pop();
                format!("(block {a} (block {b} (br_table {} {default} {i}))\n{after}    )", table.join(" "))
            }
            12 => {
                let c = e(self);
                let vals: Vec<String> = (0..self.results).map(|_| e(self)).collect();
                if self.rng.chance(15) {
                    format!("(if (i32.eqz (i32.and {c} (i32.const 63))) (then unreachable))")
                } else {
                    format!("(if (i32.eqz (i32.and {c} (i32.const 7))) (then (return {})))", vals.join(" "))
                }
            }
            _ => format!("(drop {})", e(self)),
        }
    }
}
