// Every conversion and field of printf on 8-bit words: %d %i %u %x %X %c %s %%,
// widths, `-` and `0`, the extremes (-128 is its own negation), escapes.
// config: default
// output: "[0] [-1] [127] [-128] [255] [ff] [7F] [A]\n[  5] [5  ] [-05] [0a] [  -128] [abc] [ ab] [ab  ] [x   ]\n100%\ttab \"q\" \\\n"
// expect: n = -128
#include <stdio.h>
int n = -128;
char s[] = "abc";
int main() {
    int z = 0, m = -1, big = 127;
    printf("[%d] [%i] [%d] [%d] [%u] [%x] [%X] [%c]\n", z, m, big, n, m, m, big, 'A');
    printf("[%3d] [%-3d] [%03d] [%02x] [%6d] [%s] [%3s] [%-4s] [%-4c]\n", 5, 5, -5, 10, n, s, "ab", "ab", 'x');
    printf("100%%\ttab \"q\" \\\n");
    return 0;
}
