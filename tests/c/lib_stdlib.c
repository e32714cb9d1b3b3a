// config: large16
// oracle: gcc
// expect: total = 99
// output: "42 -17 7 0 123\nabs 5 5\nbye\n"
// <stdlib.h>: atoi (white space, a sign, digits up to the first other character), abs, and
// exit ending the program from inside a function.
#include <stdio.h>
#include <stdlib.h>

int total;

void finish(int code) {
    printf("bye\n");
    exit(code);
    total = -1;
}

int main(void) {
    printf("%d %d %d %d %d\n", atoi("42"), atoi("  -17xyz"), atoi("+7"), atoi("abc"), atoi("0123"));
    printf("abs %d %d\n", abs(-5), abs(5));
    total = atoi("99");
    finish(0);
    total = 0;
    return 1;
}
