// `_Bool` and `<stdbool.h>`'s `bool`: converting any value to it gives 0 or 1 (256, a
// negative number, a pointer), on assignment, as a parameter, a result, a cast, `++`; it
// promotes to `int` and is one byte for `sizeof`.
// config: default32
// oracle: gcc
// output: "1 1 0 1 1\n1 0 1\nsizes 1 1\nflags 1 0 1 1\n2 1 1\ncount 3\n"
// expect: flag = 1, many = [1, 0, 1]
#include <stdio.h>
#include <stdbool.h>
bool flag = 256;
_Bool many[3] = {-1, 0, 7};
bool is_even(int n) { return n % 2 == 0; }
int count(const bool *v, int n) { int k = 0; for (int i = 0; i < n; i++) k += v[i]; return k; }
bool nonzero(unsigned char c) { return c; }
int main(void) {
    int x = 512;
    bool a = x, b = -3, c = 0, d = 2 > 1, e = (_Bool)x;
    printf("%d %d %d %d %d\n", a, b, c, d, e);
    int *p = &x, *q = 0;
    bool has = p, none = q;
    printf("%d %d %d\n", has, none, (bool)p + none);
    printf("sizes %d %d\n", (int)sizeof(bool), (int)sizeof a);
    bool v[4] = {is_even(4), is_even(3), nonzero(2), flag};
    printf("flags %d %d %d %d\n", v[0], v[1], v[2], v[3]);
    bool t = true;
    t++;
    int sum = a + b;
    bool u = false;
    u += 5;
    printf("%d %d %d\n", sum, t, u);
    printf("count %d\n", count(v, 4));
    return 0;
}
