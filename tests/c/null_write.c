// Writing through NULL stops the program on the write's line (here in a called function),
// where gcc's program stops with a segmentation fault; a write guarded by a test for NULL
// does not fault.
// gcc: no (a segmentation fault)
// config: compact
// expect: a = [0, 0], done = 1
// fault: STORE: NULL pointer dereference (pointer 0) @ 17
#include <stdlib.h>

struct node { int v; struct node *next; };
struct node a;
int done;
void set(struct node *n, int v) {
    if (n)
        n->v = v;
    done = 1;
    n->v = v;
    done = 2;
}
int main(void) {
    struct node *none = NULL;
    set(none, 5);
    return 0;
}
