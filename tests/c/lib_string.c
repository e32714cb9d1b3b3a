// config: large16
// oracle: gcc
// expect: n = 5
// output: "5 0\nhello, world 12\n<0 >0 =0 =0 >0\nhelp\\0\\0 hel\nxxxo!\nsame 1 diff 1\n"
// <string.h>: lengths, comparisons (only their signs are portable), copies and the mem functions.
#include <stdio.h>
#include <string.h>

int n;

int sign(int x) { return x < 0 ? -1 : x > 0; }

void show(int s) {
    if (s < 0)
        printf("<0");
    else if (s > 0)
        printf(">0");
    else
        printf("=0");
}

int main(void) {
    char a[20] = "hello";
    char b[20];
    char c[6] = "abcde";
    char d[5];
    n = strlen(a);
    printf("%d %d\n", n, (int)strlen(""));
    strcpy(b, a);
    strcat(b, ", world");
    printf("%s %d\n", b, (int)strlen(b));
    show(strcmp("abc", "abd"));
    printf(" ");
    show(strcmp("b", "abc"));
    printf(" ");
    show(strcmp(a, "hello"));
    printf(" ");
    show(strncmp("help", "hello", 3));
    printf(" ");
    show(strncmp("help", "hello", 4));
    printf("\n");
    strncpy(d, "help", 4);
    d[4] = 0;
    strncpy(c, "hel", 5);
    printf("%s%s%s %s\n", d, c[3] == 0 ? "\\0" : "?", c[4] == 0 ? "\\0" : "?", c);
    memset(c, 'x', 3);
    c[3] = 'o';
    c[4] = '!';
    c[5] = 0;
    printf("%s\n", c);
    memcpy(d, "abcd", 4);
    printf("same %d diff %d\n", memcmp(d, "abcd", 4) == 0, sign(memcmp(d, "abce", 4)) == -1);
    return 0;
}
