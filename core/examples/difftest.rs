//! Differential testing against gcc, for longer runs than the CI budget:
//!
//! ```text
//! cargo run --release -p loom-core --example difftest -- --count 5000 --seed 7 [--lockstep] [--threads 2] [--no-avoid] [--bits 32]
//! cargo run --release -p loom-core --example difftest -- --show SEED     # one program, both texts
//! cargo run --release -p loom-core --example difftest -- --reduce SEED   # shrink a diverging program
//! ```
//!
//! `--no-avoid` also generates the known bugs the generator steers around
//! (`tests/difftest/known.rs`). Exits 1 if any program diverges (their texts are
//! kept in a temporary directory).

#[path = "../tests/difftest/mod.rs"]
mod difftest;

use difftest::campaign::{self, Budget};
use difftest::text::{render, Dialect};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let avoid = !args.iter().any(|a| a == "--no-avoid");
    let value = |flag: &str| -> Option<u64> {
        let i = args.iter().position(|a| a == flag)?;
        let v = args.get(i + 1).unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        let parsed = match v.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => v.parse(),
        };
        Some(parsed.unwrap_or_else(|_| usage(&format!("{flag}: `{v}` is not a number"))))
    };
    if let Some(seed) = value("--show") {
        let p = difftest::gen::program(seed, avoid, difftest::ours::features());
        println!("// ours ({}-bit words)\n{}", p.bits, render(&p, Dialect::Ours));
        println!("// gcc's\n{}", render(&p, Dialect::Gcc { prefix: "" }));
        return;
    }
    if !difftest::gcc::available() {
        usage("`gcc` is not installed");
    }
    if let Some(seed) = value("--reduce") {
        return reduce(seed, avoid);
    }
    let mut b = Budget::new(value("--seed").unwrap_or(1), value("--count").unwrap_or(1000) as usize, false);
    b.lockstep = args.iter().any(|a| a == "--lockstep");
    b.avoid_known = avoid;
    b.bits = value("--bits").map(|w| match w {
        8 | 16 | 32 => w as u32,
        _ => usage("--bits: 8, 16 or 32"),
    });
    if let Some(t) = value("--threads") {
        b.threads = t as usize;
    }
    let report = campaign::run(&b);
    for d in &report.divergences {
        println!("program seed {:#x} ({}): {}", d.seed, d.engine, d.what);
    }
    println!("{}", report.summary(&b));
    std::process::exit(i32::from(!report.divergences.is_empty()));
}

/// Shrinks one diverging program and prints it with both outcomes.
fn reduce(seed: u64, avoid: bool) {
    let dir = campaign::scratch("reduce");
    let p = difftest::gen::program(seed, avoid, difftest::ours::features());
    let first = campaign::outcomes(&p, &dir).unwrap_or_else(|e| usage(&format!("the program does not build: {e}")));
    let Some(kind) = first.0.diff(&first.1) else { usage("this program does not diverge") };
    let status_differs = first.0.end != first.1.end;
    let mut tries = 0;
    let small = difftest::reduce::reduce(&p, |q| {
        tries += 1;
        // Shrinking must not wander into a known bug (unless those are generated too).
        (!avoid || !difftest::known::present(q))
            && campaign::outcomes(q, &dir)
                .is_ok_and(|(a, b)| a.diff(&b).is_some() && (a.end != b.end) == status_differs)
    });
    let (a, b) = campaign::outcomes(&small, &dir).expect("the reduced program builds");
    println!("// {}-bit words; reduced in {tries} tries from: {kind}", small.bits);
    println!("{}", render(&small, Dialect::Ours));
    println!("// ours: {}\n// gcc:  {}", describe(&a), describe(&b));
    let _ = std::fs::remove_dir_all(&dir);
}

fn describe(o: &difftest::outcome::Outcome) -> String {
    let globals: Vec<String> = o.globals.iter().map(|(n, v)| format!("{n} = {v:?}")).collect();
    format!("{}; {}; output {:?}", o.end, globals.join(", "), o.output)
}

fn usage(why: &str) -> ! {
    eprintln!("difftest: {why}\nusage: difftest [--count N] [--seed S] [--lockstep] [--threads T] [--no-avoid] [--bits 8|16|32] | --show PROGRAM_SEED | --reduce PROGRAM_SEED");
    std::process::exit(2)
}
