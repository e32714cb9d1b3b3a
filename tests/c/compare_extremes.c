// Comparisons are exact: never the sign of a wrapped difference.
// expect: r = [1, 0, 1, 0, 1, 1, 1, 1]
int r[8];
int a, b;
int main() {
    a = 100; b = -100;
    r[0] = a > b;
    r[1] = a < b;
    a = -128; b = 127;
    r[2] = a < b;
    r[3] = a >= b;
    r[4] = a <= -128;
    r[5] = b >= 127;
    r[6] = b > a + 127 + 127;              // b > 126
    r[7] = -128 < a + 1;
    for (int i = -128; i < 127; i++) {
        assert(i < i + 1);
        assert(!(i + 1 <= i));
        assert(i != i + 1);
    }
    int lo = -128, hi = 127;
    assert(lo < hi && hi > lo && lo <= hi && hi >= lo);
    assert(!(lo > hi) && !(hi < lo));
    assert(min(lo, hi) == -128 && max(lo, hi) == 127);
    return 0;
}
