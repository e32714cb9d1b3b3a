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

fn check_with(src: &str, config: &str, want: Expect) {
    let out = compile(src, Config::preset(config).unwrap());
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

            error: bit-fields are unsupported: every member is a whole word here
             --> prog.c:4:21
              |
            4 | struct f { int bits : 3; };
              |                     ^

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
fn function_pointers_are_checked() {
    check(
        "typedef int unary(int);\nint one(int x) { return x; }\nint two(int a, int b) { return a + b; }\nint main() {\n    int (*f)(int) = two;\n    int (*g)(int, int) = two;\n    int n = 3;\n    n(1);\n    g(1);\n    g = g + 1;\n    g++;\n    return f[0] + *one;\n}\n",
        expect![[r#"
            error: a `typedef` of a function type is unsupported: make it a pointer, `typedef int (*f)(int);`
             --> prog.c:1:18
              |
            1 | typedef int unary(int);
              |                  ^

            error: this initializer is `int (*)(int, int)` but `int (*)(int)` is expected
             --> prog.c:5:21
              |
            5 |     int (*f)(int) = two;
              |                     ^^^

            error: `n` is not a function or a function pointer
             --> prog.c:8:5
              |
            8 |     n(1);
              |     ^
              = note: its type is `int`

            error: this function pointer takes 2 argument(s) but 1 were given
             --> prog.c:9:5
              |
            9 |     g(1);
              |     ^^^^

            error: `+` cannot compute with a function pointer
              --> prog.c:10:9
               |
            10 |     g = g + 1;
               |         ^^^^^
               = note: a function pointer is compared or called

            error: a function pointer does not move: assign it another function
              --> prog.c:11:5
               |
            11 |     g++;
               |     ^^^

            error: a function pointer cannot be indexed: call it, `f(x)`
              --> prog.c:12:12
               |
            12 |     return f[0] + *one;
               |            ^
        "#]],
    );
}

#[test]
fn designators_and_structures_by_value_are_checked() {
    check(
        "struct p { int x; int y; };\nstruct p down(struct p a) {\n    if (a.x) return down(a);\n    return a;\n}\nint v[3] = {[3] = 1};\nstruct p q = {.z = 1, [0] = 2};\nint main() { return v[0] + q.x + down(q).y; }\n",
        expect![[r#"
            error: the recursive function `down` passes a `struct` by value
             --> prog.c:2:10
              |
            2 | struct p down(struct p a) {
              |          ^^^^
              = note: a recursive call saves one word per parameter and result
              = hint: pass a pointer: `struct NAME *p`, and use `p->member`

            error: index 3 is out of bounds for `v`, which has 3 elements
             --> prog.c:6:14
              |
            6 | int v[3] = {[3] = 1};
              |              ^

            error: `struct p` has no member `z`
             --> prog.c:7:16
              |
            7 | struct p q = {.z = 1, [0] = 2};
              |                ^

            error: `[…]` designates an array's element, but this is `struct p`
             --> prog.c:7:24
              |
            7 | struct p q = {.z = 1, [0] = 2};
              |                        ^
        "#]],
    );
}

#[test]
fn union_members_of_different_widths_are_refused() {
    check_with(
        "union bytes { int i; char c[4]; };\nunion ok { int i; unsigned u; };\nunion same { char a; char b; };\nint main() { union ok o = {.u = 1}; union bytes b; union same s; b.i = o.i; s.a = 1; return b.c[0] + s.b; }\n",
        "default32",
        expect![[r#"
            error: the union member `c` holds `char`, which cannot share storage with other types here
             --> prog.c:1:27
              |
            1 | union bytes { int i; char c[4]; };
              |                           ^
              = note: memory holds one value per slot, not bytes: members of different types share storage when every word of them is a full-width integer (`int`, `unsigned`, `long`, arrays and structures of them)
        "#]],
    );
}

#[test]
fn void_pointers_are_checked() {
    check(
        "int main() {\n    int x = 1;\n    void *p = &x;\n    char *c = (char *)&x;\n    int (*f)(void) = p;\n    p++;\n    return *p + p[0] + (p + 1 == p);\n}\n",
        expect![[r#"
            error: a cast from `int *` to `char *` is unsupported
             --> prog.c:4:15
              |
            4 |     char *c = (char *)&x;
              |               ^^^^^^^^^^
              = note: casts convert between integer types; memory holds one value per slot, not bytes, so pointers are not reinterpreted

            error: this initializer is `void *` but `int (*)(void)` is expected
             --> prog.c:5:22
              |
            5 |     int (*f)(void) = p;
              |                      ^

            error: a `void *` does not move: convert it to a typed pointer first
             --> prog.c:6:5
              |
            6 |     p++;
              |     ^^^

            error: a `void *` cannot be dereferenced: convert it to a typed pointer first
             --> prog.c:7:13
              |
            7 |     return *p + p[0] + (p + 1 == p);
              |             ^
              = hint: `*(int *)p`, or `int *q = p;`

            error: a `void *` cannot be indexed: convert it to a typed pointer first
             --> prog.c:7:17
              |
            7 |     return *p + p[0] + (p + 1 == p);
              |                 ^

            error: `+` cannot compute with a `void *`
             --> prog.c:7:25
              |
            7 |     return *p + p[0] + (p + 1 == p);
              |                         ^^^^^
              = hint: convert it to a typed pointer first: `(int *)p`
        "#]],
    );
}

#[test]
fn formats_and_buffers_are_checked() {
    check(
        "int main() {\n    int v[4];\n    char b[8];\n    char *f = \"%d\";\n    sprintf(v, \"%d\", 1);\n    int n = sprintf(b, \"%d\", 2);\n    printf(n ? \"%d\" : \"%s\", 3);\n    printf(f, 4);\n    return n;\n}\n",
        expect![[r#"
            error: the buffer is `int *` but `char *` is expected
             --> prog.c:5:13
              |
            5 |     sprintf(v, "%d", 1);
              |             ^

            error: `sprintf` returns no value here
             --> prog.c:6:13
              |
            6 |     int n = sprintf(b, "%d", 2);
              |             ^^^^^^^^^^^^^^^^^^^
              = hint: call `sprintf` as a statement of its own

            error: the formats `?:` chooses between must take the same arguments
             --> prog.c:7:23
              |
            7 |     printf(n ? "%d" : "%s", 3);
              |                       ^^^^

            error: `printf`'s format must be a string literal
             --> prog.c:8:12
              |
            8 |     printf(f, 4);
              |            ^
              = note: the format is converted when the program is compiled
              = hint: write it in place: `printf("%d\n", x)`
        "#]],
    );
}

#[test]
fn declarators_still_refused() {
    check(
        "int cmp;\nint sum(int n, ...) { return n; }\nstruct p { int x; };\nint main() {\n    struct p q;\n    q = (struct p){1};\n    return q.x;\n}\n",
        expect![[r#"
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
