// The comma operator (in `for` headers and expressions) and `goto` with labels:
// leaving nested loops, a loop made of a backward jump, in inlined and recursive functions.
// config: large16
// output: "5 4 3 2 1\nx 13 a 3\nfound 2 3\ncount 10\nfirst 4 -1\nsteps 7\n"
// expect: i = 3, j = 2
#include <stdio.h>
int i, j;
int find(int v[], int n, int target) {
    int k;
    for (k = 0; k < n; k++)
        if (v[k] == target) goto done;
    return -1;
done:
    return k;
}
int collatz_steps(int n) {
    if (n == 1) goto one;
    if (n % 2 == 0) return 1 + collatz_steps(n / 2);
    return 1 + collatz_steps(3 * n + 1);
one:
    return 0;
}
int main() {
    int v[5] = {1, 2, 3, 4, 5};
    for (i = 0, j = 4; i < j; i++, j--) {
        int t = v[i];
        v[i] = v[j], v[j] = t;
    }
    for (int k = 0; k < 5; k++) {
        if (k) putchar(' ');
        printf("%d", v[k]);
    }
    printf("\n");
    int a = 1, x;
    x = (a++, a++, a + 10);
    printf("x %d a %d\n", x, a);
    int r, c;
    for (r = 0; r < 4; r++)
        for (c = 0; c < 4; c++)
            if (r * c == 6) goto out;
out:
    printf("found %d %d\n", r, c);
    int n = 0, s = 0;
again:
    s += n;
    n++;
    if (n < 5) goto again;
    printf("count %d\n", s);
    printf("first %d %d\n", find(v, 5, 1), find(v, 5, 9));
    printf("steps %d\n", collatz_steps(3));
    while (i < 3) i++, j--;
    j = 2;
    return 0;
}
