// Storage classes and qualifiers: static locals keep their value across calls
// (also in a recursive function), static globals and functions, extern
// declarations before the definition, const objects, volatile and register.
// config: compact16
// output: "next 1 2 3\ndepth 5 calls 6\ntotal 60 limit 50\nextern 7 9\nsquares 0 1 4 9\n"
// expect: shared = 9, limit = 50
#include <stdio.h>
extern int shared;
static int counter(void);
static const int limit = 50;
static int next_id(void) {
    static int id;
    return ++id;
}
int calls(int n) {
    static int seen = 0;
    seen++;
    if (n > 0) return calls(n - 1);
    return seen;
}
int bump(void) {
    extern int shared;
    shared += 2;
    return shared;
}
static int counter(void) {
    static int total = 10;
    total += 10;
    return total;
}
int shared = 5;
int main() {
    int a = next_id();
    int b = next_id();
    printf("next %d %d %d\n", a, b, next_id());
    printf("depth %d calls %d\n", 5, calls(5));
    counter();
    counter();
    counter();
    counter();
    printf("total %d limit %d\n", counter(), limit);
    volatile int v = bump();
    register int r = bump();
    printf("extern %d %d\n", v, r);
    const int sq[4] = {0, 1, 4, 9};
    printf("squares %d %d %d %d\n", sq[0], sq[1], sq[2], sq[3]);
    return 0;
}
