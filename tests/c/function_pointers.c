// Function pointers: declared (`int (*f)(int, int)`), assigned a function's name or its
// address, called as `f(a, b)` and `(*f)(a, b)`, in a table of operations, passed as a
// callback, a `typedef` of the pointer type, a member of a structure, compared with NULL
// and with each other, and a recursion through a pointer.
// config: default32
// oracle: gcc
// output: "ops 12 4 32 2\ncall 7 7 -1\nsort 1 2 3 5 8 9\nsort 9 8 5 3 2 1\nnull 1 0 1\nsame 1 0\ncalc 19\nfact 720\napply 11 20\n"
// expect: calls = 3
#include <stdio.h>
#include <stddef.h>

typedef int (*binop)(int, int);
int calls;

int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
int quot(int a, int b) { return a / b; }
int ascending(int a, int b) { return a - b; }
int descending(int a, int b) { return b - a; }
void count(void) { calls++; }

binop table[4] = {add, sub, &mul, quot};

void sort(int *v, int n, int (*cmp)(int, int)) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && cmp(v[j - 1], v[j]) > 0; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

void show(const char *what, int *v, int n) {
    printf("%s", what);
    for (int i = 0; i < n; i++) printf(" %d", v[i]);
    printf("\n");
}

struct calculator {
    binop op;
    int arg;
};

int run(struct calculator *c, int x) { return c->op(x, c->arg); }

int fact(int n);
int (*again)(int) = fact;
int fact(int n) { return n <= 1 ? 1 : n * again(n - 1); }

int twice(int (*f)(int), int x) { return f(f(x)); }
int inc(int x) { return x + 1; }
int dbl(int x) { return x * 2; }

int main(void) {
    printf("ops %d %d %d %d\n", table[0](8, 4), table[1](8, 4), (*table[2])(8, 4), table[3](8, 4));
    int (*f)(int, int) = add;
    binop g = &sub;
    int a = f(3, 4), b = (*f)(3, 4);
    f = g;
    printf("call %d %d %d\n", a, b, f(3, 4));
    int v[6] = {5, 2, 9, 1, 8, 3};
    sort(v, 6, ascending);
    show("sort", v, 6);
    sort(v, 6, &descending);
    show("sort", v, 6);
    binop none = NULL;
    void (*tick)(void) = count;
    printf("null %d %d %d\n", none == NULL, tick == NULL, !none);
    printf("same %d %d\n", f == sub, f == table[0]);
    for (int i = 0; i < 3; i++) tick();
    struct calculator c = {mul, 3};
    struct calculator d;
    d.op = add;
    d.arg = run(&c, 5);
    printf("calc %d\n", run(&d, 4));
    printf("fact %d\n", fact(6));
    int k = 0;
    for (int i = 0; i < 2; i++) k += twice(i ? dbl : inc, 5 * i + 4);
    printf("apply %d %d\n", twice(inc, 9), twice(dbl, 5));
    return k == 6 + 36 ? 0 : 1;
}
