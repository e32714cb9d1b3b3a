//! The figures of `docs/speed.md` that no machine moves: the steps each C
//! operation takes on the interpreter (the transformer takes the same steps,
//! in lockstep) per word size, and a whole program's. The test renders the
//! table and compares it with the block between `<!-- ANCHOR: steps -->` and
//! `<!-- ANCHOR_END: steps -->` in `docs/speed.md`: a change in code
//! generation that moves a figure fails here until the page says so
//! (`UPDATE_EXPECT=1 cargo test -p loom-core --test speed_doc` rewrites the
//! block, as the other golden tests do). `scripts/speed.sh` regenerates the
//! page's other blocks, which depend on the machine.

use loom_core::compiler::compile;
use loom_core::frontend::report::grouped;
use loom_core::frontend::EngineKind;
use loom_core::state::Status;
use loom_core::Config;
use std::collections::HashMap;
use std::path::PathBuf;

/// The word sizes measured, by the preset that has them (the same rows, 512 columns).
const PRESETS: [&str; 3] = ["compact", "compact16", "compact32"];

/// Far more than any program here takes (the prime count: 13 M steps on 32-bit words).
const MAX_STEPS: u64 = 200_000_000;

/// One binary operator, the value C gives it (on N-bit words, as `gcc -fwrapv`
/// computes it), and issue 33's bound on its 32-bit worst case.
struct Op {
    symbol: &'static str,
    value: fn(i64, i64) -> i64,
    /// Which right operands it takes: `/` and `%` no zero, shifts counts `0..N`.
    right: Right,
    target: Option<u64>,
}

#[derive(Clone, Copy, PartialEq)]
enum Right {
    Any,
    NonZero,
    Count,
}

const OPS: [Op; 12] = [
    Op { symbol: "+", value: |a, b| a + b, right: Right::Any, target: None },
    Op { symbol: "-", value: |a, b| a - b, right: Right::Any, target: None },
    Op { symbol: "*", value: |a, b| a * b, right: Right::Any, target: Some(45) },
    Op { symbol: "/", value: |a, b| a / b, right: Right::NonZero, target: Some(80) },
    Op { symbol: "%", value: |a, b| a % b, right: Right::NonZero, target: Some(80) },
    Op { symbol: "<<", value: |a, b| a << b, right: Right::Count, target: Some(40) },
    Op { symbol: ">>", value: |a, b| a >> b, right: Right::Count, target: Some(40) },
    Op { symbol: "<", value: |a, b| i64::from(a < b), right: Right::Any, target: None },
    Op { symbol: "<=", value: |a, b| i64::from(a <= b), right: Right::Any, target: None },
    Op { symbol: "==", value: |a, b| i64::from(a == b), right: Right::Any, target: None },
    Op { symbol: "!=", value: |a, b| i64::from(a != b), right: Right::Any, target: None },
    Op { symbol: "&&", value: |a, b| i64::from(a != 0 && b != 0), right: Right::Any, target: None },
];

/// The prime count of issue 33: trial division by `n % t` up to `t * t > n`.
const PRIMES: &str = "#include <stdio.h>
int main() {
    int count = 0;
    for (int n = 2; n < 5000; n++) {
        int prime = 1;
        for (int t = 2; t * t <= n; t++)
            if (n % t == 0) { prime = 0; break; }
        count += prime;
    }
    printf(\"%d\\n\", count);
    return 0;
}
";

/// Issue 33's bounds on the prime count's steps: (word bits, steps).
const PRIMES_TARGETS: [(u32, u64); 2] = [(16, 20_000_000), (32, 30_000_000)];

fn doc_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/speed.md")
}

/// `x` wrapped to a signed `bits`-bit word.
fn wrap(x: i64, bits: u32) -> i64 {
    let shift = 64 - bits;
    (x << shift) >> shift
}

/// The operands every operator is measured on: zero, ±1, small values, the
/// extremes, alternating bits.
fn values(bits: u32) -> Vec<i64> {
    let max = (1i64 << (bits - 1)) - 1;
    let alternating = wrap(0x5555_5555, bits);
    vec![0, 1, -1, 2, 7, -7, max, -max - 1, -max, alternating]
}

/// The right operands of an operator.
fn rights(right: Right, bits: u32) -> Vec<i64> {
    match right {
        Right::Any => values(bits),
        Right::NonZero => values(bits).into_iter().filter(|&b| b != 0).collect(),
        Right::Count => vec![0, 1, 2, i64::from(bits / 2), i64::from(bits - 1)],
    }
}

/// A C literal for `v` that compiles on `bits`-bit words (the most negative
/// value has no literal: it is `-max - 1`).
fn literal(v: i64, bits: u32) -> String {
    let max = (1i64 << (bits - 1)) - 1;
    if v == -max - 1 {
        format!("-{max} - 1")
    } else {
        v.to_string()
    }
}

/// The program `r = EXPR;` with `a` and `b` globals (nothing folds).
fn program(expr: &str, a: i64, b: i64, bits: u32) -> String {
    format!(
        "int a = {};\nint b = {};\nint r;\nint main() {{\n    r = {expr};\n    return 0;\n}}\n",
        literal(a, bits),
        literal(b, bits)
    )
}

/// Compiles and runs `source` on the interpreter: its steps and the global `r`
/// (if it has one), or why it did not compile or finish.
fn run(source: &str, config: Config) -> Result<(u64, Option<i64>), String> {
    let out = compile(source, config);
    let prog = out.program.ok_or_else(|| {
        out.diagnostics.iter().find(|d| d.is_error()).map_or_else(|| "does not compile".into(), |d| d.message.clone())
    })?;
    let mut m = EngineKind::Interp.start(&prog).map_err(|e| e.to_string())?;
    match m.run(MAX_STEPS, None) {
        Status::Halted => {}
        s => return Err(format!("ended with {s:?}")),
    }
    let r = prog.symbol("r").map(|s| wrap(i64::from(m.read_slot(s.slot)), config.word_bits));
    Ok((m.steps(), r))
}

/// The cost of one operator on one word size over every operand pair: the
/// steps of `r = a OP b` less those of `r = a`. Checks every result.
struct Cost {
    /// The worst case, and the operands that take it (the first such pair).
    most: (u64, i64, i64),
    fewest: u64,
}

fn cost(op: &Op, config: Config, baselines: &mut HashMap<(i64, i64), u64>) -> Cost {
    let bits = config.word_bits;
    let mut out = Cost { most: (0, 0, 0), fewest: u64::MAX };
    for a in values(bits) {
        for b in rights(op.right, bits) {
            let source = program(&format!("a {} b", op.symbol), a, b, bits);
            let (steps, r) = run(&source, config).unwrap_or_else(|e| panic!("{}: {e}\n{source}", config.name));
            let want = wrap((op.value)(a, b), bits);
            assert_eq!(r, Some(want), "{}: {a} {} {b}", config.name, op.symbol);
            let base = *baselines.entry((a, b)).or_insert_with(|| {
                run(&program("a", a, b, bits), config).unwrap_or_else(|e| panic!("{}: r = a: {e}", config.name)).0
            });
            let cost = steps.checked_sub(base).expect("an operation costs steps");
            if cost > out.most.0 {
                out.most = (cost, a, b);
            }
            out.fewest = out.fewest.min(cost);
        }
    }
    out
}

/// `≤ 45: met` or `≤ 45: not yet`.
fn target(bound: u64, figure: u64) -> String {
    format!("≤ {}: {}", grouped(bound), if figure <= bound { "met" } else { "not yet" })
}

/// The block of `docs/speed.md`, rendered.
fn render() -> String {
    let configs: Vec<Config> = PRESETS.iter().map(|p| Config::preset(p).expect("a preset")).collect();
    let mut s = String::new();
    s += "Steps on the interpreter (the transformer takes the same steps): for each operator, the worst case\n";
    s += "over the operands below of the steps of `r = a OP b;` less those of `r = a;`, with `a`, `b` and\n";
    s += "`r` global `int`s (nothing folds), and the result checked. Operands: 0, 1, −1, 2, 7, −7, the\n";
    s += "largest and the two most negative values, and alternating bits (`0x55…`); shift counts 0, 1, 2,\n";
    s += "N/2 and N − 1; no division by 0. Checked by `core/tests/speed_doc.rs`.\n\n";
    s += "| operation |";
    for c in &configs {
        s += &format!(" {}-bit (`{}`) |", c.word_bits, c.name);
    }
    s += " issue 33's target, 32-bit | the 32-bit worst case at |\n|---|";
    s += &"---|".repeat(configs.len() + 2);
    s += "\n";
    let mut baselines: Vec<HashMap<(i64, i64), u64>> = configs.iter().map(|_| HashMap::new()).collect();
    for op in &OPS {
        s += &format!("| `a {} b` |", op.symbol);
        let mut last = Cost { most: (0, 0, 0), fewest: 0 };
        for (c, base) in configs.iter().zip(&mut baselines) {
            last = cost(op, *c, base);
            s += &format!(" {} |", grouped(last.most.0));
        }
        let bits = configs.last().expect("a preset").word_bits;
        let goal = op.target.map_or_else(|| "—".into(), |t| target(t, last.most.0));
        let (most, a, b) = last.most;
        let at = if last.fewest == most {
            "any operands".into()
        } else {
            format!("`{} {} {}` (fewest: {})", literal(a, bits), op.symbol, literal(b, bits), grouped(last.fewest))
        };
        s += &format!(" {goal} | {at} |\n");
    }
    s += "| the prime count below 5,000 (669), whole program |";
    let mut goals = Vec::new();
    for c in &configs {
        match run(PRIMES, *c) {
            Ok((steps, _)) => {
                s += &format!(" {} |", grouped(steps));
                if let Some(&(bits, bound)) = PRIMES_TARGETS.iter().find(|t| t.0 == c.word_bits) {
                    goals.push(format!("{}-bit {}", bits, target(bound, steps)));
                }
            }
            Err(e) => s += &format!(" does not compile: {e} |"),
        }
    }
    s += &format!(" {} | — |\n\nThe prime count:\n\n```c\n{PRIMES}```\n", goals.join("; "));
    s
}

/// Replaces the text between `begin` and `end` in `doc` by `block`.
fn replace_block(doc: &str, begin: &str, end: &str, block: &str) -> String {
    let start = doc.find(begin).unwrap_or_else(|| panic!("docs/speed.md has no {begin}")) + begin.len();
    let stop = doc[start..].find(end).unwrap_or_else(|| panic!("docs/speed.md has no {end}")) + start;
    format!("{}\n{block}{}", &doc[..start], &doc[stop..])
}

#[test]
fn the_steps_table_in_docs_speed_md_is_current() {
    let path = doc_path();
    let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let fresh = replace_block(&doc, "<!-- ANCHOR: steps -->", "<!-- ANCHOR_END: steps -->", &render());
    if fresh == doc {
        return;
    }
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, fresh).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let old = doc.lines().filter(|l| !fresh.lines().any(|f| f == *l)).collect::<Vec<_>>().join("\n");
    let new = fresh.lines().filter(|l| !doc.lines().any(|d| d == *l)).collect::<Vec<_>>().join("\n");
    panic!(
        "docs/speed.md's steps table is out of date (rewrite it with \
         `UPDATE_EXPECT=1 cargo test -p loom-core --test speed_doc`):\n--- the page\n{old}\n+++ measured\n{new}"
    );
}

#[test]
fn the_helpers_mean_what_they_say() {
    assert_eq!(wrap(0x5555_5555, 8), 0x55);
    assert_eq!(wrap(128, 8), -128);
    assert_eq!(literal(-128, 8), "-127 - 1");
    assert_eq!(grouped(12_995_689), "12,995,689");
    assert_eq!(grouped(195), "195");
    let doc = "x\n<!-- B -->\nold\n<!-- E -->\ny\n";
    assert_eq!(replace_block(doc, "<!-- B -->", "<!-- E -->", "new\n"), "x\n<!-- B -->\nnew\n<!-- E -->\ny\n");
}
