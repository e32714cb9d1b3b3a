// `sprintf` and `snprintf` write what `printf` would print into a `char` array, with its
// '\0': numbers in every base and width, strings, characters, a format chosen with `?:`;
// `snprintf` stops at its size (the '\0' included; size 0 writes nothing).
// config: default32
// oracle: gcc
// expect: n = 4
// output: "-42|    7|ff  |0A|z|ok\n[123]\n[123]\n[abcd]\nfirst 0\nitem 10\nitem 20\n-2147483648\n"
#include <stdio.h>
#include <string.h>
int n;
int main(void) {
    char buf[40];
    sprintf(buf, "%d|%5u|%-4x|%02X|%c|%s", -42, 7u, 255, 10, 'z', "ok");
    puts(buf);
    n = strlen(buf) == 22;
    char small[6] = "xxxxx";
    snprintf(small, 4, "%d", 123456);
    printf("[%s]\n", small);
    snprintf(small, 0, "%d", 9);
    printf("[%s]\n", small);
    snprintf(small, 6, "ab%sd", "c");
    printf("[%s]\n", small);
    char line[20];
    for (int i = 0; i < 3; i++) {
        sprintf(line, i ? "item %d" : "first %d", i * 10);
        puts(line);
        n++;
    }
    char num[12];
    sprintf(num, "%d", -2147483647 - 1);
    puts(num);
    return 0;
}
