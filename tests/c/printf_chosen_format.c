// A `printf` format chosen at run time with `?:` between literals (nested too): the program
// prints a list with separators, a plural, and a three-way choice.
// config: large16
// oracle: gcc
// expect: k = 7
// output: "3,1,4,1,5\n1 item\n2 items\nneg zero pos \n[7]\n"
#include <stdio.h>
int k;
int main(void) {
    int v[5] = {3, 1, 4, 1, 5};
    for (int i = 0; i < 5; i++) printf(i ? ",%d" : "%d", v[i]);
    printf("\n");
    for (int n = 1; n <= 2; n++) printf(n == 1 ? "%d item\n" : "%d items\n", n);
    for (int x = -1; x <= 1; x++) printf(x < 0 ? "%s " : x == 0 ? "zero%s " : "pos%s ", x < 0 ? "neg" : "");
    printf("\n");
    k = 7;
    printf(k > 5 ? "[%d]\n" : "(%d)\n", k);
    return 0;
}
