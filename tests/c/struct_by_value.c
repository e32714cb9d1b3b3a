// Structures passed and returned by value: a parameter is a copy (the callee's changes stay
// in it), a result is copied into a variable, an element, a member or another call's
// argument; a member of a call's result; nested structures and arrays inside them.
// config: default32
// oracle: gcc
// output: "p 1 2 q 4 6\nmoved 1 2\narea 20 perimeter 18\nrect 1 2 5 7\ncenter 3 4\nname bob 9\nsum 15\n"
// expect: made = 4
#include <stdio.h>
struct point { int x, y; };
struct rect { struct point lo, hi; };
struct player { char name[4]; int score; };
int made;
struct point make(int x, int y) {
    struct point p;
    p.x = x;
    p.y = y;
    made++;
    return p;
}
struct point add(struct point a, struct point b) { return make(a.x + b.x, a.y + b.y); }
void move(struct point p) { p.x += 100; p.y += 100; }
int area(struct rect r) { return (r.hi.x - r.lo.x) * (r.hi.y - r.lo.y); }
int perimeter(const struct rect r) { return 2 * (r.hi.x - r.lo.x + r.hi.y - r.lo.y); }
struct rect span(struct point a, struct point b) {
    struct rect r;
    r.lo = a;
    r.hi = b;
    return r;
}
struct point center(struct rect r) {
    struct point c = {(r.lo.x + r.hi.x) / 2, (r.lo.y + r.hi.y) / 2};
    return c;
}
struct player best(struct player a, struct player b) {
    if (a.score >= b.score) return a;
    return b;
}
int sum(struct player t[], int n) { int s = 0; for (int i = 0; i < n; i++) s += t[i].score; return s; }
int main(void) {
    struct point p = make(1, 2);
    struct point q = add(p, make(3, 4));
    printf("p %d %d q %d %d\n", p.x, p.y, q.x, q.y);
    move(p);
    printf("moved %d %d\n", p.x, p.y);
    struct rect r;
    r = span(p, make(5, 7));
    printf("area %d perimeter %d\n", area(r), perimeter(r));
    printf("rect %d %d %d %d\n", r.lo.x, r.lo.y, r.hi.x, r.hi.y);
    printf("center %d %d\n", center(r).x, center(r).y);
    struct player team[2] = {{"amy", 6}, {"bob", 9}};
    struct player w;
    w = best(team[0], team[1]);
    printf("name %s %d\n", w.name, w.score);
    printf("sum %d\n", sum(team, 2));
    return 0;
}
