//! The starter programs (`programs/*.wat`), built in so the CLI's bench, the
//! tests and a UI's example picker share them. Each declares its size as
//! `(global $n i32 (i32.const N)) ;; n`, which [`Program::with_n`] rewrites.

/// A starter program and what `main` leaves on the stack at its default size.
pub struct Program {
    pub name: &'static str,
    pub source: &'static str,
    pub expected: &'static [i32],
}

pub const PROGRAMS: &[Program] = &[
    Program { name: "countdown", source: include_str!("programs/countdown.wat"), expected: &[0] },
    Program { name: "fibonacci", source: include_str!("programs/fibonacci.wat"), expected: &[832_040] },
    Program { name: "sum", source: include_str!("programs/sum.wat"), expected: &[5050] },
    Program { name: "gcd", source: include_str!("programs/gcd.wat"), expected: &[21, 1] },
    Program { name: "collatz", source: include_str!("programs/collatz.wat"), expected: &[111] },
    Program { name: "primes", source: include_str!("programs/primes.wat"), expected: &[168] },
    Program {
        name: "bubble_sort",
        source: include_str!("programs/bubble_sort.wat"),
        expected: &[-1_776_570_451, 2_121_308_585, 1],
    },
    Program { name: "fnv1a", source: include_str!("programs/fnv1a.wat"), expected: &[152_284_517] },
];

/// The scaling workload (not a starter: it exists to grow the trace).
pub const GROW: Program = Program { name: "grow", source: include_str!("programs/grow.wat"), expected: &[] };

const N_MARK: &str = ";; n";

impl Program {
    pub fn by_name(name: &str) -> Option<&'static Program> {
        PROGRAMS.iter().find(|p| p.name == name)
    }

    /// The source with its size `n` replaced (`None` when it has no size).
    pub fn with_n(&self, n: i64) -> Option<String> {
        let line = self.source.lines().find(|l| l.trim_end().ends_with(N_MARK))?;
        let start = line.find("(i32.const ")? + "(i32.const ".len();
        let end = start + line[start..].find(')')?;
        let new_line = format!("{}{n}{}", &line[..start], &line[end..]);
        Some(self.source.replacen(line, &new_line, 1))
    }
}
