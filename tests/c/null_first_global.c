// A pointer to the first global is not NULL: no object lives at NULL's slot.
// config: compact
// oracle: gcc
// output: "0 1 1\np points at 7\n1\n"
// expect: second = 1
#include <stdio.h>

int first[3] = {7, 8, 9};
int second;

int main() {
    int *p = first;
    int *q = &first[0];
    int *none = NULL;
    printf("%d %d %d\n", p == NULL, q != 0, none == 0);
    if (p)
        printf("p points at %d\n", *p);
    second = p == q;
    printf("%d\n", second);
    return 0;
}
