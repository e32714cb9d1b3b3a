//! C's integer types: the one table their names, widths, signedness and ranks
//! come from, and the rules built on it (integer promotions, the usual
//! arithmetic conversions, conversion of a value to a type, literal typing).
//!
//! The widths are gcc's on a 32-bit target (ILP32, as `gcc -m32` and wasm32):
//! `char` 8 bits and signed, `short` 16, `int` and `long` 32, `long long` 64.
//! A machine's word may be narrower (8 or 16 bits): every type is then clipped
//! to the word ([`IntTy::bits`]), so `int` is always exactly one word and the
//! arithmetic of promoted operands is the machine's word arithmetic. A value of
//! a type narrower than the word is kept in its word sign- or zero-extended
//! (the word reads as the value), so only a conversion *to* a narrower type
//! needs code.

use crate::config::PRESETS;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum IntTy {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    /// C99's `_Bool` (`bool` in `<stdbool.h>`): holds 0 or 1; converting any other value
    /// to it gives 1.
    Bool,
}

/// One row of the table.
pub struct IntInfo {
    pub ty: IntTy,
    /// C's spelling.
    pub name: &'static str,
    /// Width on ILP32 (before clipping to the word).
    pub bits: u32,
    pub signed: bool,
    /// Conversion rank (C11 6.3.1.1): higher is wider.
    pub rank: u8,
}

const fn row(ty: IntTy, name: &'static str, bits: u32, signed: bool, rank: u8) -> IntInfo {
    IntInfo { ty, name, bits, signed, rank }
}

/// The integer types, ILP32. Order = [`IntTy`]'s.
pub const INT_TYPES: [IntInfo; 12] = [
    row(IntTy::Char, "char", 8, true, 1),
    row(IntTy::SChar, "signed char", 8, true, 1),
    row(IntTy::UChar, "unsigned char", 8, false, 1),
    row(IntTy::Short, "short", 16, true, 2),
    row(IntTy::UShort, "unsigned short", 16, false, 2),
    row(IntTy::Int, "int", 32, true, 3),
    row(IntTy::UInt, "unsigned int", 32, false, 3),
    row(IntTy::Long, "long", 32, true, 4),
    row(IntTy::ULong, "unsigned long", 32, false, 4),
    row(IntTy::LongLong, "long long", 64, true, 5),
    row(IntTy::ULongLong, "unsigned long long", 64, false, 5),
    // gcc's `_Bool` is one byte; its values are 0 and 1 (see `IntTy::range`).
    row(IntTy::Bool, "_Bool", 8, false, 0),
];

/// The widest word any machine can have; wider types (`long long`) are refused.
pub const MAX_WORD_BITS: u32 = 32;

/// `<stdint.h>`'s and `<stddef.h>`'s type names: `(name, type, exact width)`. An exact-width
/// type on a machine whose word is narrower is an error (clipping it would lie), not clipped.
pub const TYPEDEFS: [(&str, IntTy, Option<u32>); 11] = [
    ("int8_t", IntTy::SChar, Some(8)),
    ("uint8_t", IntTy::UChar, Some(8)),
    ("int16_t", IntTy::Short, Some(16)),
    ("uint16_t", IntTy::UShort, Some(16)),
    ("int32_t", IntTy::Int, Some(32)),
    ("uint32_t", IntTy::UInt, Some(32)),
    ("int64_t", IntTy::LongLong, Some(64)),
    ("uint64_t", IntTy::ULongLong, Some(64)),
    ("size_t", IntTy::UInt, None),
    ("intptr_t", IntTy::Int, None),
    ("uintptr_t", IntTy::UInt, None),
];

impl IntTy {
    pub fn info(self) -> &'static IntInfo {
        let row = &INT_TYPES[self as usize];
        debug_assert_eq!(row.ty, self, "invariant: INT_TYPES is in IntTy's order");
        row
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn signed(self) -> bool {
        self.info().signed
    }

    /// The width on a machine with `word`-bit words: ILP32's, clipped to the word.
    pub fn bits(self, word: u32) -> u32 {
        self.info().bits.min(word)
    }

    /// Smallest and largest value on a machine with `word`-bit words.
    pub fn range(self, word: u32) -> (i64, i64) {
        if self == IntTy::Bool {
            return (0, 1);
        }
        let b = self.bits(word);
        if self.signed() {
            (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1)
        } else {
            (0, ((1i128 << b) - 1) as i64)
        }
    }

    /// `v` converted to this type (modulo 2^bits, as gcc converts).
    pub fn convert(self, v: i64, word: u32) -> i64 {
        if self == IntTy::Bool {
            return i64::from(v != 0);
        }
        let b = self.bits(word);
        if b >= 64 {
            return v;
        }
        let sh = 64 - b;
        if self.signed() {
            (v << sh) >> sh
        } else {
            ((v as u64) << sh >> sh) as i64
        }
    }

    /// Whether every value of `self` is a value of `to` (converting needs no code).
    pub fn fits_in(self, to: IntTy, word: u32) -> bool {
        let ((a, b), (c, d)) = (self.range(word), to.range(word));
        c <= a && b <= d
    }

    /// The unsigned type of the same rank.
    fn unsigned(self) -> IntTy {
        match self {
            IntTy::Char | IntTy::SChar | IntTy::UChar => IntTy::UChar,
            IntTy::Short | IntTy::UShort => IntTy::UShort,
            IntTy::Int | IntTy::UInt => IntTy::UInt,
            IntTy::Long | IntTy::ULong => IntTy::ULong,
            IntTy::LongLong | IntTy::ULongLong => IntTy::ULongLong,
            IntTy::Bool => IntTy::Bool,
        }
    }

    /// The integer promotions: a type ranked below `int` becomes `int` when `int` holds all
    /// its values, else `unsigned int` (on 8- and 16-bit words, `unsigned char`/`short` may).
    pub fn promoted(self, word: u32) -> IntTy {
        if self.info().rank >= IntTy::Int.info().rank {
            self
        } else if self.fits_in(IntTy::Int, word) {
            IntTy::Int
        } else {
            IntTy::UInt
        }
    }

    /// The usual arithmetic conversions: the common type of two operands.
    pub fn common(a: IntTy, b: IntTy, word: u32) -> IntTy {
        let (a, b) = (a.promoted(word), b.promoted(word));
        if a == b {
            return a;
        }
        let (ra, rb) = (a.info().rank, b.info().rank);
        if a.signed() == b.signed() {
            return if ra >= rb { a } else { b };
        }
        let (s, u) = if a.signed() { (a, b) } else { (b, a) };
        if u.info().rank >= s.info().rank {
            u
        } else if u.fits_in(s, word) {
            s
        } else {
            s.unsigned()
        }
    }

    /// Bytes `sizeof` reports: the clipped width in 8-bit bytes.
    pub fn size(self, word: u32) -> i64 {
        i64::from(self.bits(word) / 8)
    }
}

/// A literal's suffix: `u`, `l`, `ll` and their combinations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Suffix {
    pub unsigned: bool,
    /// 0, 1 (`l`) or 2 (`ll`).
    pub long: u8,
}

/// C's type of an integer constant (C11 6.4.4.1): the first of the candidate types its
/// value fits, by suffix and base (a hex or octal constant may be unsigned without `u`).
/// `Err` is the smallest ILP32 type it needs when the candidates that fit are too wide
/// for the machine (`long long`, or a type clipped to a narrow word).
pub fn literal_type(v: u64, suffix: Suffix, decimal: bool, word: u32) -> Result<IntTy, u32> {
    use IntTy::*;
    let candidates: &[IntTy] = match (suffix.unsigned, suffix.long, decimal) {
        (false, 0, true) => &[Int, Long, LongLong],
        (false, 0, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
        (false, 1, true) => &[Long, LongLong],
        (false, 1, false) => &[Long, ULong, LongLong, ULongLong],
        (false, _, true) => &[LongLong],
        (false, _, false) => &[LongLong, ULongLong],
        (true, 0, _) => &[UInt, ULong, ULongLong],
        (true, 1, _) => &[ULong, ULongLong],
        (true, _, _) => &[ULongLong],
    };
    let fits = |t: IntTy, w: u32| i128::from(v) <= i128::from(t.range(w).1);
    let typed = |w: u32| candidates.iter().copied().find(|&t| fits(t, w)).filter(|t| t.info().bits <= MAX_WORD_BITS);
    typed(word).ok_or_else(|| [8, 16, 32].into_iter().find(|&w| w > word && typed(w).is_some()).unwrap_or(64))
}

/// `<limits.h>` and `<stdint.h>` constants: the value and type of `name` on a machine with
/// `word`-bit words; `Err(bits)` when it describes a type wider than the word.
pub fn limit(name: &str, word: u32) -> Option<Result<(i64, IntTy), u32>> {
    use IntTy::*;
    let (ty, max) = match name {
        "CHAR_BIT" => return Some(Ok((8, Int))),
        "SCHAR_MIN" => (SChar, false),
        "SCHAR_MAX" => (SChar, true),
        "UCHAR_MAX" => (UChar, true),
        "CHAR_MIN" => (Char, false),
        "CHAR_MAX" => (Char, true),
        "SHRT_MIN" => (Short, false),
        "SHRT_MAX" => (Short, true),
        "USHRT_MAX" => (UShort, true),
        "INT_MIN" => (Int, false),
        "INT_MAX" => (Int, true),
        "UINT_MAX" => (UInt, true),
        "LONG_MIN" => (Long, false),
        "LONG_MAX" => (Long, true),
        "ULONG_MAX" => (ULong, true),
        "SIZE_MAX" => (UInt, true),
        _ => {
            let (sign, rest) = match name.strip_prefix('U') {
                Some(r) => (false, r),
                None => (true, name),
            };
            let rest = rest.strip_prefix("INT")?;
            let (bits, end) = rest.split_once('_')?;
            let bits: u32 = bits.parse().ok()?;
            let exact = TYPEDEFS.iter().find(|t| t.2 == Some(bits) && t.1.signed() == sign)?;
            let max = match end {
                "MAX" => true,
                "MIN" if sign => false,
                _ => return None,
            };
            if bits > word {
                return Some(Err(bits));
            }
            (exact.1, max)
        }
    };
    // The constant has the promoted type (`UCHAR_MAX` is an `int`), as in gcc's headers.
    let (lo, hi) = ty.range(word);
    Some(Ok((if max { hi } else { lo }, ty.promoted(word))))
}

/// Where a program that needs `bits`-bit words fits: the presets with the narrowest such
/// word, for diagnostics (read from [`PRESETS`], so new presets are named when they exist).
pub fn presets_for(bits: u32) -> String {
    let word = PRESETS.iter().map(|c| c.word_bits).filter(|&w| w >= bits).min();
    match word {
        Some(w) => {
            let names: Vec<_> = PRESETS.iter().filter(|c| c.word_bits == w).map(|c| format!("`{}`", c.name)).collect();
            format!("use a configuration with {w}-bit words: {}", names.join(", "))
        }
        None => {
            let widest = PRESETS.iter().map(|c| c.word_bits).max().unwrap_or(0);
            format!("no configuration has {bits}-bit words (the widest has {widest})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IntTy::*;
    use super::*;

    #[test]
    fn the_table_is_in_enum_order() {
        for (k, row) in INT_TYPES.iter().enumerate() {
            assert_eq!(row.ty as usize, k, "{}", row.name);
        }
    }

    #[test]
    fn conversions_follow_gcc_on_ilp32() {
        assert_eq!(Char.convert(300, 32), 44);
        assert_eq!(UChar.convert(-1, 32), 255);
        assert_eq!(Short.convert(40000, 32), -25536);
        assert_eq!(UInt.convert(-1, 32), 4294967295);
        assert_eq!(Int.convert(4294967295, 32), -1);
        assert_eq!(Int.convert(40000, 16), -25536, "int is clipped to a 16-bit word");
        assert_eq!(Bool.convert(256, 32), 1, "_Bool is 0 or 1, not a truncation");
        assert_eq!(Bool.convert(0, 8), 0);
        assert!(Bool.fits_in(UChar, 8) && !UChar.fits_in(Bool, 32));
        assert_eq!(Bool.promoted(8), Int);
    }

    #[test]
    fn promotions_and_common_types() {
        assert_eq!(UChar.promoted(32), Int);
        assert_eq!(UShort.promoted(32), Int);
        assert_eq!(UShort.promoted(16), UInt, "a 16-bit int cannot hold every unsigned short");
        assert_eq!(IntTy::common(Int, UInt, 32), UInt);
        assert_eq!(IntTy::common(Long, UInt, 32), ULong, "ILP32: long cannot hold every unsigned int");
        assert_eq!(IntTy::common(Char, UChar, 32), Int);
        assert_eq!(IntTy::common(Short, Long, 32), Long);
    }

    #[test]
    fn literals_take_cs_types() {
        let s = |unsigned, long| Suffix { unsigned, long };
        assert_eq!(literal_type(5, s(false, 0), true, 32), Ok(Int));
        assert_eq!(literal_type(2147483648, s(false, 0), true, 32), Err(64), "decimal: long long");
        assert_eq!(literal_type(0x80000000, s(false, 0), false, 32), Ok(UInt), "hex may be unsigned");
        assert_eq!(literal_type(2166136261, s(true, 0), true, 32), Ok(UInt));
        assert_eq!(literal_type(5, s(true, 1), true, 32), Ok(ULong));
        assert_eq!(literal_type(5, s(false, 2), true, 32), Err(64));
        assert_eq!(literal_type(0xFF, s(false, 0), false, 8), Ok(UInt));
        assert_eq!(literal_type(200, s(false, 0), true, 8), Err(16), "an 8-bit int is too narrow");
        assert_eq!(literal_type(40000, s(true, 0), true, 16), Ok(UInt));
        assert_eq!(literal_type(70000, s(true, 0), true, 16), Err(32));
    }

    #[test]
    fn limits_are_the_clipped_ranges() {
        assert_eq!(limit("INT_MAX", 32), Some(Ok((2147483647, Int))));
        assert_eq!(limit("INT_MAX", 16), Some(Ok((32767, Int))));
        assert_eq!(limit("UINT_MAX", 32), Some(Ok((4294967295, UInt))));
        assert_eq!(limit("UCHAR_MAX", 32), Some(Ok((255, Int))));
        assert_eq!(limit("INT32_MIN", 32), Some(Ok((-2147483648, Int))));
        assert_eq!(limit("UINT16_MAX", 8), Some(Err(16)));
        assert_eq!(limit("UINT8_MIN", 8), None);
        assert_eq!(limit("INT_MAXX", 8), None);
    }
}
