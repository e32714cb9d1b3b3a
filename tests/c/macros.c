// The preprocessor's macros: function-like with arguments, C's rescanning
// rules (a macro never expands inside itself), `#` and `##`, variadic, __LINE__.
// output: "max 7 min -2\nsq 5 9\nabs 4 4\nx + y = 12\nv1 v2 30\ncount 8\nline 33\nsum 6\n"
// expect: total = 6, v1 = 10, v2 = 20
#include <stdio.h>
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define SQ_BAD(x) x * x
#define SQ(x) ((x) * (x))
#define ABS(x) MAX(x, -(x))
#define SHOW(e) printf(#e " = %d\n", e)
#define CAT(a, b) a ## b
#define VAR(n) CAT(v, n)
#define total total
#define LOG(fmt, ...) printf(fmt "\n", __VA_ARGS__)
#define NUMS 1, 2, 3
#define ADD3(a, b, c) ((a) + (b) + (c))
#define APPLY(f, args) f(args)
int total;
int v1 = 10, v2 = 20;
int count;
int bump(void) { count++; return count; }
int main() {
    int x = 5, y = 7;
    printf("max %d min %d\n", MAX(x, y), MIN(-2, x));
    printf("sq %d %d\n", SQ_BAD(1 + 2), SQ(1 + 2));
    printf("abs %d %d\n", ABS(-4), ABS(4));
    SHOW(x + y);
    printf("v1 v2 %d\n", VAR(1) + VAR(2));
    MAX(bump(), bump()); // the larger argument is evaluated twice: 3 calls
    MAX(bump(), MAX(bump(), 0));
    LOG("count %d", count);
    LOG("line %d", __LINE__);
    total = APPLY(ADD3, NUMS);
    printf("sum %d\n", total);
    return 0;
}
