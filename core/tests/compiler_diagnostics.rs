//! One snapshot per class of compiler diagnostic, rendered as the CLI shows
//! it. Refresh with `UPDATE_EXPECT=1 cargo test -p loom-core --test compiler_diagnostics`.

use expect_test::{expect, Expect};
use loom_core::compiler::compile;
use loom_core::diag::render_all;
use loom_core::Config;

fn check(src: &str, want: Expect) {
    check_with(src, "compact", want)
}

fn check_with(src: &str, config: &str, want: Expect) {
    let out = compile(src, Config::preset(config).unwrap());
    assert!(out.program.is_none(), "expected errors");
    want.assert_eq(&render_all(&out.diagnostics, "prog.c", src));
}

#[test]
fn undefined_variable() {
    check(
        "int main() {\n    int x = y + 1;\n}\n",
        expect![[r#"
        error: undefined variable `y`
         --> prog.c:2:13
          |
        2 |     int x = y + 1;
          |             ^
          = hint: declare it first: `int y;`
    "#]],
    );
}

#[test]
fn break_outside_a_loop() {
    check(
        "int main() {\n    break;\n}\n",
        expect![[r#"
            error: `break` outside of a loop or `switch`
             --> prog.c:2:5
              |
            2 |     break;
              |     ^^^^^
        "#]],
    );
}

#[test]
fn recursion_limits_are_located() {
    check(
        "int f(int n) {\n    int x = n;\n    int *p = &x;\n    return n ? f(n - 1) + *p : 0;\n}\nint main() { return f(3); }\n",
        expect![[r#"
            error: the address of a local of a recursive function cannot be taken
             --> prog.c:3:10
              |
            3 |     int *p = &x;
              |          ^
              = note: each call of a recursive function saves its caller's locals and restores them after
              = hint: make the variable global, or pass its value
        "#]],
    );
    check(
        "int main() {\n    return main();\n}\n",
        expect![[r#"
        error: `main` cannot be called
         --> prog.c:2:12
          |
        2 |     return main();
          |            ^^^^^^
          = note: `main` runs once, when the program starts; it is not recursive
    "#]],
    );
}

/// A diagnostic on a very long line shows a window around the caret, not the whole line.
#[test]
fn long_lines_are_windowed() {
    let long = format!("int main() {{ int x = 1{} + y; }}\n", " + 1".repeat(3000));
    let out = compile(&long, Config::preset("compact").unwrap());
    let text = loom_core::diag::render_all(&out.diagnostics, "prog.c", &long);
    assert!(text.contains("undefined variable `y`"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() < 140), "{text}");
    let (shown, caret) = (text.lines().nth(3).unwrap(), text.lines().nth(4).unwrap());
    let at = caret.find('^').unwrap();
    assert_eq!(shown.chars().nth(at), Some('y'), "{text}");
}

/// A flat chain is not nesting: 10,000 terms compile, and fold to the right value.
#[test]
fn long_flat_chains_compile() {
    let src = format!(
        "int a, b;\nint main() {{ int x = 1; a = 1{}; b = x{}; return 0; }}\n",
        " + 1".repeat(9_999),
        " - x + 2".repeat(400)
    );
    let out = compile(&src, Config::preset("large").unwrap());
    let prog = out.program.unwrap_or_else(|| panic!("{:?}", out.diagnostics));
    let mut m = loom_core::Interp::new(&prog).unwrap();
    loom_core::Engine::run(&mut m, 1_000_000, None);
    // Slot 0 is NULL's; the globals start at 1.
    assert_eq!((m.mem()[1], m.mem()[2]), (10_000i32 as i8 as i32, 401i32 as i8 as i32));
}

#[test]
fn literal_too_large() {
    check(
        "int main() {\n    int x = 200;\n}\n",
        expect![[r#"
            error: the literal 200 does not fit in an 8-bit int
             --> prog.c:2:13
              |
            2 |     int x = 200;
              |             ^^^
              = note: 8-bit ints range from -128 to 127
              = hint: use a configuration with 16-bit words: `compact16`, `default16`, `large16`
        "#]],
    );
}

#[test]
fn unsupported_c() {
    check(
        "struct s { int a; };\nint main() {\n    unsigned u;\n    float f = 1.5;\n    int *p = malloc(4);\n    goto end;\n}\n",
        expect![[r#"
            error: `float` is unsupported: there are no floating-point numbers; use integers (scaled, e.g. cents)
             --> prog.c:4:5
              |
            4 |     float f = 1.5;
              |     ^^^^^

            error: floating-point numbers are unsupported
             --> prog.c:4:15
              |
            4 |     float f = 1.5;
              |               ^^^
              = note: the types are integers

            error: undefined function `malloc`
             --> prog.c:5:14
              |
            5 |     int *p = malloc(4);
              |              ^^^^^^^^^
              = note: there is no heap: the library is listed in the Help panel (BUILTINS.md)
              = hint: use fixed-size arrays

            error: the label `end` is not defined in `main`
             --> prog.c:6:5
              |
            6 |     goto end;
              |     ^^^^^^^^
        "#]],
    );
}

#[test]
fn missing_semicolon() {
    check(
        "int main() {\n    int x = 1\n    x = 2;\n}\n",
        expect![[r#"
        error: expected `;`, found `x`
         --> prog.c:2:14
          |
        2 |     int x = 1
          |              ^
    "#]],
    );
}

#[test]
fn arrays_and_scalars_mixed_up() {
    check(
        "int a[4];\nint s;\nint main() {\n    s = a;\n    s[1] = 2;\n    a[4] = 1;\n}\n",
        expect![[r#"
            error: this value is `int *` but `int` is expected
             --> prog.c:4:9
              |
            4 |     s = a;
              |         ^
              = hint: dereference it: `*p`, `p[i]`

            error: `s` is not an array or a pointer
             --> prog.c:5:5
              |
            5 |     s[1] = 2;
              |     ^
              = note: its type is `int`

            error: index 4 is out of bounds for `a`, which has 4 elements
             --> prog.c:6:7
              |
            6 |     a[4] = 1;
              |       ^
        "#]],
    );
}

#[test]
fn calls_with_wrong_arguments_or_no_value() {
    check(
        "void f(int a) { return a; }\nint g() { return; }\nint main() {\n    int x = f(1);\n    g(2);\n    h();\n}\n",
        expect![[r#"
            error: `f` is `void` and cannot return a value
             --> prog.c:1:24
              |
            1 | void f(int a) { return a; }
              |                        ^
              = hint: declare it `int` or write `return;`

            error: `g` returns `int`: `return` needs a value
             --> prog.c:2:11
              |
            2 | int g() { return; }
              |           ^^^^^^
              = hint: write `return 0;` or declare the function `void`

            error: `f` returns no value
             --> prog.c:4:13
              |
            4 |     int x = f(1);
              |             ^^^^

            error: `g` takes 0 argument(s) but 1 were given
             --> prog.c:5:5
              |
            5 |     g(2);
              |     ^^^^

            error: undefined function `h`
             --> prog.c:6:5
              |
            6 |     h();
              |     ^^^
        "#]],
    );
}

#[test]
fn program_too_large_names_a_configuration_that_fits() {
    check_with(
        "int big[32];\nint main() { big[31] = 1; }\n",
        "small",
        expect![[r#"
            error: the program does not fit: it needs 34 memory slots (`small` has 32)
             --> prog.c:1:1
              |
            1 | int big[32];
              | ^
              = note: memory: 1 for NULL, 32 for globals, 1 for constants, 0 for locals and temporaries
              = hint: the `compact` configuration fits (compact (146×512, N = 8, m = 160, 320 instruction slots))
        "#]],
    );
}

#[test]
fn array_larger_than_memory() {
    check_with(
        "int main() {\n    int a[100];\n}\n",
        "default",
        expect![[r#"
        error: the array `a` needs 100 slots but memory has 64
         --> prog.c:2:11
          |
        2 |     int a[100];
          |           ^^^
          = hint: the `compact` configuration has 160 memory slots
    "#]],
    );
}

#[test]
fn output_mistakes_are_located() {
    check(
        "#include <stdio.h>\n#include <math.h>\nint v[2];\nint main() {\n    int f = 3;\n    printf(\"%d %q\\n\", f);\n    printf(\"%d %d\\n\", f);\n    printf(f);\n    printf(\"%s\", f);\n    puts(\"a\", \"b\");\n    f = putchar(65);\n    printf(\"%5.2d\", f);\n    puts(v);\n}\n",
        expect![[r#"
            error: the header `math.h` does not exist here
             --> prog.c:2:10
              |
            2 | #include <math.h>
              |          ^^^^^^^^
              = note: the playground's headers: assert.h, ctype.h, limits.h, stdbool.h, stddef.h, stdint.h, stdio.h, stdlib.h, string.h, iso646.h

            error: the conversion `%q` is unsupported
             --> prog.c:6:12
              |
            6 |     printf("%d %q\n", f);
              |            ^^^^^^^^^
              = hint: conversions: %d %i %u %x %X %c %s and %%, with an optional `-` or `0` flag, a width (`%3d`, `%-4s`, `%02x`) and for numbers a length `hh`, `h`, `l` or `z` (`%hhu`, `%ld`)

            error: the format asks for 2 argument(s) but 1 were given
             --> prog.c:7:5
              |
            7 |     printf("%d %d\n", f);
              |     ^^^^^^^^^^^^^^^^^^^^

            error: `printf`'s format must be a string literal
             --> prog.c:8:12
              |
            8 |     printf(f);
              |            ^
              = note: the format is converted when the program is compiled
              = hint: write it in place: `printf("%d\n", x)`

            error: the string is `int` but `char *` is expected
             --> prog.c:9:18
              |
            9 |     printf("%s", f);
              |                  ^
              = hint: take an address with `&x`, or pass an array by its name

            error: `puts` takes one argument but 2 were given
              --> prog.c:10:5
               |
            10 |     puts("a", "b");
               |     ^^^^^^^^^^^^^^

            error: `putchar` returns no value here
              --> prog.c:11:9
               |
            11 |     f = putchar(65);
               |         ^^^^^^^^^^^
               = hint: call `putchar` as a statement of its own

            error: a precision (`%5.…`) is unsupported
              --> prog.c:12:12
               |
            12 |     printf("%5.2d", f);
               |            ^^^^^^^
               = hint: conversions: %d %i %u %x %X %c %s and %%, with an optional `-` or `0` flag, a width (`%3d`, `%-4s`, `%02x`) and for numbers a length `hh`, `h`, `l` or `z` (`%hhu`, `%ld`)

            error: the string is `int *` but `char *` is expected
              --> prog.c:13:10
               |
            13 |     puts(v);
               |          ^
        "#]],
    );
}

#[test]
fn no_library_and_no_labels() {
    check(
        "int main() {\n    int x = 0;\nagain:\n    scanf(x);\n    x = x + 1;\n}\n",
        expect![[r#"
            error: scanf's format must be a string literal
             --> prog.c:4:11
              |
            4 |     scanf(x);
              |           ^
              = hint: scanf's conversions are %d, %u, %x, %c and %s, each with an optional width (`%3d`, `%9s`); spaces in the format skip white space, other characters must match, `%%` matches `%`
        "#]],
    );
}

#[test]
fn no_main() {
    check(
        "int x;\n",
        expect![[r#"
        error: the program has no `main` function
         --> prog.c:1:1
          |
        1 | int x;
          | ^
          = hint: add `int main() { … }`: execution starts there
    "#]],
    );
}

#[test]
fn redeclaration_and_assignment_to_non_lvalue() {
    check(
        "int main() {\n    int x;\n    int x;\n    x + 1 = 3;\n    (x) = 4;\n}\n",
        expect![[r#"
            error: `x` is already declared in this scope
             --> prog.c:3:9
              |
            3 |     int x;
              |         ^
              = note: the first declaration is on line 2

            error: this cannot be assigned to
             --> prog.c:4:5
              |
            4 |     x + 1 = 3;
              |     ^^^^^
              = note: only variables, array elements and `*p` can be assigned
        "#]],
    );
}

#[test]
fn an_array_size_too_wide_for_a_word_is_one_error() {
    // The literal is reported where it is read; the size it leaves (0) is not reported again.
    check(
        "int big[5000];\nint main() {\n    return 0;\n}\n",
        expect![[r#"
            error: the literal 5000 does not fit in an 8-bit int
             --> prog.c:1:9
              |
            1 | int big[5000];
              |         ^^^^
              = note: 8-bit ints range from -128 to 127
              = hint: use a configuration with 16-bit words: `compact16`, `default16`, `large16`
        "#]],
    );
}

#[test]
fn integer_types_wider_than_the_machine() {
    check(
        "int main() {\n    int16_t a = 1;\n    long long b;\n    unsigned c = 300u;\n    int *p = (int *)c;\n}\n",
        expect![[r#"
            error: `int16_t` needs 16-bit words; this machine's are 8 bits
             --> prog.c:2:5
              |
            2 |     int16_t a = 1;
              |     ^^^^^^^
              = hint: use a configuration with 16-bit words: `compact16`, `default16`, `large16`

            error: `long long` is unsupported: it needs 64 bits
             --> prog.c:3:5
              |
            3 |     long long b;
              |     ^^^^^^^^^
              = note: words are at most 32 bits wide; `long` is 32 bits

            error: the literal 300 does not fit in an 8-bit `unsigned int`
             --> prog.c:4:18
              |
            4 |     unsigned c = 300u;
              |                  ^^^^
              = note: 8-bit `unsigned int`s range from 0 to 255
              = hint: use a configuration with 16-bit words: `compact16`, `default16`, `large16`

            error: a cast from `unsigned int` to `int *` is unsupported
             --> prog.c:5:14
              |
            5 |     int *p = (int *)c;
              |              ^^^^^^^^
              = note: casts convert between integer types; memory holds one value per slot, not bytes, so pointers are not reinterpreted
        "#]],
    );
}

/// A type or constant wider than the word names the configurations that hold it, read from
/// the presets: those with the narrowest words wide enough, or none.
#[test]
fn too_wide_names_the_presets_that_fit() {
    for (config, src) in [("compact", "int32_t x;\nint main() {}\n"), ("compact16", "int main() { return 100000; }\n")]
    {
        let out = compile(src, Config::preset(config).unwrap());
        let hint = out.diagnostics.iter().find_map(|d| d.hint.clone()).expect("a hint");
        let wide: Vec<_> = loom_core::config::PRESETS.iter().filter(|c| c.word_bits == 32).collect();
        if wide.is_empty() {
            assert!(hint.contains("no configuration has 32-bit words"), "{hint}");
        } else {
            assert!(wide.iter().all(|c| hint.contains(&format!("`{}`", c.name))), "{hint}");
        }
    }
}

#[test]
fn errors_inside_a_macro_point_at_its_use() {
    check(
        "#define SCALE(x) ((x) * factor)\n#define TWICE(x) ((x) + (x))\nint main() {\n    int a = SCALE(2);\n    int b = TWICE(zz);\n    return a + b;\n}\n",
        expect![[r#"
            error: undefined variable `factor`
             --> prog.c:4:13
              |
            4 |     int a = SCALE(2);
              |             ^^^^^^^^
              = note: in the expansion of macro `SCALE` (defined on line 1)
              = hint: declare it first: `int factor;`

            error: undefined variable `zz`
             --> prog.c:5:19
              |
            5 |     int b = TWICE(zz);
              |                   ^^
              = note: in the expansion of macro `TWICE` (defined on line 2)
              = hint: declare it first: `int zz;`
        "#]],
    );
}

#[test]
fn preprocessor_errors_are_located() {
    check(
        "#include <math.h>\n#define F(a, b) a\nint x = F(1);\n#if 1 / 0\n#endif\n#ifdef\n#endif\n#error this build needs 32-bit words\nint main() {\n#if 1\n}\n",
        expect![[r#"
            error: the header `math.h` does not exist here
             --> prog.c:1:10
              |
            1 | #include <math.h>
              |          ^^^^^^^^
              = note: the playground's headers: assert.h, ctype.h, limits.h, stdbool.h, stddef.h, stdint.h, stdio.h, stdlib.h, string.h, iso646.h

            error: macro `F` takes 2 argument(s) but 1 were given
             --> prog.c:3:9
              |
            3 | int x = F(1);
              |         ^^^^
              = note: it is `F(a, b)`

            error: expected an expression, found `;`
             --> prog.c:3:13
              |
            3 | int x = F(1);
              |             ^

            error: division by zero in `#if`
             --> prog.c:4:7
              |
            4 | #if 1 / 0
              |       ^

            error: `#ifdef` needs exactly one macro name
             --> prog.c:6:1
              |
            6 | #ifdef
              | ^^^^^^

            error: #error this build needs 32-bit words
             --> prog.c:8:1
              |
            8 | #error this build needs 32-bit words
              | ^^^^^^

            error: unterminated conditional directive
              --> prog.c:10:1
               |
            10 | #if 1
               | ^^^
               = hint: close it with `#endif`
        "#]],
    );
}

#[test]
fn scanf_needs_stdio_and_a_pointer_per_conversion() {
    check(
        "int main() {\n    int n;\n    scanf(\"%d\", &n);\n}\n",
        expect![[r#"
            error: undefined function `scanf`
             --> prog.c:3:5
              |
            3 |     scanf("%d", &n);
              |     ^^^^^^^^^^^^^^^
              = hint: `scanf` is in <stdio.h>: add `#include <stdio.h>`
        "#]],
    );
    check(
        "#include <stdio.h>\nint main() {\n    int n;\n    char c;\n    scanf(\"%d %d\", &c, n);\n    scanf(\"%d\");\n    scanf(\"%5f\", &n);\n}\n",
        expect![[r#"
            error: scanf's argument for this conversion is `char *` but `int *` is expected
             --> prog.c:5:20
              |
            5 |     scanf("%d %d", &c, n);
              |                    ^^

            error: scanf's argument for this conversion is `int` but `int *` is expected
             --> prog.c:5:24
              |
            5 |     scanf("%d %d", &c, n);
              |                        ^
              = hint: take an address with `&x`, or pass an array by its name

            error: scanf's format has 1 conversion but 0 arguments follow
             --> prog.c:6:5
              |
            6 |     scanf("%d");
              |     ^^^^^^^^^^^
              = hint: pass one pointer per conversion: `scanf("%d", &n)`

            error: `%f` is not a conversion scanf supports here
             --> prog.c:7:11
              |
            7 |     scanf("%5f", &n);
              |           ^^^^^
              = hint: scanf's conversions are %d, %u, %x, %c and %s, each with an optional width (`%3d`, `%9s`); spaces in the format skip white space, other characters must match, `%%` matches `%`
        "#]],
    );
}
