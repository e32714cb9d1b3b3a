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
fn what_structures_refuse() {
    check(
        "struct p { int x; int y; };\nstruct p g1, g2 = g1;\nunion u { int a; };\nstruct f { int bits : 3; };\nstruct p make(void) { struct p r; return r; }\nint take(struct p v) { return v.x; }\nint main() {\n    struct p a = {1, 2};\n    struct p b = a;\n    struct p c = {.x = 1};\n    struct q *z;\n    struct q w;\n    a.z = 1;\n    a + 1;\n    if (a) a = a;\n    return z->x;\n}\n",
        expect![[r#"
            error: initialize this `struct p` with a list of constants: `{1, 2}`
             --> prog.c:2:19
              |
            2 | struct p g1, g2 = g1;
              |                   ^^
              = note: only a local structure may be initialized from another (it is copied)

            error: `union` is unsupported: memory holds one value per slot, so members cannot share storage; use a `struct`
             --> prog.c:3:1
              |
            3 | union u { int a; };
              | ^^^^^

            error: bit-fields are unsupported: every member is a whole word here
             --> prog.c:4:21
              |
            4 | struct f { int bits : 3; };
              |                     ^

            error: returning a `struct` by value is unsupported: fill one through a pointer
             --> prog.c:5:1
              |
            5 | struct p make(void) { struct p r; return r; }
              | ^^^^^^^^

            error: the returned value is `struct p` but `int` is expected
             --> prog.c:5:42
              |
            5 | struct p make(void) { struct p r; return r; }
              |                                          ^

            error: passing a `struct` by value is unsupported: `v`
             --> prog.c:6:19
              |
            6 | int take(struct p v) { return v.x; }
              |                   ^
              = hint: pass a pointer: `struct NAME *p`, and use `p->member`

            error: designated initializers (`.x = 1`, `[2] = 5`) are unsupported: give the values in order
              --> prog.c:10:19
               |
            10 |     struct p c = {.x = 1};
               |                   ^

            error: `w` is a `struct q`, which has no members yet
              --> prog.c:12:14
               |
            12 |     struct q w;
               |              ^
               = hint: define it first: `struct q { int x; };`

            error: `struct p` has no member `z`
              --> prog.c:13:5
               |
            13 |     a.z = 1;
               |     ^^^

            error: a `struct p` cannot be used here: use one of its members
              --> prog.c:14:5
               |
            14 |     a + 1;
               |     ^

            error: a `struct p` cannot be used here: use one of its members
              --> prog.c:15:9
               |
            15 |     if (a) a = a;
               |         ^

            error: `struct q` has no members yet
              --> prog.c:16:12
               |
            16 |     return z->x;
               |            ^^^^
        "#]],
    );
}

#[test]
fn declarators_still_refused() {
    check(
        "int (*cmp)(int, int);\nint sum(int n, ...) { return n; }\nstruct p { int x; };\nint main() {\n    struct p q;\n    q = (struct p){1};\n    return q.x;\n}\n",
        expect![[r#"
            error: function pointers (`int (*f)(int)`) are unsupported: call functions by name
             --> prog.c:1:5
              |
            1 | int (*cmp)(int, int);
              |     ^
              = hint: choose the function with a `switch` on a number

            error: variadic functions (`...`) are unsupported: pass an array and its length
             --> prog.c:2:16
              |
            2 | int sum(int n, ...) { return n; }
              |                ^^^

            error: compound literals (`(struct p){1, 2}`) are unsupported: declare a variable
             --> prog.c:6:9
              |
            6 |     q = (struct p){1};
              |         ^^^^^^^^^^^
        "#]],
    );
}
