//! gcc's side: many programs of one word size in one C file (each program's
//! names prefixed `p<k>_`), one `gcc -fwrapv -O0` per batch, then one process
//! per program. A program's report goes to stderr (`name v…` per global, then
//! `halted` or `fault LINE MESSAGE`); what it prints goes to stdout.

use super::outcome::{End, Outcome};
use super::program::{CTy, Program};
use super::text::{render, Dialect};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A program gets this long to run (they run for milliseconds).
const TIMEOUT: Duration = Duration::from_secs(20);

pub fn available() -> bool {
    Command::new("gcc").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// The helpers every program uses: N-bit words, wrapping, and our machine's faults.
fn prelude(bits: u32) -> String {
    let wide = if bits == 32 { WIDE } else { "" };
    format!(
        r#"#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <ctype.h>
#include <string.h>
typedef int{bits}_t word;
#define W(x) ((int)(word)(x))
static void (*dump_)(void);
static void fault_(const char *message, int line) {{
    fflush(stdout);
    dump_();
    fprintf(stderr, "fault %d %s\n", line, message);
    exit(0);
}}
static int nonzero_(int b, int line) {{ if (b == 0) fault_("division by zero", line); return b; }}
static int div_(int a, int b, int line) {{ return W(a / nonzero_(b, line)); }}
static int rem_(int a, int b, int line) {{ return W(a % nonzero_(b, line)); }}
static void assert_(int c, int line) {{ if (!c) fault_("assertion failed", line); }}
static int abs_(int a) {{ return W(a < 0 ? -a : a); }}
static int min_(int a, int b) {{ return a < b ? a : b; }}
static int max_(int a, int b) {{ return a > b ? a : b; }}
static int scan_(word *p) {{ int v; int r = scanf("%d", &v); if (r == 1) *p = (word)v; return r; }}
{wide}"#
    )
}

/// On 32-bit words (`text`'s module comment): `/` and `%` in the operands' common
/// type, faulting on 0 like ours, and `MIN / -1` (which x86 traps on) wrapping
/// to MIN with remainder 0, as on our machine. `DIV_SET_` is `lv /= r`. The `C`
/// forms are for constant initializers, whose divisors are never 0.
const WIDE: &str = r#"#define DIV_(a, b, line) ({ __typeof__((a) + (b)) a_ = (a), b_ = (b); \
    if (b_ == 0) fault_("division by zero", line); \
    (__typeof__(a_))-1 < 0 && b_ == -1 ? (__typeof__(a_))(0u - (unsigned)a_) : a_ / b_; })
#define REM_(a, b, line) ({ __typeof__((a) + (b)) a_ = (a), b_ = (b); \
    if (b_ == 0) fault_("division by zero", line); \
    (__typeof__(a_))-1 < 0 && b_ == -1 ? 0 : a_ % b_; })
#define DIV_SET_(lv, r, line) ({ __typeof__(&(lv)) p_ = &(lv); *p_ = DIV_(*p_, r, line); })
#define REM_SET_(lv, r, line) ({ __typeof__(&(lv)) p_ = &(lv); *p_ = REM_(*p_, r, line); })
#define CDIV_(a, b) ((__typeof__((a) + (b)))-1 < 0 && (b) == -1 ? (__typeof__((a) + (b)))(0u - (unsigned)(a)) : (a) / (b))
#define CREM_(a, b) ((__typeof__((a) + (b)))-1 < 0 && (b) == -1 ? 0 : (a) % (b))
"#;

/// gcc's text of one program, its lines numbered as in ours, and its runner `p<k>_run`.
fn program_text(k: usize, p: &Program) -> String {
    let prefix = format!("p{k}_");
    let mut s = format!("#line 1 \"p{k}.c\"\n");
    s += &render(p, Dialect::Gcc { prefix: &prefix });
    let _ = writeln!(s, "static void {prefix}dump(void) {{");
    for g in &p.globals {
        let n = g.len.unwrap_or(1);
        // Each element as our machine holds it: its value in a signed word.
        let ty = if g.ty == CTy::Int { "word" } else { g.ty.gcc() };
        let _ = writeln!(
            s,
            "    fputs(\"{0}\", stderr); for (int i = 0; i < {n}; i++) fprintf(stderr, \" %d\", (int)(({ty} *)&{prefix}{0})[i]); fputc('\\n', stderr);",
            g.name
        );
    }
    for g in &p.struct_globals {
        // Element by element, member by member: one slot each on our machine.
        let def = p.struct_def(&g.tag);
        // A union's members share one object (the generator gives them one type).
        let members = def.map(|d| &d.fields[..if d.union { 1 } else { d.fields.len() }]).unwrap_or_default();
        let keyword = def.map_or("struct", |d| d.keyword());
        let each: String = members.iter().map(|(m, _)| format!(" fprintf(stderr, \" %d\", (int)e_.{m});")).collect();
        let _ = writeln!(
            s,
            "    fputs(\"{0}\", stderr); for (int i = 0; i < {1}; i++) {{ {keyword} {prefix}{2} e_ = (({keyword} {prefix}{2} *)&{prefix}{0})[i];{each} }} fputc('\\n', stderr);",
            g.name,
            g.len.unwrap_or(1),
            g.tag
        );
    }
    let _ = writeln!(s, "}}");
    let _ = writeln!(
        s,
        "static void {prefix}run(void) {{ dump_ = {prefix}dump; {prefix}main(); fflush(stdout); {prefix}dump(); fputs(\"halted\\n\", stderr); }}"
    );
    s
}

/// Compiles the programs (all of `bits`-bit words) into `dir/name` and runs each one.
pub fn run_batch(dir: &Path, name: &str, bits: u32, progs: &[&Program]) -> Result<Vec<Outcome>, String> {
    let mut src = prelude(bits);
    for (k, p) in progs.iter().enumerate() {
        assert_eq!(p.bits, bits, "a batch has one word size");
        src += &program_text(k, p);
    }
    src += "int main(int argc, char **argv) {\n    if (argc < 2) return 2;\n    switch (atoi(argv[1])) {\n";
    for k in 0..progs.len() {
        let _ = writeln!(src, "    case {k}: p{k}_run(); break;");
    }
    src += "    default: return 2;\n    }\n    return 0;\n}\n";
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c, &src).map_err(|e| format!("{}: {e}", c.display()))?;
    let out = Command::new("gcc")
        .args(["-fwrapv", "-O0", "-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .output()
        .map_err(|e| format!("gcc: {e}"))?;
    if !out.status.success() {
        return Err(format!("gcc rejected {}:\n{}", c.display(), String::from_utf8_lossy(&out.stderr)));
    }
    progs.iter().enumerate().map(|(k, p)| run_one(&exe, k, &dir.join(format!("{name}.{k}")), &p.input)).collect()
}

fn run_one(exe: &Path, k: usize, stem: &Path, input: &str) -> Result<Outcome, String> {
    let (out_path, err_path, in_path) =
        (stem.with_extension("out"), stem.with_extension("err"), stem.with_extension("in"));
    let file = |p: &Path| std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()));
    std::fs::write(&in_path, input).map_err(|e| format!("{}: {e}", in_path.display()))?;
    let stdin = std::fs::File::open(&in_path).map_err(|e| format!("{}: {e}", in_path.display()))?;
    let mut child = Command::new(exe)
        .arg(k.to_string())
        .stdin(stdin)
        .stdout(file(&out_path)?)
        .stderr(file(&err_path)?)
        .spawn()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(s);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let output = String::from_utf8_lossy(&std::fs::read(&out_path).unwrap_or_default()).into_owned();
    let report = String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    let _ = std::fs::remove_file(&out_path);
    let _ = std::fs::remove_file(&err_path);
    let _ = std::fs::remove_file(&in_path);
    let mut o = parse_report(&report, output);
    match status {
        None => o.end = End::Other("gcc's build timed out".into()),
        Some(s) if !s.success() => o.end = End::Other(format!("gcc's build exited with {s}")),
        Some(_) => {}
    }
    Ok(o)
}

fn parse_report(report: &str, output: String) -> Outcome {
    let mut globals = Vec::new();
    let mut end = End::Other(format!("gcc's build reported nothing final: {report:?}"));
    for line in report.lines() {
        let mut words = line.split(' ');
        let head = words.next().unwrap_or_default();
        if head == "halted" {
            end = End::Halted;
        } else if head == "fault" {
            let line_no = words.next().and_then(|w| w.parse().ok());
            end = End::Fault { message: words.collect::<Vec<_>>().join(" "), line: line_no };
        } else {
            globals.push((head.to_string(), words.filter_map(|w| w.parse().ok()).collect()));
        }
    }
    Outcome { globals, end, output }
}
