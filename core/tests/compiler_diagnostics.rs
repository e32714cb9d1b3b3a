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
        error: `break` outside of a loop
         --> prog.c:2:5
          |
        2 |     break;
          |     ^^^^^
    "#]],
    );
}

#[test]
fn recursion_names_the_cycle() {
    check("int f(int n);\nint g(int n) { return f(n); }\nint f(int n) { return g(n - 1); }\nint main() { return f(3); }\n", expect![[r#"
        error: recursion is not supported: g → f → g
         --> prog.c:3:23
          |
        3 | int f(int n) { return g(n - 1); }
          |                       ^^^^^^^^
          = note: every call is inlined, so a function cannot call itself, even indirectly
          = hint: rewrite the recursion as a loop
    "#]]);
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
          = hint: use a configuration with 16-bit words for larger numbers
    "#]],
    );
}

#[test]
fn unsupported_c() {
    check(
        "int *p;\nstruct s { int a; };\nint main() {\n    unsigned u;\n    float f = 1.5;\n    int s = \"hi\";\n    switch (s) { }\n}\n",
        expect![[r#"
            error: pointers are unsupported; use arrays and indices
             --> prog.c:1:5
              |
            1 | int *p;
              |     ^

            error: `struct` is unsupported: there are no user-defined types
             --> prog.c:2:1
              |
            2 | struct s { int a; };
              | ^^^^^^

            error: `unsigned` is unsupported: the only types are `int` (an N-bit word) and `void`
             --> prog.c:4:5
              |
            4 |     unsigned u;
              |     ^^^^^^^^

            error: `float` is unsupported: the only types are `int` (an N-bit word) and `void`
             --> prog.c:5:5
              |
            5 |     float f = 1.5;
              |     ^^^^^

            error: floating-point numbers are unsupported
             --> prog.c:5:15
              |
            5 |     float f = 1.5;
              |               ^^^
              = note: the only type is `int`

            error: string literals are unsupported
             --> prog.c:6:13
              |
            6 |     int s = "hi";
              |             ^^^^
              = note: the only type is `int`

            error: `switch` is unsupported: use `if` / `else if`
             --> prog.c:7:5
              |
            7 |     switch (s) { }
              |     ^^^^^^
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
            error: the array `a` cannot be used as a value
             --> prog.c:4:9
              |
            4 |     s = a;
              |         ^
              = hint: index it: `a[i]`

            error: `s` is not an array
             --> prog.c:5:5
              |
            5 |     s[1] = 2;
              |     ^^^^
              = note: `s` here is the global declared on line 2

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
            error: the program does not fit: it needs 33 memory slots (`small` has 32)
             --> prog.c:1:1
              |
            1 | int big[32];
              | ^
              = note: memory: 32 for globals, 1 for constants, 0 for locals and temporaries
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
fn no_library_and_no_labels() {
    check(
        "int main() {\n    int x = sizeof(x);\nagain:\n    printf(x);\n    x = x + 1;\n}\n",
        expect![[r#"
            error: `sizeof` is unsupported
             --> prog.c:2:13
              |
            2 |     int x = sizeof(x);
              |             ^^^^^^

            error: labels are unsupported (there is no `goto`): use loops with `break` and `continue`
             --> prog.c:3:1
              |
            3 | again:
              | ^^^^^

            error: undefined function `printf`
             --> prog.c:4:5
              |
            4 |     printf(x);
              |     ^^^^^^^^^
              = note: there is no C library: the builtins are abs, min, max, assert and frame
              = hint: keep results in global variables: the page shows them and can write them
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
          = note: only variables and array elements can be assigned
    "#]],
    );
}
