//! The preprocessor on its own: the tokens it puts out, spelled back, and its diagnostics.

use super::preprocess;
use crate::compiler::lexer::Tok;
use crate::config::Config;
use crate::diag::Diagnostic;

fn run(src: &str) -> (String, Vec<Diagnostic>) {
    let mut sink = Vec::new();
    let pre = preprocess(src, Config::preset("compact16").unwrap(), &mut sink);
    let text: Vec<String> = pre
        .tokens
        .iter()
        .filter_map(|t| match &t.tok {
            Tok::Num(v, ..) => Some(v.to_string()),
            Tok::Char(v) => Some(v.to_string()),
            Tok::Ident(s) => Some(s.clone()),
            Tok::Str(b) => Some(format!("{:?}", String::from_utf8_lossy(b))),
            Tok::Punct(p) => Some(p.to_string()),
            Tok::Eof => None,
        })
        .collect();
    (text.join(" "), sink)
}

fn out(src: &str) -> String {
    let (text, diags) = run(src);
    assert!(diags.is_empty(), "{diags:?}");
    text
}

fn first_error(src: &str) -> String {
    let (_, diags) = run(src);
    diags.first().map(|d| d.message.clone()).unwrap_or_default()
}

#[test]
fn object_like_macros_are_not_parenthesised() {
    assert_eq!(out("#define N 1 + 2\nN * 2"), "1 + 2 * 2");
    assert_eq!(out("#define E\nE x E"), "x");
}

#[test]
fn function_like_macros_take_arguments() {
    assert_eq!(
        out("#define MAX(a, b) ((a) > (b) ? (a) : (b))\nMAX(x, f(1, 2))"),
        "( ( x ) > ( f ( 1 , 2 ) ) ? ( x ) : ( f ( 1 , 2 ) ) )"
    );
    // A name without `(` is not a call; `F (` with a space in the definition is object-like.
    assert_eq!(out("#define F(x) x\nF + F(1)"), "F + 1");
    assert_eq!(out("#define G (x) x\nG"), "( x ) x");
    assert_eq!(out("#define Z() 7\nZ()"), "7");
}

#[test]
fn hide_sets_stop_recursion() {
    assert_eq!(out("#define x x + 1\nx"), "x + 1");
    assert_eq!(out("#define a b\n#define b a\na b"), "a b");
    assert_eq!(out("#define f(x) x * g\n#define g f\nf(2)(9)"), "2 * f ( 9 )");
    // C99 6.10.3.5's example
    let src = "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n\
               #define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\nf(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);";
    assert_eq!(
        out(src),
        "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
         f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ;"
    );
}

#[test]
fn stringize_and_paste() {
    assert_eq!(out("#define S(x) #x\nS(a  +   \"b\\n\")"), "\"a + \\\"b\\\\n\\\"\"");
    assert_eq!(out("#define CAT(a, b) a ## b\nCAT(x, 1) CAT(, y) CAT(z, ) CAT(<, <=)"), "x1 y z <<=");
    let (_, d) = run("#define CAT(a, b) a ## b\nCAT(+, /)");
    assert!(d[0].message.contains("pasting `+` and `/`"), "{d:?}");
    // Pasted names are macros again; `#` of a pasted argument sees it unexpanded.
    assert_eq!(
        out("#define AB 5\n#define CAT(a, b) a ## b\n#define XS(x) S(x)\n#define S(x) #x\nCAT(A, B) XS(AB) S(AB)"),
        "5 \"5\" \"AB\""
    );
}

#[test]
fn variadic_macros() {
    assert_eq!(out("#define P(f, ...) printf(f, __VA_ARGS__)\nP(\"%d %d\", 1, 2)"), "printf ( \"%d %d\" , 1 , 2 )");
    assert_eq!(
        out("#define P(f, ...) printf(f , ## __VA_ARGS__)\nP(\"x\") P(\"%d\", 3)"),
        "printf ( \"x\" ) printf ( \"%d\" , 3 )"
    );
    assert!(first_error("#define F(x) __VA_ARGS__").contains("variadic"));
}

#[test]
fn conditionals() {
    let src = "#define A 2\n#if A > 1 && defined(A) && !defined B\nyes\n#elif 1/0\nno\n#else\nno\n#endif\n\
               #ifdef B\nno\n#elif A == 2\nelif\n#endif\n#ifndef B\nndef\n#endif\n#if 0\n#if 1/0\n#error no\n#endif\n#endif";
    assert_eq!(out(src), "yes elif ndef");
    assert_eq!(out("#if (1 ? 2 : 1/0) == 2 && -1 < 0 && (7 >> 1) == 3 && 'a' == 97 && UNKNOWN == 0\nok\n#endif"), "ok");
    assert_eq!(first_error("#if 1\n"), "unterminated conditional directive");
    assert_eq!(first_error("#endif"), "`#endif` without `#if`");
    assert_eq!(first_error("#if 2 / 0\n#endif"), "division by zero in `#if`");
    assert_eq!(first_error("#if\n#endif"), "`#if` needs an expression");
    // Whatever is in a skipped group, even a float or an apostrophe, is not an error.
    assert_eq!(out("#if 0\n1.5 don't\n#endif\nx"), "x");
}

#[test]
fn error_line_and_splice() {
    let (_, d) = run("#error stop \"here\" now\n");
    assert_eq!(d[0].message, "#error stop \"here\" now");
    assert_eq!(out("x __LINE__\n#define L __LINE__\n\nL"), "x 1 4");
    assert_eq!(out("#define LONG 1 + \\\n  2\nLONG /* a\n comment */ + 3"), "1 + 2 + 3");
}

#[test]
fn headers() {
    assert_eq!(out("#include <limits.h>\nINT_MAX INT_MIN CHAR_BIT UINT_MAX"), "32767 ( - 32767 - 1 ) 8 65535");
    let stdio = out("#include <stdio.h>\n#include \"stdio.h\"\nEOF NULL");
    assert!(stdio.starts_with("int putchar ( int c ) ; int puts ( char * s ) ; int getchar ( void ) ;"), "{stdio}");
    // The library's C comes once (the header's guard), then the user's tokens.
    assert_eq!(stdio.matches("int __scanf_end").count(), 1);
    assert!(stdio.ends_with("} ( - 1 ) 0"), "{stdio}");
    assert_eq!(out("#include <stdbool.h>\ntrue false bool"), "1 0 _Bool");
    let (_, d) = run("#include <math.h>");
    assert_eq!(d[0].message, "the header `math.h` does not exist here");
    assert_eq!((d[0].span.line, d[0].span.col, d[0].span.end_col), (1, 10, 18));
}

#[test]
fn spans_point_at_the_invocation() {
    let mut sink = Vec::new();
    let pre = preprocess("#define TWICE(x) (x + x)\nint y = TWICE(a);", Config::preset("compact").unwrap(), &mut sink);
    let spans: Vec<(u32, u32, u32)> = pre.tokens.iter().map(|t| (t.span.line, t.span.col, t.span.end_col)).collect();
    // `(` of the body spans the call; `a` is the argument's own token.
    assert_eq!(spans[3], (2, 9, 17));
    assert_eq!(spans[4], (2, 15, 16));
    assert_eq!(pre.expansions.len(), 1);
    assert_eq!(pre.expansions[0].origin, "on line 1");
}

#[test]
fn runaway_input_is_an_error_not_a_hang() {
    let mut src = String::from("#define A0 x x\n");
    for k in 1..40 {
        src += &format!("#define A{k} A{} A{}\n", k - 1, k - 1);
    }
    src += "A39";
    let e = first_error(&src);
    assert!(e.contains("too large"), "{e}");
    let deep = format!("#define F(x) x\n{}1{}", "F(".repeat(500), ")".repeat(500));
    assert!(first_error(&deep).contains("nest too deeply"));
    assert!(first_error("#define F(x) x\nF(1").contains("no closing"));
    assert!(first_error("#define F(x, y) x\nF(1)").contains("takes 2 argument(s) but 1"));
}
