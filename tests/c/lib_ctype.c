// config: large
// oracle: gcc
// expect: digits = 2, letters = 10, spaces = 3, puncts = 2, upper = 2
// output: "HELLO, WORLD! 42 \nhello, world! 42 \n2 10 3 2 2\n1 1 0 0\n"
// <ctype.h>: classify each character of a string, and change case.
#include <ctype.h>
#include <stdio.h>

int digits, letters, spaces, puncts, upper;

int main(void) {
    char s[] = "Hello, World! 42\t";
    int i;
    for (i = 0; s[i]; i++) {
        digits += isdigit(s[i]) != 0;
        letters += isalpha(s[i]) != 0;
        spaces += isspace(s[i]) != 0;
        puncts += ispunct(s[i]) != 0;
        upper += isupper(s[i]) != 0;
    }
    for (i = 0; s[i]; i++)
        putchar(toupper(s[i]) == '\t' ? ' ' : toupper(s[i]));
    printf("\n");
    for (i = 0; s[i]; i++)
        putchar(s[i] == '\t' ? ' ' : tolower(s[i]));
    printf("\n%d %d %d %d %d\n", digits, letters, spaces, puncts, upper);
    printf("%d %d %d %d\n", isxdigit('f') != 0, isalnum('7') != 0, islower('Q') != 0, isprint('\n') != 0);
    return 0;
}
