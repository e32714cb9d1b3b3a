// expect: chars = 36, words = 7, lines = 3
// output: "3 7 36\n"
// Counts like wc: characters, words and lines read with getchar until EOF.
#include <stdio.h>

int chars, words, lines;

int main(void) {
    int c, inword = 0;
    while ((c = getchar()) != EOF) {
        chars++;
        if (c == '\n')
            lines++;
        if (c == ' ' || c == '\n' || c == '\t') {
            inword = 0;
        } else if (!inword) {
            inword = 1;
            words++;
        }
    }
    printf("%d %d %d\n", lines, words, chars);
    return 0;
}
