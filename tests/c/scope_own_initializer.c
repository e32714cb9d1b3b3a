// A local is in scope from the end of its declarator, so its own initializer
// names it (C11 6.2.1p7): `sizeof s` is the new `short`'s size, not the outer
// array's, and a structure can hold its own address.
// config: compact32
// oracle: gcc
// output: "2 12 1 7\n"
// expect: seen = 7
#include <stdio.h>
struct node { int v; struct node *next; };
char s[12] = "outer";
int seen;
int main() {
    short s = sizeof s;
    int outer = sizeof(char[12]);
    struct node n = {7, &n};
    seen = n.next->v;
    printf("%d %d %d %d\n", s, outer, n.next == &n, seen);
    return 0;
}
