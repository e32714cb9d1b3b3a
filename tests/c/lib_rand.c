// config: compact16
// expect: first = 19511
// output: "19511 30543 10098 22502 1941\n1 19511\n"
// rand as BUILTINS.md documents it for 16-bit words: next = next * 25173 + 13849 (unsigned,
// from 1; srand sets it), rand = next / 2. (Not glibc's generator: the output is the
// documented one's, computed independently: next = 39022, 61087, 20196, 45005, 3882.)
#include <stdio.h>
#include <stdlib.h>

int first;

int main(void) {
    int i;
    first = rand();
    printf("%d", first);
    for (i = 0; i < 4; i++)
        printf(" %d", rand());
    srand(1);
    printf("\n%d %d\n", RAND_MAX == 32767, rand());
    return 0;
}
