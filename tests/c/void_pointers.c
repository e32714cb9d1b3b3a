// `void *`: it takes any object pointer and gives it back to any (without a cast, as C
// says), is compared with other pointers and NULL, held in arrays and structures, passed to
// and returned from functions, and converted with casts; what it points to is reached only
// through a typed pointer.
// config: default32
// oracle: gcc
// expect: total = 26
// output: "8 1 1 1\nints 5\nchars abc\nc 8\n"
#include <stdio.h>
#include <stddef.h>
int total;
int numbers[3] = {4, 5, 6};
char letters[4] = "abc";
struct slot { void *data; int kind; };
void *pick(int k) { return k ? (void *)letters : numbers; }
int sum(void *p, int n) {
    int *v = p;
    int s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}
void show(struct slot *s) {
    if (s->kind) printf("chars %s\n", (char *)s->data);
    else printf("ints %d\n", *(int *)s->data);
}
int main(void) {
    int x = 7;
    void *p = &x;
    int *q = p;
    *q += 1;
    void *none = NULL;
    printf("%d %d %d %d\n", x, p == q, none == NULL, p != none);
    total = sum(numbers, 3) + sum(pick(0), 1) + sum(p, 1) - 1 + 0;
    struct slot slots[2] = {{numbers + 1, 0}, {pick(1), 1}};
    show(&slots[0]);
    show(&slots[1]);
    void *all[2] = {&x, letters};
    char *c = all[1];
    printf("%c %d\n", c[2], *(int *)all[0]);
    return 0;
}
