//! The source languages, by name, and the one function that builds any of them.

use crate::compiler::{self, Compiled};
use crate::config::{Config, PRESETS};
use crate::{asm, isa};

/// A source language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    C,
    Asm,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::C, Lang::Asm];

    /// The name front ends use (`"c"`, `"asm"`): the CLI, the JS API, links and messages.
    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Asm => "asm",
        }
    }

    /// What a person reads: "C", "assembly".
    pub fn label(self) -> &'static str {
        match self {
            Lang::C => "C",
            Lang::Asm => "assembly",
        }
    }

    /// The file name diagnostics are rendered against.
    pub fn file(self) -> &'static str {
        match self {
            Lang::C => "program.c",
            Lang::Asm => "program.s",
        }
    }

    pub fn by_name(name: &str) -> Result<Lang, String> {
        Lang::ALL.into_iter().find(|l| l.name() == name).ok_or_else(|| {
            let names: Vec<_> = Lang::ALL.iter().map(|l| l.name()).collect();
            format!("unknown language `{name}` (languages: {})", names.join(", "))
        })
    }

    /// By a file's extension: `.c`, or `.s` / `.asm`.
    pub fn by_extension(path: &str) -> Option<Lang> {
        match path.rsplit_once('.')?.1 {
            "c" | "h" => Some(Lang::C),
            "s" | "asm" => Some(Lang::Asm),
            _ => None,
        }
    }

    /// C unless the text looks like assembly (directives or mnemonics, no braces).
    pub fn detect(source: &str) -> Lang {
        let code = |l: &&str| !l.trim().is_empty() && !l.trim_start().starts_with(';');
        let asm_like = |l: &str| {
            let l = l.trim();
            let word = l.split_once(':').map_or(l, |(_, rest)| rest).split_whitespace().next().unwrap_or("");
            l.starts_with(".data") || isa::Opcode::from_mnemonic(word).is_some()
        };
        if source.contains('{') || !source.lines().filter(code).any(asm_like) {
            Lang::C
        } else {
            Lang::Asm
        }
    }
}

/// Builds `source` for a configuration: the program when there were no
/// errors, and every diagnostic (errors and warnings) either way.
pub fn build(lang: Lang, source: &str, config: Config) -> Compiled {
    match lang {
        Lang::C => compiler::compile(source, config),
        Lang::Asm => match asm::assemble(source, config) {
            Ok(p) => Compiled { program: Some(p), diagnostics: Vec::new() },
            Err(diagnostics) => Compiled { program: None, diagnostics },
        },
    }
}

/// What `--config auto` chose, and why.
pub struct AutoBuild {
    pub compiled: Compiled,
    pub config: Config,
    /// One sentence: why this preset (or that none holds the program).
    pub reason: String,
}

/// Builds `source` on the smallest preset with 32-bit words (C's `int` as
/// gcc has it, so the program means what it means there) that holds it. When
/// none does, the largest one's build is returned: its errors say what the
/// program needs.
pub fn build_auto(lang: Lang, source: &str) -> AutoBuild {
    let mut wide: Vec<Config> = PRESETS.iter().copied().filter(|c| c.word_bits == AUTO_WORD_BITS).collect();
    wide.sort_by_key(|c| c.n);
    let mut last = None;
    for config in wide {
        let compiled = build(lang, source, config);
        if let Some(p) = &compiled.program {
            let reason = format!(
                "`{}` is the smallest {AUTO_WORD_BITS}-bit preset that holds the program's {} instructions and {} memory words ({config})",
                config.name,
                p.code.len(),
                p.used_slots(),
            );
            return AutoBuild { compiled, config, reason };
        }
        last = Some((compiled, config));
    }
    let (compiled, config) = last.expect("invariant: some presets have 32-bit words");
    let reason = format!("no {AUTO_WORD_BITS}-bit preset builds the program; the largest, {config}, says why");
    AutoBuild { compiled, config, reason }
}

/// The word size `--config auto` chooses among.
pub const AUTO_WORD_BITS: u32 = 32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_and_names_languages() {
        assert_eq!(Lang::detect("int main() { return 0; }"), Lang::C);
        assert_eq!(Lang::detect("; a comment\nINC x\nHALT\n.data x = 1"), Lang::Asm);
        assert_eq!(Lang::by_name("asm"), Ok(Lang::Asm));
        assert!(Lang::by_name("rust").unwrap_err().contains("languages: c, asm"));
        assert_eq!(Lang::by_extension("dir.v1/x.s"), Some(Lang::Asm));
        assert_eq!(Lang::by_extension("x.txt"), None);
    }
}
