//! Property tests (proptest, fixed seeds): the compiler — lexer, parser,
//! checker and code generator, i.e. `compile` — never panics and never
//! overflows a browser-sized stack, whatever it is given: random bytes and
//! unicode, token soups, deep nesting, long flat chains, huge literals,
//! unterminated constructs, and generated programs (from `difftest/gen.rs`)
//! cut short or edited, on every preset. It always answers with a program or
//! at least one error, and every diagnostic points into the source.

#![cfg(not(target_arch = "wasm32"))] // proptest's RNG has no wasm32 backend by default

#[path = "difftest/mod.rs"]
mod difftest;

use loom_core::compiler::compile;
use loom_core::config::PRESETS;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Browsers give wasm about 1 MiB of stack; the compiler gets no more here.
const STACK: usize = 1 << 20;

fn config(cases: u32) -> Config {
    Config { cases, rng_seed: RngSeed::Fixed(0x100D_5EED), ..Config::default() }
}

/// Compiles `src` for the `preset`th configuration on a small stack and
/// checks the answer's shape. A panic fails the case; a stack overflow aborts
/// the test binary (also a failure).
fn compiles_cleanly(src: String, preset: usize) -> Result<(), TestCaseError> {
    let cfg = PRESETS[preset % PRESETS.len()];
    let worker = std::thread::Builder::new().stack_size(STACK).spawn(move || {
        let out = compile(&src, cfg);
        let lines = src.split('\n').count() as u32;
        let mut problems = Vec::new();
        if out.program.is_none() && !out.diagnostics.iter().any(|d| d.is_error()) {
            problems.push("no program and no error".to_string());
        }
        for d in &out.diagnostics {
            let _ = d.render("prop.c", &src);
            if d.span.line == 0 || d.span.line > lines {
                problems.push(format!("{:?} points outside the source's {lines} lines", d));
            }
        }
        if let Some(p) = &out.program {
            if let Err(e) = p.validate() {
                problems.push(format!("the program does not load: {e}"));
            }
        }
        problems
    });
    match worker.expect("a thread").join() {
        Ok(problems) => {
            prop_assert!(problems.is_empty(), "{}", problems.join("\n"));
            Ok(())
        }
        Err(_) => Err(TestCaseError::fail("the compiler panicked")),
    }
}

const TOKENS: &[&str] = &[
    "int", "void", "main", "if", "else", "while", "do", "for", "break", "continue", "return", "char", "struct",
    "switch", "case", "default", "goto", "sizeof", "enum", "typedef", "static", "const", "extern", "union", "...",
    "unsigned", "float", "(", ")", "{", "}", "[", "]", ";", ",", "=", "+", "-", "*", "/", "%", "<<", ">>", "<", ">",
    "<=", ">=", "==", "!=", "&&", "||", "!", "~", "&", "|", "^", "?", ":", "++", "--", "+=", "-=", "*=", "/=", "%=",
    "<<=", ">>=", "&=", "|=", "^=", ".", "->", "#define", "#include", "#if", "#", "\\", "/*", "*/", "//", "\"", "'",
    "abs", "min", "max", "assert", "frame", "printf", "putchar", "puts", "x", "a", "f", "0", "1", "-1", "127", "128",
    "-128", "32767", "32768", "0x7f", "0xFFFF", "0777", "1e5", "1.5", "10u", "'a'", "'\\n'", "'\\x41'", "\"s\"", "\n",
];

/// A token: one of C's and ours, a name, a number of any size, a literal maybe left open.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(TOKENS).prop_map(str::to_string),
        1 => "[a-z_][a-z0-9_]{0,8}",
        1 => "[0-9]{1,40}",
        1 => "0[xX][0-9a-fA-F]{0,24}",
        1 => "'(\\\\x[0-9a-f]{0,12}|\\\\.|.)'?",
        1 => "\"[^\"\n]{0,6}\"?",
    ]
}

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec((token(), prop::sample::select(&[" ", "", "\n"][..])), 0..80)
        .prop_map(|ts| ts.into_iter().map(|(t, sep)| t + sep).collect())
}

/// Something that nests: an expression (`x = …;`) or a statement, repeated `depth` times.
#[derive(Clone, Copy, Debug)]
struct Nest {
    open: &'static str,
    inner: &'static str,
    close: &'static str,
    expr: bool,
}

const fn nest(open: &'static str, inner: &'static str, close: &'static str, expr: bool) -> Nest {
    Nest { open, inner, close, expr }
}

const NESTS: &[Nest] = &[
    nest("(", "1", ")", true),
    nest("-", "1", "", true),
    nest("!", "x", "", true),
    nest("~", "x", "", true),
    nest("- -", "x", "", true),
    nest("f(", "1", ")", true),
    nest("a[", "1", "]", true),
    nest("x = ", "1", "", true),
    nest("x += ", "1", "", true),
    nest("1 ? ", "1", " : 1", true),
    nest("1 + (", "1", ")", true),
    nest("1 ? 1 : ", "1", "", true),
    nest("++", "x", "", true),
    nest("min(1, ", "1", ")", true),
    nest("{", "x++;", "}", false),
    nest("if (1) ", "x++;", "", false),
    nest("if (x) {", "x++;", "} else x--;", false),
    nest("if (x) x++; else ", "x++;", "", false),
    nest("while (x) ", "break;", "", false),
    nest("for (;;) ", "break;", "", false),
    nest("do ", "x++;", " while (0);", false),
];

fn nested() -> impl Strategy<Value = String> {
    (prop::sample::select(NESTS), 0usize..4000, any::<bool>()).prop_map(|(n, depth, closed)| n.program(depth, closed))
}

impl Nest {
    fn program(self, depth: usize, closed: bool) -> String {
        let close = if closed { self.close.repeat(depth) } else { String::new() };
        let body = format!("{}{}{close}", self.open.repeat(depth), self.inner);
        let body = if self.expr { format!("x = {body};") } else { body };
        format!("int a[4];\nint f(int v) {{ return v; }}\nint main() {{\n    int x = 1;\n    {body}\n}}\n")
    }
}

/// Inputs that crash the compiler on `main` today, each a named regression
/// case. A stack overflow aborts the whole process, so each runs in a child
/// process (this test binary again); the test fails once one stops crashing:
/// then move it into `NESTS` (or a test of its own) and delete it here.
const KNOWN_CRASHES: &[(&str, Nest, usize)] = &[];

const CRASH_ENV: &str = "LOOM_PROPS_KNOWN_CRASH";

#[test]
fn known_crashes_still_crash() {
    if let Ok(name) = std::env::var(CRASH_ENV) {
        let (_, n, depth) = KNOWN_CRASHES.iter().find(|c| c.0 == name).expect("a known crash");
        let _ = compiles_cleanly(n.program(*depth, true), 2);
        return; // reached only if it did not crash
    }
    for (name, ..) in KNOWN_CRASHES {
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "known_crashes_still_crash", "--test-threads", "1"])
            .env(CRASH_ENV, name)
            .output()
            .expect("the test binary runs");
        assert!(
            !child.status.success(),
            "{name} no longer crashes the compiler: move it out of KNOWN_CRASHES into the property tests"
        );
        println!("{name}: still crashes ({})", child.status);
    }
}

/// Long flat chains: one operator many times, many statements, declarations or arguments.
fn flat() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(
        &[" + 1", " * x", " - -1", " && x", " || 0", " < 1", " , 1", " ^ x", " % 3", " << 1", " == x"][..],
    );
    (piece, 0usize..12_000, 0usize..4).prop_map(|(p, n, shape)| match shape {
        0 => format!("int main() {{ int x = 1; x = 1{}; }}", p.repeat(n)),
        1 => format!("int x; int main() {{ {} }}", "x++; ".repeat(n)),
        2 => {
            format!("{}int main() {{ return 0; }}", (0..n.min(3000)).map(|k| format!("int g{k};")).collect::<String>())
        }
        _ => format!("int f() {{ return 1; }} int main() {{ int x = f({}); }}", "1, ".repeat(n)),
    })
}

fn huge_literals() -> impl Strategy<Value = String> {
    let lit = prop_oneof![
        "-?[0-9]{1,200}",
        "0[xX][0-9a-fA-F]{1,100}",
        "0[0-7]{1,100}",
        "'\\\\x[0-9a-f]{1,60}'",
        "[0-9]{1,20}(e[0-9]{1,6}|\\.[0-9]*|[uUlL]{1,3})",
    ];
    (lit, 0usize..3).prop_map(|(l, at)| match at {
        0 => format!("int g = {l};\nint main() {{ return 0; }}"),
        1 => format!("int a[{l}];\nint main() {{ return 0; }}"),
        _ => format!("int main() {{ int x = {l}; x = x * {l}; return x; }}"),
    })
}

/// A generated (valid) program, then cut short or edited at random places.
fn edited_program() -> impl Strategy<Value = (String, usize)> {
    let edit = (any::<prop::sample::Index>(), 0usize..3, token());
    (any::<u64>(), prop::collection::vec(edit, 0..6), 0usize..PRESETS.len()).prop_map(|(seed, edits, preset)| {
        // Known bugs steered around: on `main`, `t = t && e` still trips a debug assertion.
        let p = difftest::gen::program(seed, true, difftest::ours::features());
        let mut src = difftest::text::render(&p, difftest::text::Dialect::Ours);
        for (at, kind, tok) in edits {
            let mut i = at.index(src.len() + 1);
            while !src.is_char_boundary(i) {
                i -= 1;
            }
            match kind {
                0 => src.truncate(i),
                1 => src.insert_str(i, &tok),
                _ => {
                    let end = (i + tok.len()).min(src.len());
                    let end = (end..=src.len()).find(|&e| src.is_char_boundary(e)).unwrap_or(src.len());
                    src.replace_range(i..end, "");
                }
            }
        }
        (src, preset)
    })
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..3000), preset in 0usize..8) {
        compiles_cleanly(String::from_utf8_lossy(&bytes).into_owned(), preset)?;
    }

    #[test]
    fn random_unicode(src in any::<String>(), preset in 0usize..8) {
        compiles_cleanly(src, preset)?;
    }

    #[test]
    fn token_soup(src in soup(), preset in 0usize..8) {
        compiles_cleanly(src, preset)?;
    }

    #[test]
    fn token_soup_inside_main(src in soup(), preset in 0usize..8) {
        compiles_cleanly(format!("int x, a[4];\nint main() {{\n{src}\n}}\n"), preset)?;
    }

    #[test]
    fn deep_nesting(src in nested(), preset in 0usize..8) {
        compiles_cleanly(src, preset)?;
    }

    #[test]
    fn huge_literals_anywhere(src in huge_literals(), preset in 0usize..8) {
        compiles_cleanly(src, preset)?;
    }

    #[test]
    fn generated_programs_cut_and_edited((src, preset) in edited_program()) {
        compiles_cleanly(src, preset)?;
    }
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn long_flat_chains(src in flat(), preset in 0usize..8) {
        compiles_cleanly(src, preset)?;
    }
}
