//! The C library the headers ship: functions written in C (the files next to this one),
//! compiled with the program like its own functions, so the machine executes them. A
//! function the program does not call generates no code (calls are inlined).

/// The steps `scanf` is compiled into (`compiler::scan`), part of `<stdio.h>`.
pub const SCANF: &str = include_str!("library/scanf.h");
/// `<string.h>`'s functions.
pub const STRING: &str = include_str!("library/string.h");
/// `<ctype.h>`'s functions.
pub const CTYPE: &str = include_str!("library/ctype.h");
/// `<stdlib.h>`'s functions written in C (`abs` and `exit` are builtins).
pub const STDLIB: &str = include_str!("library/stdlib.h");

/// The header that defines a library function (for "undefined function" hints).
pub fn declaring(name: &str) -> Option<&'static str> {
    Some(match name {
        "scanf" | "getchar" | "putchar" | "puts" | "printf" | "sprintf" | "snprintf" => "stdio.h",
        "strlen" | "strcmp" | "strncmp" | "strcpy" | "strncpy" | "strcat" | "strchr" | "strrchr" | "strstr"
        | "memset" | "memcpy" | "memcmp" => "string.h",
        "isdigit" | "isupper" | "islower" | "isalpha" | "isalnum" | "isxdigit" | "isspace" | "isblank" | "iscntrl"
        | "isprint" | "isgraph" | "ispunct" | "toupper" | "tolower" => "ctype.h",
        "atoi" | "rand" | "srand" | "exit" | "abs" => "stdlib.h",
        _ => return None,
    })
}
