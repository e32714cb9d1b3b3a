//! The C library the headers ship: functions written in C (the files next to this one),
//! compiled with the program like its own functions, so the machine executes them. A
//! function the program does not call generates no code (calls are inlined).

/// The steps `scanf` is compiled into (`compiler::scan`), part of `<stdio.h>`.
pub const SCANF: &str = include_str!("library/scanf.h");

/// The header that defines a library function (for "undefined function" hints).
pub fn declaring(name: &str) -> Option<&'static str> {
    Some(match name {
        "scanf" | "getchar" | "putchar" | "puts" | "printf" => "stdio.h",
        _ => return None,
    })
}
