// Unions: members share storage (writing one changes what another reads), `sizeof` is the
// largest member's rounded to the alignment (gcc's), initializers give the first member or
// the one a designator names, a tagged union in a structure, arrays and structures of ints
// as members, copies, and `->` through a pointer.
// config: default32
// expect: kinds = 2
// oracle: gcc
// output: "-1 4294967295\nsizes 8 8 12\n7 7 9 9\nshape 12 36\nfirst 5 0 second 0 7\ncopy 42 42\n"
#include <stdio.h>
union word { int i; unsigned u; };
union pair { unsigned l; int half[2]; struct { int lo, hi; } parts; };
struct shape { int kind; union { int side; struct { int w, h; } rect; } size; };
union word words[2] = {{5}, {.u = 7}};
int kinds;
int area(struct shape *s) { return s->kind ? s->size.rect.w * s->size.rect.h : s->size.side * s->size.side; }
int main(void) {
    union word w;
    w.i = -1;
    printf("%d %u\n", w.i, w.u);
    printf("sizes %d %d %d\n", (int)sizeof(union pair), (int)sizeof(union pair[1]), (int)sizeof(struct shape));
    union pair p;
    p.half[0] = 7;
    p.parts.hi = 9;
    printf("%d %u %d %d\n", p.parts.lo, p.l, p.half[1], p.parts.hi);
    struct shape a = {1, {.rect = {3, 4}}}, b;
    b.kind = 0;
    kinds = a.kind + b.kind + 1;
    b.size.side = 6;
    union pair *q = &p;
    q->half[1] = area(&b);
    printf("shape %d %d\n", area(&a), q->parts.hi / 6 * 6);
    printf("first %d %d second %d %u\n", words[0].i, words[1].i - 7, words[0].u - 5, words[1].u);
    union word c = w;
    c.i = 42;
    w = c;
    printf("copy %d %u\n", w.i, w.u);
    return 0;
}
