//! Our side: compile with `loom_core::compiler`, run on the interpreter, or on
//! the sparse transformer in lockstep with the interpreter.

use super::gen::Features;
use super::outcome::{End, Outcome};
use loom_core::compiler::compile;
use loom_core::host::{run_printing, Input, Output};
use loom_core::machine::{lockstep::lockstep, SparseEngine};
use loom_core::state::Status;
use loom_core::{Config, Engine, Interp, Program};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The features our compiler accepts, found by compiling one small program for each.
pub fn features() -> Features {
    static FOUND: OnceLock<Features> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let on = |preset: &str, src: &str| {
            Config::preset(preset).is_ok_and(|c| compile(src, c).program.is_some())
        };
        let ok = |src: &str| on("compact", src);
        Features {
            chars: ok("char c = 'a';\nchar s[3] = \"ab\";\nint main() { char d = c; return s[0] + d; }\n"),
            switch: ok("int main() { int x = 1; switch (x) { case 1: { x = 2; break; } default: { x = 3; } } return x; }\n"),
            recursion: ok("int f(int d) { if (d <= 0) { return 0; } int x = f(d - 1); return x + 1; }\nint main() { return f(2); }\n"),
            pointers: ok("int a[3];\nvoid f(int *p, int v[]) { *p = v[1]; }\nint main() { int x = 0; f(&x, a); f(&x, a + 1); return x; }\n"),
            output: ok("int main() { printf(\"<%-3d%02x%u%c>\\n\", 1, 2, 3, 65); putchar(10); return 0; }\n"),
            enums: ok("enum { A = 3, B, C = -2 };\nint main() { return A + B + C; }\n"),
            typedefs: ok("typedef int T;\nT g = 1;\nint main() { T x = g; return x; }\n"),
            statics: ok("int f() { static int s = 2; s++; return s; }\nint main() { f(); return f(); }\n"),
            comma: ok("int main() { int x = 1; x = (x++, x + 1); return x; }\n"),
            goto: ok("int main() { int x = 1; if (x) goto done; { x = 2; } done:; return x; }\n"),
            unions: ok("union U { int m1; int m2; };\nunion U u = {5};\nint main() { u.m2 = 3; return u.m1; }\n"),
            fn_pointers: ok("int f(int a) { return a + 1; }\nint (*t[2])(int) = {f, &f};\nint (*p)(int) = f;\nint main() { return t[1](2) + p(3) + (*p)(4); }\n"),
            structs: ok("struct S { int m1; char m2; };\nstruct S g = {1, 2};\nstruct S a[2] = {{3}, {4, 5}};\nint main() { a[1] = g; g.m1 = a[0].m2 + a[1].m1; return g.m1; }\n"),
            input: ok("#include <stdio.h>\nint main() { int x = 0; scanf(\"%d\", &x); x = getchar(); return x; }\n"),
            macros: ok("#define M(a, b) ((a) + (b))\nint main() { return M(1, M(2, 3)); }\n"),
            library: ok("#include <ctype.h>\nint main() { return (isdigit(('7') & 127) != 0) + toupper(97); }\n")
                && on(
                    "compact32",
                    "#include <string.h>\n#include <stdlib.h>\nchar s[3] = {49, 50, 0};\nint main() { return ((int)strlen(s)) + atoi(s) + (strcmp(s, s) == 0); }\n",
                ),
            types: on(
                "compact32",
                "unsigned char c = 200;\nlong l = -5L;\nint main() { short s = (short)70000; unsigned long u = 7ul; return c + s + (int)l + 3u + u; }\n",
            ),
        }
    })
}

/// Why our compiler did not produce a program.
pub enum Rejected {
    /// The program needs a bigger machine than any preset (not a bug).
    TooBig(String),
    /// Any other error: gcc compiles the same program, so this is a divergence.
    Error(String),
}

/// Compiles for N-bit words on the 512-column preset, or on the largest one if it does not fit.
pub fn build(text: &str, bits: u32) -> Result<Program, Rejected> {
    let presets: &[&str] = match bits {
        8 => &["compact", "large"],
        16 => &["compact16", "large16"],
        _ => &["compact32", "default32", "large32"],
    };
    let mut last = String::new();
    for name in presets {
        let out = compile(text, Config::preset(name).expect("a preset"));
        if let Some(p) = out.program {
            return Ok(p);
        }
        let errors: Vec<String> =
            out.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.render("ours.c", text)).collect();
        last = errors.join("\n");
        let too_big = |e: &String| e.contains("the program does not fit") || e.contains("inlining every call needs");
        if !errors.iter().all(too_big) {
            return Err(Rejected::Error(last));
        }
    }
    Err(Rejected::TooBig(last))
}

/// Runs on the interpreter; returns the outcome and the steps taken.
pub fn interpret(prog: &Program, max_steps: u64, input: &str) -> (Outcome, u64) {
    let mut m = Interp::new(prog).expect("a compiled program loads");
    let mut out = Output::default();
    let status = run_printing(&mut m, max_steps, None, &mut out, &mut Input::new(input));
    (outcome(prog, &m, &status, &out), m.steps())
}

/// Sparse transformers by configuration, kept so their weights are built once.
#[derive(Default)]
pub struct Transformers(HashMap<&'static str, SparseEngine>);

impl Transformers {
    /// Runs the sparse transformer in lockstep with the interpreter (compared after
    /// every step); returns the transformer's outcome and the steps, or the divergence.
    pub fn lockstep(&mut self, prog: &Program, max_steps: u64, input: &str) -> Result<(Outcome, u64), String> {
        let engine = match self.0.get_mut(prog.config.name) {
            Some(e) => {
                e.reload(prog).map_err(|e| e.to_string())?;
                e
            }
            None => self.0.entry(prog.config.name).or_insert(SparseEngine::new(prog).map_err(|e| e.to_string())?),
        };
        let mut interp = Interp::new(prog).expect("a compiled program loads");
        // Both read the input: the host writes its next byte into each before a step that reads it.
        let mut oracle = Printing { engine: &mut interp, out: Output::default(), input: Input::new(input) };
        let mut printing = Printing { engine, out: Output::default(), input: Input::new(input) };
        let status = lockstep(&mut printing, &mut oracle, max_steps).map_err(|d| d.to_string())?;
        Ok((outcome(prog, printing.engine, &status, &printing.out), printing.engine.steps()))
    }
}

/// An engine stepped by `lockstep`, collecting what it prints and reading its input.
struct Printing<'e> {
    engine: &'e mut dyn Engine,
    out: Output,
    input: Input,
}

impl Engine for Printing<'_> {
    fn name(&self) -> &'static str {
        self.engine.name()
    }
    fn program(&self) -> &Program {
        self.engine.program()
    }
    fn run(&mut self, max_steps: u64, breaks: Option<&[bool]>) -> Status {
        run_printing(self.engine, max_steps, breaks, &mut self.out, &mut self.input)
    }
    fn status(&self) -> Status {
        self.engine.status()
    }
    fn steps(&self) -> u64 {
        self.engine.steps()
    }
    fn pc(&self) -> usize {
        self.engine.pc()
    }
    fn read_slot(&self, slot: usize) -> i32 {
        self.engine.read_slot(slot)
    }
    fn write_slot(&mut self, slot: usize, value: i64) {
        self.engine.write_slot(slot, value)
    }
}

fn outcome(prog: &Program, m: &dyn Engine, status: &Status, out: &Output) -> Outcome {
    let globals = prog
        .symbols
        .iter()
        .filter(|s| s.scope == "global" && !s.hidden)
        .map(|s| (s.name.clone(), (s.slot..s.slot + s.len).map(|k| m.read_slot(k) as i64).collect()))
        .collect();
    let end = match status {
        Status::Halted => End::Halted,
        Status::Fault { pc, message } => End::Fault { message: message.clone(), line: prog.line_at_pc(*pc) },
        s => End::Other(format!("ours stopped: {}", s.name())),
    };
    Outcome { globals, end, output: out.text() }
}
