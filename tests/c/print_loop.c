// Long output: far more characters than the console slot holds, from loops, a
// pointer walk (puts of a char array) and a recursive function that prints.
// output: "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789\nbye\n3 2 1 go\n"
// expect: count = 100
#include <stdio.h>
int count;
char bye[] = "bye";
void down(int n) {
    if (n == 0) { puts("go"); return; }
    printf("%d ", n);
    down(n - 1);
}
int main() {
    for (int i = 0; i < 100; i++) {
        putchar('0' + i % 10);
        count++;
    }
    putchar('\n');
    puts(bye);
    down(3);
    return 0;
}
