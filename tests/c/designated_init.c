// Designated initializers: `.member =` and `[index] =` in any order, nested paths
// (`[1].y =`, `.lo.x =`), values after a designator continuing from it, the last of two for
// one element winning, an unsized array's length from its last designator, and locals.
// config: default32
// oracle: gcc
// output: "a 0 0 5 0 7 8\nb 4: 1 0 0 9\np 0 3\nr 1 2 0 6\npts 0 0 5 6 0 9\nlocal 2 0 7 3 1\nwin 0 2\nm 0 0 0 4\n"
// expect: sizes = [6, 4]
#include <stdio.h>
struct point { int x, y; };
struct rect { struct point lo, hi; };
int a[6] = {[2] = 5, [4] = 7, 8};
int b[] = {1, [3] = 9};
struct point p = {.y = 3};
struct rect r = {.lo = {1, 2}, .hi.y = 6};
struct point pts[3] = {[1] = {5, 6}, [2].y = 9};
int win[2] = {[1] = 1, [1] = 2};
int m[2][2] = {[1] = {[1] = 4}};
int sizes[2] = {sizeof a / sizeof a[0], sizeof b / sizeof b[0]};
int main(void) {
    printf("a %d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4], a[5]);
    printf("b %d: %d %d %d %d\n", (int)(sizeof b / sizeof b[0]), b[0], b[1], b[2], b[3]);
    printf("p %d %d\n", p.x, p.y);
    printf("r %d %d %d %d\n", r.lo.x, r.lo.y, r.hi.x, r.hi.y);
    printf("pts %d %d %d %d %d %d\n", pts[0].x, pts[0].y, pts[1].x, pts[1].y, pts[2].x, pts[2].y);
    int n = 3;
    struct point q = {.y = n * 2 + 1, .x = 2};
    int c[3] = {[2] = 1, [1] = n};
    printf("local %d %d %d %d %d\n", q.x, c[0], q.y, c[1], c[2]);
    printf("win %d %d\n", win[0], win[1]);
    printf("m %d %d %d %d\n", m[0][0], m[0][1], m[1][0], m[1][1]);
    return 0;
}
