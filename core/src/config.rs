//! Machine configurations: the sizes `(s, n, N, m)` everything else derives from.
//!
//! A configuration is data, validated once; the weights, the layout, the
//! compiler's budgets and the UI's picker all read it.

use std::fmt;

/// Scratchpad columns (`s`). Fixed by the design: opcodes are the `a` values below it.
pub const SCRATCH_COLS: usize = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Config {
    /// Preset name, or `"custom"`.
    pub name: &'static str,
    /// Columns (`n`), a power of two.
    pub n: usize,
    /// Word size in bits (`N`).
    pub word_bits: u32,
    /// Memory slots (`m`).
    pub mem_slots: usize,
}

/// Most rows a configuration may have: the sparse engine tracks a column's
/// nonzero rows in masks of at most this many bits (its widest, which only
/// 32-bit machines use; d = 9·logn + 8·N + 1, so at N = 32 log2(n) ≤ 14).
pub const MAX_ROWS: usize = 384;

/// Every named preset, in the order the UI lists them.
pub const PRESETS: [Config; 11] = [
    preset("tiny", 64, 8, 8),
    preset("small", 128, 8, 32),
    preset("compact", 512, 8, 160),
    preset("default", 1024, 8, 64),
    preset("large", 2048, 8, 224),
    preset("compact16", 512, 16, 160),
    preset("default16", 1024, 16, 64),
    preset("large16", 2048, 16, 224),
    preset("compact32", 512, 32, 160),
    preset("default32", 2048, 32, 1024),
    preset("large32", 16384, 32, 8192),
];

const fn preset(name: &'static str, n: usize, word_bits: u32, mem_slots: usize) -> Config {
    Config { name, n, word_bits, mem_slots }
}

/// Why a configuration is unusable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Looks a preset up by name.
    pub fn preset(name: &str) -> Result<Config, ConfigError> {
        PRESETS.iter().copied().find(|c| c.name == name).ok_or_else(|| {
            let names: Vec<_> = PRESETS.iter().map(|c| c.name).collect();
            ConfigError(format!("unknown configuration `{name}`; the presets are: {}", names.join(", ")))
        })
    }

    /// Builds and validates a custom configuration.
    pub fn custom(n: usize, word_bits: u32, mem_slots: usize) -> Result<Config, ConfigError> {
        let c = Config { name: "custom", n, word_bits, mem_slots };
        c.validate()?;
        Ok(c)
    }

    /// Checks the constraints the weight construction relies on.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let err = |m: String| Err(ConfigError(m));
        if !self.n.is_power_of_two() {
            return err(format!("n = {} columns is not a power of two", self.n));
        }
        if self.logn() < 6 {
            return err(format!("n = {} is too small: log2(n) must be at least 6 (n ≥ 64)", self.n));
        }
        if self.logn() > 16 {
            return err(format!("n = {} is too large: at most 65536 columns", self.n));
        }
        if !matches!(self.word_bits, 8 | 16 | 32) {
            return err(format!("N = {} bits is not supported: words are 8, 16 or 32 bits", self.word_bits));
        }
        if self.d() > MAX_ROWS {
            return err(format!(
                "d = 9·log2(n) + 8·N + 1 = {} rows is too many: the engine holds at most {MAX_ROWS} \
                 (with N = {}, n ≤ {})",
                self.d(),
                self.word_bits,
                1usize << ((MAX_ROWS - 1 - 8 * self.word_bits as usize) / 9).min(16)
            ));
        }
        if self.mem_slots == 0 {
            return err("m = 0: a machine needs at least one memory slot".into());
        }
        if self.mem_slots as u64 > 1u64 << self.word_bits {
            return err(format!(
                "m = {} slots cannot all be addressed by {}-bit pointers (at most {})",
                self.mem_slots,
                self.word_bits,
                1u64 << self.word_bits
            ));
        }
        if SCRATCH_COLS + self.mem_slots >= self.n {
            return err(format!(
                "s + m = {} leaves no instruction columns in n = {}",
                SCRATCH_COLS + self.mem_slots,
                self.n
            ));
        }
        Ok(())
    }

    /// Scratchpad columns `s`.
    pub const fn s(&self) -> usize {
        SCRATCH_COLS
    }

    /// Address width: `log2(n)`.
    pub const fn logn(&self) -> usize {
        self.n.trailing_zeros() as usize
    }

    /// Model dimension `d = 9·logn + 8·N + 1`.
    pub const fn d(&self) -> usize {
        9 * self.logn() + 8 * self.word_bits as usize + 1
    }

    /// Instruction slots: the columns after scratchpad and memory.
    pub const fn instr_slots(&self) -> usize {
        self.n - SCRATCH_COLS - self.mem_slots
    }

    /// Column of memory slot `i`.
    pub const fn mem_col(&self, slot: usize) -> usize {
        SCRATCH_COLS + slot
    }

    /// MULSTEP's multiplier slot for an operand in slot `slot`: the other slot of its
    /// even/odd pair. The scratchpad's width is even, so the columns pair the same way
    /// (`mem_col(partner(i)) = mem_col(i) ^ 1`): the weights flip the address's lowest bit.
    pub const fn partner(&self, slot: usize) -> usize {
        const { assert!(SCRATCH_COLS.is_multiple_of(2)) };
        slot ^ 1
    }

    /// Column of instruction `k`; also the initial PC for `k = 0`.
    pub const fn instr_col(&self, k: usize) -> usize {
        SCRATCH_COLS + self.mem_slots + k
    }

    /// What column `col` holds: the one place that divides the columns into zones.
    pub const fn column(&self, col: usize) -> Column {
        if col == 0 {
            Column::Working
        } else if col < SCRATCH_COLS {
            Column::Scratch(col)
        } else if col < self.instr_col(0) {
            Column::Memory(col - SCRATCH_COLS)
        } else {
            Column::Instruction(col - self.instr_col(0))
        }
    }

    /// Where execution starts.
    pub const fn start_pc(&self) -> usize {
        self.instr_col(0)
    }

    /// Smallest and largest signed word.
    pub const fn word_min(&self) -> i32 {
        (-(1i64 << (self.word_bits - 1))) as i32
    }

    pub const fn word_max(&self) -> i32 {
        ((1i64 << (self.word_bits - 1)) - 1) as i32
    }

    /// Wraps an integer to a signed N-bit word (two's complement).
    #[inline(always)]
    pub const fn wrap(&self, v: i64) -> i32 {
        let sh = 64 - self.word_bits;
        ((v << sh) >> sh) as i32
    }

    /// A word read as an unsigned N-bit number (how pointers are read).
    #[inline(always)]
    pub const fn unsigned(&self, v: i32) -> u32 {
        // In u64: `1u32 << 32` would overflow at N = 32.
        ((v as u32 as u64) & ((1u64 << self.word_bits) - 1)) as u32
    }

    /// The smallest preset (by n, then by word size) that fits a program's needs.
    pub fn smallest_fitting(instrs: usize, slots: usize, word_bits: u32) -> Option<Config> {
        let mut fits: Vec<Config> = PRESETS
            .iter()
            .copied()
            .filter(|c| c.word_bits == word_bits && c.instr_slots() >= instrs && c.mem_slots >= slots)
            .collect();
        fits.sort_by_key(|c| c.n);
        fits.first().copied()
    }
}

/// A column by what it holds (spec §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "zone", content = "index", rename_all = "lowercase")]
pub enum Column {
    /// Column 0: the PC, the decoded instruction and the working registers.
    Working,
    /// Columns 1..s−1: reserved scratchpad.
    Scratch(usize),
    /// Memory slot `i`.
    Memory(usize),
    /// Instruction `k` (empty past the program's end).
    Instruction(usize),
}

impl Column {
    /// The zone's name, as the heatmap labels it.
    pub const fn zone(self) -> &'static str {
        match self {
            Column::Working | Column::Scratch(_) => "scratch",
            Column::Memory(_) => "memory",
            Column::Instruction(_) => "instructions",
        }
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}×{}, N = {}, m = {}, {} instruction slots)",
            self.name,
            self.d(),
            self.n,
            self.word_bits,
            self.mem_slots,
            self.instr_slots()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_published_sizes() {
        let dims: Vec<_> = PRESETS.iter().map(|c| (c.name, c.d(), c.n, c.instr_slots())).collect();
        assert_eq!(
            dims,
            [
                ("tiny", 119, 64, 24),
                ("small", 128, 128, 64),
                ("compact", 146, 512, 320),
                ("default", 155, 1024, 928),
                ("large", 164, 2048, 1792),
                ("compact16", 210, 512, 320),
                ("default16", 219, 1024, 928),
                ("large16", 228, 2048, 1792),
                ("compact32", 338, 512, 320),
                ("default32", 356, 2048, 992),
                ("large32", 383, 16384, 8160),
            ]
        );
        for c in PRESETS {
            c.validate().unwrap();
        }
    }

    #[test]
    fn invalid_configurations_explain_themselves() {
        let e = Config::custom(100, 8, 8).unwrap_err();
        assert!(e.0.contains("power of two"), "{e}");
        let e = Config::custom(32, 8, 8).unwrap_err();
        assert!(e.0.contains("at least 6"), "{e}");
        let e = Config::custom(64, 8, 40).unwrap_err();
        assert!(e.0.contains("no instruction columns"), "{e}");
        let e = Config::custom(1024, 8, 300).unwrap_err();
        assert!(e.0.contains("8-bit pointers"), "{e}");
        assert!(Config::preset("huge").unwrap_err().0.contains("compact"));
        let e = Config::custom(32768, 32, 64).unwrap_err();
        assert!(e.0.contains("at most 384") && e.0.contains("n ≤ 16384"), "{e}");
        let e = Config::custom(1024, 24, 64).unwrap_err();
        assert!(e.0.contains("8, 16 or 32"), "{e}");
    }

    #[test]
    fn wrap_and_unsigned() {
        let c = Config::preset("compact").unwrap();
        assert_eq!(c.wrap(128), -128);
        assert_eq!(c.wrap(-129), 127);
        assert_eq!(c.unsigned(-1), 255);
        let w = Config::preset("compact16").unwrap();
        assert_eq!(w.wrap(32768), -32768);
        let l = Config::preset("compact32").unwrap();
        assert_eq!(l.wrap(1 << 31), i32::MIN);
        assert_eq!(l.wrap(-(1 << 31) - 1), i32::MAX);
        assert_eq!(l.unsigned(-1), u32::MAX);
        assert_eq!((l.word_min(), l.word_max()), (i32::MIN, i32::MAX));
        assert_eq!((c.word_min(), c.word_max(), w.word_min()), (-128, 127, -32768));
    }
}
