//! The headers the playground provides, as C text, and the macros the compiler
//! predefines from the machine's configuration (which `<limits.h>` is written
//! in terms of, as gcc's is).
//!
//! The functions they declare are the compiler's builtins (BUILTINS.md); a
//! prototype here is what C says the function's type is. `printf` is not
//! declared: its `...` has no spelling in this C, and its format is checked
//! where it is called.

use super::library;
use crate::config::Config;
use crate::ctypes::{self as types, IntTy};

/// Every header `#include` finds.
pub const NAMES: [&str; 10] = [
    "assert.h",
    "ctype.h",
    "limits.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "iso646.h",
];

/// The name under which the predefined macros are "included" (their origin in notes).
pub const PREDEFINED: &str = "the compiler";

/// The text of a header, by the name in `#include <name>`, for a machine with `word`-bit words.
pub fn text(name: &str, word: u32) -> Option<String> {
    Some(match name {
        "stdio.h" => format!("{STDIO}{}#endif\n", library::SCANF),
        "stdlib.h" => format!("{STDLIB}{}#endif\n", library::STDLIB),
        "string.h" => format!("#ifndef _STRING_H\n#define _STRING_H\n#define NULL 0\n{}#endif\n", library::STRING),
        "ctype.h" => format!("#ifndef _CTYPE_H\n#define _CTYPE_H\n{}#endif\n", library::CTYPE),
        "stddef.h" => STDDEF.to_string(),
        "stdbool.h" => STDBOOL.to_string(),
        "limits.h" => constants("_LIMITS_H", &LIMIT_NAMES, word),
        "stdint.h" => constants("_STDINT_H", &STDINT_NAMES, word),
        "assert.h" => ASSERT.to_string(),
        "iso646.h" => ISO646.to_string(),
        _ => return None,
    })
}

/// `<limits.h>` and `<stdint.h>`: each constant of the compiler's type table (`types::limit`)
/// whose type the machine holds, spelled so that `#if` and the compiler both read its value and
/// C type (`UINT_MAX` is `4294967295U`). A constant whose type is wider than the word is left
/// to the compiler, which refuses its use with a message naming the presets that hold it. The
/// type names (`int8_t`, `size_t`, …) are the compiler's own (`types::TYPEDEFS`).
fn constants(guard: &str, names: &[&str], word: u32) -> String {
    let mut s = format!("#ifndef {guard}\n#define {guard}\n");
    for &name in names {
        let Some(Ok((v, ty))) = types::limit(name, word) else { continue };
        let suffix = match (ty.signed(), ty.info().rank >= IntTy::Long.info().rank) {
            (true, false) => "",
            (true, true) => "L",
            (false, false) => "U",
            (false, true) => "UL",
        };
        let value = if v < 0 { format!("(-{}{suffix} - 1)", -(v + 1)) } else { format!("{v}{suffix}") };
        s.push_str(&format!("#define {name} {value}\n"));
    }
    s.push_str("#endif\n");
    s
}

/// The constants `<stdint.h>` defines for its exact-width types.
const STDINT_NAMES: [&str; 10] = [
    "INT8_MIN",
    "INT8_MAX",
    "UINT8_MAX",
    "INT16_MIN",
    "INT16_MAX",
    "UINT16_MAX",
    "INT32_MIN",
    "INT32_MAX",
    "UINT32_MAX",
    "SIZE_MAX",
];

/// The names `<limits.h>` defines, in the order C lists them.
const LIMIT_NAMES: [&str; 16] = [
    "CHAR_BIT",
    "SCHAR_MIN",
    "SCHAR_MAX",
    "UCHAR_MAX",
    "CHAR_MIN",
    "CHAR_MAX",
    "SHRT_MIN",
    "SHRT_MAX",
    "USHRT_MAX",
    "INT_MIN",
    "INT_MAX",
    "UINT_MAX",
    "LONG_MIN",
    "LONG_MAX",
    "ULONG_MAX",
    "SIZE_MAX",
];

/// `#define`s of the values C leaves to the implementation, for `config` (from the type table).
pub fn predefined(config: Config) -> String {
    let word = config.word_bits;
    let (_, int_max) = IntTy::Int.range(word);
    let (_, schar_max) = IntTy::SChar.range(word);
    let int_width = IntTy::Int.bits(word);
    let int_size = IntTy::Int.size(word);
    format!(
        "#define __STDC__ 1\n#define __STDC_VERSION__ 199901\n#define __STDC_HOSTED__ 0\n\
         #define __CHAR_BIT__ 8\n#define __INT_WIDTH__ {int_width}\n#define __INT_MAX__ {int_max}\n\
         #define __SCHAR_MAX__ {schar_max}\n#define __SIZEOF_INT__ {int_size}\n"
    )
}

const STDIO: &str = "\
#ifndef _STDIO_H
#define _STDIO_H
/* Output goes to the Console, input comes from the Input box (loom run --input).
   printf(format, ...) and scanf(format, ...) are builtins whose format is a string literal. */
#define EOF (-1)
#define NULL 0
int putchar(int c);
int puts(char *s);
int getchar(void);
";

const STDLIB: &str = "\
#ifndef _STDLIB_H
#define _STDLIB_H
#define NULL 0
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
int abs(int x);
void exit(int status);
";

/// `size_t` is one of the compiler's type names (`types::TYPEDEFS`); `ptrdiff_t` is `int` (ILP32)
/// until the compiler has `typedef`.
const STDDEF: &str = "\
#ifndef _STDDEF_H
#define _STDDEF_H
#define NULL 0
#define ptrdiff_t int
#endif
";

const STDBOOL: &str = "\
#ifndef _STDBOOL_H
#define _STDBOOL_H
#define bool _Bool
#define true 1
#define false 0
#define __bool_true_false_are_defined 1
#endif
";

/// `assert(condition)` is a builtin: a false condition stops the program with a trap naming the line.
const ASSERT: &str = "\
#ifndef _ASSERT_H
#define _ASSERT_H
#endif
";

const ISO646: &str = "\
#ifndef _ISO646_H
#define _ISO646_H
#define and &&
#define and_eq &=
#define bitand &
#define bitor |
#define compl ~
#define not !
#define not_eq !=
#define or ||
#define or_eq |=
#define xor ^
#define xor_eq ^=
#endif
";
