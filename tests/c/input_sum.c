// config: compact16
// expect: sum = 102, count = 4
// output: "4 numbers, sum 102\n"
#include <stdio.h>

int sum, count;

int main(void) {
    int x;
    while (scanf("%d", &x) == 1) {
        sum += x;
        count++;
    }
    printf("%d numbers, sum %d\n", count, sum);
    return 0;
}
