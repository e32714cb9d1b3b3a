//! The headers the playground provides, as C text, and the macros the compiler
//! predefines from the machine's configuration (which `<limits.h>` is written
//! in terms of, as gcc's is).
//!
//! The functions they declare are the compiler's builtins (BUILTINS.md); a
//! prototype here is what C says the function's type is. `printf` is not
//! declared: its `...` has no spelling in this C, and its format is checked
//! where it is called.

use crate::config::Config;

/// Every header `#include` finds.
pub const NAMES: [&str; 7] = ["assert.h", "limits.h", "stdbool.h", "stddef.h", "stdio.h", "stdlib.h", "iso646.h"];

/// The name under which the predefined macros are "included" (their origin in notes).
pub const PREDEFINED: &str = "the compiler";

/// The text of a header, by the name in `#include <name>`.
pub fn text(name: &str) -> Option<&'static str> {
    Some(match name {
        "stdio.h" => STDIO,
        "stdlib.h" => STDLIB,
        "stddef.h" => STDDEF,
        "stdbool.h" => STDBOOL,
        "limits.h" => LIMITS,
        "assert.h" => ASSERT,
        "iso646.h" => ISO646,
        _ => return None,
    })
}

/// `#define`s of the values C leaves to the implementation, for `config`.
pub fn predefined(config: Config) -> String {
    let bits = config.word_bits;
    let int_max = (1i64 << (bits - 1)) - 1;
    format!(
        "#define __STDC__ 1\n#define __STDC_VERSION__ 199901\n#define __STDC_HOSTED__ 0\n\
         #define __CHAR_BIT__ {bits}\n#define __INT_WIDTH__ {bits}\n#define __INT_MAX__ {int_max}\n\
         #define __SCHAR_MAX__ {int_max}\n#define __SIZEOF_INT__ 1\n"
    )
}

const STDIO: &str = "\
#ifndef _STDIO_H
#define _STDIO_H
/* Output goes to the Console. printf(format, ...) is a builtin whose format is a string literal. */
#define EOF (-1)
#define NULL 0
int putchar(int c);
int puts(char *s);
#endif
";

const STDLIB: &str = "\
#ifndef _STDLIB_H
#define _STDLIB_H
#define NULL 0
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
int abs(int x);
#endif
";

/// `size_t` is a macro for `int` until the compiler has `typedef` and unsigned types: sizes fit in a word.
const STDDEF: &str = "\
#ifndef _STDDEF_H
#define _STDDEF_H
#define NULL 0
#define size_t int
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

/// A `char` is a whole word here, as `int` is: both have the word's range.
const LIMITS: &str = "\
#ifndef _LIMITS_H
#define _LIMITS_H
#define CHAR_BIT __CHAR_BIT__
#define SCHAR_MAX __SCHAR_MAX__
#define SCHAR_MIN (-SCHAR_MAX - 1)
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define INT_MAX __INT_MAX__
#define INT_MIN (-INT_MAX - 1)
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
