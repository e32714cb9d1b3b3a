// Structures: members of every kind (arrays, nested structures, pointers to their own
// structure for a list kept in a static pool), `.` and `->`, nested brace initializers,
// assignment, arrays of structures, pointers to structures as parameters, `sizeof`.
// config: large16
// output: "p 3 4 q 3 4\nrect 1 2 5 7 area 20\nlist 30 20 10\nbest bob 9\nsizes 4 8 3\ncopy 3 4 -1\ninit 3 3 4\ntree 15 12\n"
// expect: used = 3
#include <stdio.h>
int used; // first: slot 0 holds the first global, and a pointer holding 0 is null
struct point { int x, y; };
struct rect { struct point lo, hi; };
struct node { int value; struct node *next; };
struct player { char name[4]; unsigned char score; };
typedef struct point point_t;
struct tree { int v; struct tree *l, *r; };
struct tree nodes[5] = {{1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}};
int sum(struct tree *t) {
    if (!t) return 0;
    struct point depth = {t->v, 0};
    return depth.x + sum(t->l) + sum(t->r);
}
struct node pool[8];
struct node *head;
void push(int v) {
    struct node *n = &pool[used++];
    n->value = v;
    n->next = head;
    head = n;
}
int area(const struct rect *r) {
    return (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y);
}
void grow(struct rect *r, int d) {
    r->hi.x += d;
    (*r).hi.y = r->hi.y + d;
}
int main() {
    struct point p = {3, 4};
    point_t q;
    q = p;
    printf("p %d %d q %d %d\n", p.x, p.y, q.x, q.y);
    struct rect r = {{1, 2}, {4, 6}};
    grow(&r, 1);
    printf("rect %d %d %d %d area %d\n", r.lo.x, r.lo.y, r.hi.x, r.hi.y, area(&r));
    for (int i = 1; i <= 3; i++) push(10 * i);
    printf("list");
    for (struct node *n = head; n; n = n->next) printf(" %d", n->value);
    printf("\n");
    struct player team[3] = {{"amy", 7}, {"bob", 9}, {"cy", 5}};
    int best = 0;
    for (int i = 1; i < 3; i++)
        if (team[i].score > team[best].score) best = i;
    printf("best %s %d\n", team[best].name, team[best].score);
    printf("sizes %d %d %d\n", (int)(sizeof(struct point) / sizeof(int) * 2), (int)(sizeof(struct rect) / sizeof(int) * 2),
           (int)(sizeof team / sizeof team[0]));
    struct point pts[2];
    pts[1] = p;
    pts[0] = pts[1];
    pts[0].y = -1;
    printf("copy %d %d %d\n", pts[0].x, pts[1].y, pts[0].y);
    struct rect *rp = &r;
    struct point lo = rp->lo, c = pts[1];
    printf("init %d %d %d\n", lo.x + lo.y, c.x, c.y);
    nodes[0].l = &nodes[1];
    nodes[0].r = &nodes[2];
    nodes[2].l = &nodes[3];
    nodes[3].r = &nodes[4];
    printf("tree %d %d\n", sum(&nodes[0]), sum(nodes[0].r));
    return 0;
}
