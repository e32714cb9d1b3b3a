//! Located errors for what issue 31's types, storage classes and control flow refuse
//! or get wrong, rendered as the CLI shows them. Refresh with
//! `UPDATE_EXPECT=1 cargo test -p loom-core --test compiler_types`.

use expect_test::{expect, Expect};
use loom_core::compiler::compile;
use loom_core::diag::render_all;
use loom_core::Config;

fn check(src: &str, want: Expect) {
    let out = compile(src, Config::preset("compact16").unwrap());
    assert!(out.program.is_none(), "expected errors");
    want.assert_eq(&render_all(&out.diagnostics, "prog.c", src));
}

#[test]
fn const_objects_are_not_written() {
    check(
        "const int n = 3;\nint main() {\n    const int v[2] = {1, 2};\n    int *const p = v;\n    n = 4;\n    v[1]++;\n    p = 0;\n    return 0;\n}\n",
        expect![[r#"
            error: `n` is `const`: it cannot be assigned
             --> prog.c:5:5
              |
            5 |     n = 4;
              |     ^
              = note: it is declared `const` on line 1

            error: `v` is `const`: it cannot be assigned
             --> prog.c:6:5
              |
            6 |     v[1]++;
              |     ^^^^
              = note: it is declared `const` on line 3

            error: `p` is `const`: it cannot be assigned
             --> prog.c:7:5
              |
            7 |     p = 0;
              |     ^
              = note: it is declared `const` on line 4
        "#]],
    );
}

#[test]
fn goto_needs_its_label_once() {
    check(
        "int main() {\n    goto nowhere;\ntwice:\n    ;\ntwice:\n    return 0;\n}\n",
        expect![[r#"
            error: the label `nowhere` is not defined in `main`
             --> prog.c:2:5
              |
            2 |     goto nowhere;
              |     ^^^^^^^^^^^^

            error: the label `twice` is defined twice
             --> prog.c:5:1
              |
            5 | twice:
              | ^^^^^
              = note: the first is on line 3
        "#]],
    );
}

#[test]
fn extern_needs_a_definition() {
    check(
        "extern int g;\nint main() {\n    extern int h;\n    return g + h;\n}\n",
        expect![[r#"
        error: `g` is declared `extern` but not defined
         --> prog.c:1:12
          |
        1 | extern int g;
          |            ^
          = note: a program is one file: define the variable at the top level (`int g;`)

        error: `h` is declared `extern` but not defined
         --> prog.c:3:16
          |
        3 |     extern int h;
          |                ^
          = note: a program is one file: define the variable at the top level (`int g;`)
    "#]],
    );
}

#[test]
fn enum_and_typedef_limits() {
    check(
        "enum e { A = sizeof(int), B };\ntypedef int row[4];\nint main() {\n    enum f x;\n    row *p;\n    return 0;\n}\n",
        expect![[r#"
            error: an enumerator's value may use `int` constants, enumeration constants and operators only
             --> prog.c:1:14
              |
            1 | enum e { A = sizeof(int), B };
              |              ^^^^^^^^^^^

            error: `enum f` is not defined
             --> prog.c:4:5
              |
            4 |     enum f x;
              |     ^^^^^^

            error: a pointer to an array type is unsupported: point to its first element instead
             --> prog.c:5:10
              |
            5 |     row *p;
              |          ^
        "#]],
    );
}

#[test]
fn storage_classes_where_c_refuses_them() {
    check(
        "int f(static int x) { return x; }\nint main() {\n    for (static int i = 0; i < 2; i++) {}\n    static int k = f(1);\n    return k;\n}\n",
        expect![[r#"
            error: a parameter has no storage class other than `register`
             --> prog.c:1:7
              |
            1 | int f(static int x) { return x; }
              |       ^^^^^^^^^^

            error: a `for` loop's declaration is `auto` or `register`, as in C
             --> prog.c:3:10
              |
            3 |     for (static int i = 0; i < 2; i++) {}
              |          ^^^^^^

            error: undefined function `f`
             --> prog.c:4:20
              |
            4 |     static int k = f(1);
              |                    ^^^^

            error: a `static` local's initializer must be a constant expression
             --> prog.c:4:20
              |
            4 |     static int k = f(1);
              |                    ^^^^
              = note: only numbers, `#define` names and operators on them are allowed here
        "#]],
    );
}

#[test]
fn structures_are_refused() {
    check(
        "struct point { int x; int y; };\nunion u { int a; };\nint main() { return 0; }\n",
        expect![[r#"
        error: `struct` is unsupported: there are no structures; use parallel arrays (`int x[N], y[N];`)
         --> prog.c:1:1
          |
        1 | struct point { int x; int y; };
          | ^^^^^^

        error: `union` is unsupported: there are no structures; use parallel arrays (`int x[N], y[N];`)
         --> prog.c:2:1
          |
        2 | union u { int a; };
          | ^^^^^
    "#]],
    );
}
