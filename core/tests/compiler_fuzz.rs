//! Property tests with a fixed-seed PRNG: the compiler never panics on token
//! soup or random programs, and random expressions compute what C computes.

use loom_core::compiler::compile;
use loom_core::state::Status;
use loom_core::{Config, Engine, Interp};

/// xorshift64*: small, deterministic, good enough to drive test generation.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const SOUP: [&str; 64] = [
    "int", "void", "main", "(", ")", "{", "}", "[", "]", ";", ",", "=", "+", "-", "*", "/", "%", "<<", ">>", "<", ">",
    "<=", ">=", "==", "!=", "&&", "||", "!", "~", "&", "|", "^", "?", ":", "++", "--", "+=", "if", "else", "while",
    "for", "do", "break", "continue", "return", "x", "y", "a", "f", "0", "1", "127", "128", "0x7f", "'a'", "#define",
    "\n", "/*", "*/", "//", "\"s\"", "struct", "assert", "frame",
];

#[test]
fn token_soup_never_panics() {
    let mut rng = Rng(0x5eed_1234);
    let configs = [Config::preset("tiny").unwrap(), Config::preset("compact").unwrap()];
    for case in 0..3000 {
        let n = 1 + rng.below(40);
        let mut src = String::new();
        if case % 2 == 0 {
            src.push_str("int main() { ");
        }
        for _ in 0..n {
            src.push_str(rng.pick(&SOUP));
            src.push(' ');
        }
        if case % 3 == 0 {
            src.push('\u{e9}');
        }
        let out = compile(&src, configs[case % 2]);
        assert!(out.program.is_some() || out.diagnostics.iter().any(|d| d.is_error()), "{src}");
        for d in &out.diagnostics {
            let _ = d.render("soup.c", &src);
        }
    }
}

/// A random side-effect-free expression over globals `a`, `b`, `c` and array `v`, with its C value.
struct Gen<'r> {
    rng: &'r mut Rng,
    vals: [i64; 3],
    arr: [i64; 4],
}

fn w(v: i64) -> i64 {
    ((v as i8) as i64).clamp(-128, 127)
}

impl Gen<'_> {
    /// Returns the source and the value (`None` when a division by zero is evaluated).
    fn expr(&mut self, depth: u32) -> (String, Option<i64>) {
        if depth == 0 || self.rng.below(4) == 0 {
            return match self.rng.below(4) {
                0 => {
                    let k = self.rng.below(256) as i64 - 128;
                    (format!("{k}"), Some(k))
                }
                1 => {
                    let i = self.rng.below(4);
                    (format!("v[{i}]"), Some(self.arr[i]))
                }
                _ => {
                    let i = self.rng.below(3);
                    (["a", "b", "c"][i].to_string(), Some(self.vals[i]))
                }
            };
        }
        let (x, xv) = self.expr(depth - 1);
        let (y, yv) = self.expr(depth - 1);
        let op = self.rng.pick(&[
            "+", "-", "*", "/", "%", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "?", "neg", "~", "!",
            "abs", "min", "max", "h", "<<", ">>",
        ]);
        let s = match op {
            "?" => {
                let (z, zv) = self.expr(depth - 1);
                let v = xv.and_then(|c| if c != 0 { yv } else { zv });
                return (format!("({x} ? {y} : {z})"), v);
            }
            "&&" => {
                let v = xv.and_then(|c| if c == 0 { Some(0) } else { yv.map(|d| (d != 0) as i64) });
                return (format!("({x} && {y})"), v);
            }
            "||" => {
                let v = xv.and_then(|c| if c != 0 { Some(1) } else { yv.map(|d| (d != 0) as i64) });
                return (format!("({x} || {y})"), v);
            }
            "neg" => return (format!("(- {x})"), xv.map(|a| w(-a))),
            "~" => return (format!("(~{x})"), xv.map(|a| !a)),
            "!" => return (format!("(!{x})"), xv.map(|a| (a == 0) as i64)),
            "abs" => return (format!("abs({x})"), xv.map(|a| w(a.abs()))),
            "<<" | ">>" => {
                let k = self.rng.below(8) as i64;
                let v = xv.map(|a| if op == "<<" { w(a << k) } else { a >> k });
                return (format!("({x} {op} {k})"), v);
            }
            _ => op,
        };
        let v = match (xv, yv) {
            (Some(a), Some(b)) => match s {
                "+" => Some(w(a + b)),
                "-" => Some(w(a - b)),
                "*" => Some(w(a * b)),
                "/" | "%" if b == 0 => None,
                "/" => Some(w(a / b)),
                "%" => Some(w(a % b)),
                "&" => Some(a & b),
                "|" => Some(a | b),
                "^" => Some(a ^ b),
                "<" => Some((a < b) as i64),
                "<=" => Some((a <= b) as i64),
                ">" => Some((a > b) as i64),
                ">=" => Some((a >= b) as i64),
                "==" => Some((a == b) as i64),
                "!=" => Some((a != b) as i64),
                "min" => Some(a.min(b)),
                "max" => Some(a.max(b)),
                _ => Some(w(a - w(2 * b))),
            },
            _ => None,
        };
        let text = match s {
            "min" | "max" | "h" => format!("{s}({x}, {y})"),
            _ => format!("({x} {s} {y})"),
        };
        (text, v)
    }
}

#[test]
fn random_expressions_compute_what_c_computes() {
    let mut rng = Rng(0xc0ffee);
    let cfg = Config::preset("compact").unwrap();
    for _ in 0..1500 {
        let vals = [0; 3].map(|_| rng.below(256) as i64 - 128);
        let arr = [0; 4].map(|_| rng.below(256) as i64 - 128);
        let depth = 1 + rng.below(4) as u32;
        let (e, want) = Gen { rng: &mut rng, vals, arr }.expr(depth);
        let src = format!(
            "int a = {}, b = {}, c = {};\nint v[4] = {{{}, {}, {}, {}}};\nint r;\nint h(int x, int y) {{ return x - 2 * y; }}\nint main() {{\n    r = {e};\n}}\n",
            vals[0], vals[1], vals[2], arr[0], arr[1], arr[2], arr[3]
        );
        let out = compile(&src, cfg);
        let prog = out.program.unwrap_or_else(|| panic!("{src}\n{:?}", out.diagnostics));
        let mut m = Interp::new(&prog).unwrap();
        let status = m.run(1_000_000, None);
        let r = prog.symbol("r").unwrap().slot;
        match want {
            Some(v) => assert_eq!((status, m.read_slot(r) as i64), (Status::Halted, v), "{src}"),
            None => assert!(matches!(status, Status::Fault { .. }), "{src}: expected a division fault, got {status:?}"),
        }
    }
}

/// Random structured programs (loops, calls, arrays, assignments) must compile or be rejected cleanly.
#[test]
fn random_programs_never_panic() {
    let mut rng = Rng(0xfeed);
    let cfg = Config::preset("compact").unwrap();
    let mut compiled = 0;
    for _ in 0..1500 {
        let mut body = String::new();
        for _ in 0..1 + rng.below(8) {
            let lhs = rng.pick(&["a", "b", "v[i]", "v[2]", "i", "q"]);
            let op = rng.pick(&["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="]);
            let rhs = rng.pick(&[
                "a + 1", "f(b, 3)", "v[a & 3]", "-i", "i++", "--b", "a < b", "g()", "7 / a", "at(5)", "at(-2)",
                "at(3)", "at(i)",
            ]);
            let stmt = format!("{lhs} {op} {rhs};");
            body.push_str(&match rng.below(6) {
                0 => format!("for (int i = 0; i < 3; i++) {{ {stmt} if (a) break; else continue; }}\n"),
                1 => format!("if (a > b) {{ {stmt} }} else {{ int q = 2; {stmt} }}\n"),
                2 => format!("while (b < 0) {{ {stmt} b++; }}\n"),
                3 => format!("do {{ {stmt} }} while (0);\n"),
                4 => "frame(); assert(1);\n".to_string(),
                _ => format!("{stmt}\n"),
            });
        }
        let src = format!(
            "int a, b, v[4];\nint f(int x, int y) {{ if (x > y) return x; return y * 2; }}\nint g() {{ return f(a, b) + f(b, a); }}\nint at(int k) {{ v[k & 3] += k; return v[k]; }}\nint main() {{\n int i = 1;\n int q = 0;\n{body}}}\n"
        );
        let out = compile(&src, cfg);
        if let Some(p) = &out.program {
            compiled += 1;
            p.validate().unwrap();
            let mut m = Interp::new(p).unwrap();
            m.run(10_000, None);
        }
    }
    assert!(compiled > 1000, "only {compiled} of 1500 random programs compiled");
}

#[test]
fn pathological_input_is_rejected_quickly() {
    let cfg = Config::preset("compact").unwrap();
    let deep = format!("int main() {{ int x = {}1{}; }}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(compile(&deep, cfg).diagnostics.iter().any(|d| d.message.contains("nested too deeply")));
    let chain =
        format!("int main() {{ int x = 1{}; int y; y = {}1; }}", " + 1".repeat(100_000), "y = ".repeat(100_000));
    assert!(compile(&chain, cfg).diagnostics.iter().any(|d| d.message.contains("nested too deeply")));
    // The deepest accepted nesting compiles on a small stack (browsers give wasm about 1 MB).
    let ok = format!("int a; int main() {{ a = {}a{}; }}", "(1 + ".repeat(45), ")".repeat(45));
    let small_stack = std::thread::Builder::new().stack_size(1 << 20);
    let out = small_stack.spawn(move || compile(&ok, cfg).program.is_some()).unwrap().join().unwrap();
    assert!(out);
    let blocks = format!("int main() {{ {} }}", "{".repeat(50_000));
    assert!(compile(&blocks, cfg).program.is_none());
    // Each function calls the previous one twice: 2^40 copies if inlining were unbounded.
    let mut src = String::from("int f0(int x) { return x + 1; }\n");
    for k in 1..40 {
        src += &format!("int f{k}(int x) {{ return f{}(x) + f{}(x); }}\n", k - 1, k - 1);
    }
    src += "int main() { return f39(1); }\n";
    let out = compile(&src, cfg);
    assert!(out.diagnostics[0].message.contains("inlining every call needs more than"), "{:?}", out.diagnostics);
    // Constant arguments can make an index constant only after inlining; out of bounds it
    // becomes a run-time pointer (reading a neighbour, or faulting outside memory), never a crash.
    let src = "int a[4]; int b = 7; int r, s;\nint get(int i) { return a[i]; }\nint main() { r = get(4); s = get(-2); a[3] = get(100); }\n";
    let prog = compile(src, cfg).program.unwrap();
    let mut m = Interp::new(&prog).unwrap();
    assert!(matches!(m.run(1000, None), Status::Fault { .. }));
    let r = prog.symbol("r").unwrap().slot;
    assert_eq!(m.read_slot(r), 7, "a[4] reads b; then a[-2] is pointer 255 (a is at slot 1): a fault");
    let huge = compile("int a[30000]; int main() { int b[30000] = {1}; }", cfg);
    assert!(huge.program.is_none());
}

/// Counting loops (where the compiler drops sign checks using the counter's range)
/// against the same loop run in Rust, with bounds near the word's extremes.
#[test]
fn counting_loops_match_c() {
    let mut rng = Rng(0x1009);
    let cfg = Config::preset("compact").unwrap();
    for _ in 0..400 {
        let edge = |r: &mut Rng| [-128i64, -127, -100, -1, 0, 1, 100, 120, 126, 127][r.below(10)] - r.below(3) as i64;
        let (a, b, c) = (edge(&mut rng).max(-128), edge(&mut rng).max(-128), edge(&mut rng).max(-128));
        let s = 1 + rng.below(4) as i64;
        let le = rng.below(2) == 0;
        let last = if le { b } else { b - 1 };
        if last + s > 127 {
            continue; // the counter would wrap: an endless loop in 8-bit C
        }
        let op = if le { "<=" } else { "<" };
        let src = format!(
            "int n, lt, ge;\nint main() {{\n    for (int i = {a}; i {op} {b}; i += {s}) {{\n        n++;\n        if (i < {c}) lt++;\n        if ({c} <= i) ge++;\n    }}\n}}\n"
        );
        let (mut n, mut lt, mut ge) = (0i64, 0i64, 0i64);
        let mut i = a;
        while i <= last {
            n += 1;
            lt += (i < c) as i64;
            ge += (c <= i) as i64;
            i += s;
        }
        let prog = compile(&src, cfg).program.unwrap();
        let mut m = Interp::new(&prog).unwrap();
        assert_eq!(m.run(100_000, None), Status::Halted, "{src}");
        let got: Vec<i32> = ["n", "lt", "ge"].map(|v| m.read_slot(prog.symbol(v).unwrap().slot)).to_vec();
        assert_eq!(got, [n, lt, ge].map(|v| w(v) as i32), "{src}");
    }
}
