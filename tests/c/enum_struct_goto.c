// Issue 31's features together: an enum typedef in a struct table run by a recursive
// interpreter with a static local, goto into and out of blocks, the comma operator in a
// loop's condition, struct copies through pointers, const/register/volatile, a local extern.
// config: large16
// expect: zero = 0
// output: "run -10\ntotal 9\ni 9 j 7 total 13\nops 4 3 1 5\nk 200 r 300 v 300 0\ndone 3\n"
#include <stdio.h>
int zero;
enum op { ADD = 1, SUB, MUL = SUB * 2, NEG = -1 };
typedef enum op op_t;
struct item { op_t op; int arg; };
struct item prog[5] = {{ADD, 5}, {MUL, 3}, {SUB, 4}, {NEG, 0}, {ADD, 1}};
int run(int k, int acc) {
    static int depth;
    depth++;
    if (k == 5) return acc;
    switch (prog[k].op) {
    case ADD: acc += prog[k].arg; break;
    case SUB: acc -= prog[k].arg; break;
    case MUL: acc *= prog[k].arg; break;
    case NEG: acc = -acc; break;
    }
    return run(k + 1, acc);
}
int depth_of(void) { extern int zero; return zero; }
int main() {
    int i = 0, j, total = 0;
    printf("run %d\n", run(0, 0));
    {
        int inner = 5;
    back:
        inner--;
        total += inner;
        if (inner > 2) goto back;
    }
    printf("total %d\n", total);
    for (i = 0, j = 10; (total++, i < j); i += 3, j -= 1)
        ;
    printf("i %d j %d total %d\n", i, j, total);
    struct item a = prog[1], *p = &prog[2];
    *p = a;
    prog[3] = *p;
    printf("ops %d %d %d %d\n", prog[2].op, prog[3].arg, (int)sizeof(op_t) / (int)sizeof(int), (int)sizeof prog / (int)sizeof prog[0]);
    const unsigned char k = 200;
    register int r = k + 100;
    volatile int v = r;
    printf("k %d r %d v %d %d\n", k, r, v, depth_of());
    int n = 3;
    goto skip;
    n = 100;
skip:
    if (n == 3) goto done;
    printf("not reached\n");
done:
    printf("done %d\n", n);
    return 0;
}
