// The first program: printf, puts and putchar, with the headers gcc needs.
// output: "Hello, world!\nhi\nok\n42\n"
// expect: done = 1
#include <stdio.h>
#include <stdlib.h>
int done;
int main() {
    printf("Hello, world!\n");
    puts("hi");
    putchar('o');
    putchar('k');
    putchar(10);
    printf("%d\n", 42);
    done = 1;
    return 0;
}
