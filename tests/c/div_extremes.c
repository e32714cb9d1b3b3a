// Division and modulo at the word's extremes: MIN / -1 wraps to MIN, x / MIN, MIN % x,
// variable and constant divisors (the long division, N steps of DROL and DIVSUB).
// expect: q = [1, -128, -128, 42, -18, -1, 0, 127, -127, 42, -18, -1, 0, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -100, 100, -33, 14, 0, 0, -127, 127, -42, 18, 1], r = [0, 0, 0, -2, -2, -1, -127, 0, 0, -1, -1, 0, -1, 0, 0, -1, -1, -1, 0, 0, 0, 0, 0, 0, 100, 0, 0, 1, 2, 100, 127, 0, 0, 1, 1, 0], c3 = [-42, -42, 0, 0, 33, 42], c7 = [-2, -1, -1, 0, 2, 1], cm = [1, 0, 0, 0, 0, 0], cr = [0, -127, -1, 0, 100, 127]
int q[36], r[36], c3[6], c7[6], cm[6], cr[6];
int a[6] = {-128, -127, -1, 0, 100, 127};
int b[6] = {-128, -1, 1, -3, 7, 127};
int main() {
    for (int i = 0; i < 6; i++) {
        int x = a[i];
        for (int j = 0; j < 6; j++) {
            q[i * 6 + j] = x / b[j];
            r[i * 6 + j] = x % b[j];
            assert(q[i * 6 + j] * b[j] + r[i * 6 + j] == x);
        }
        c3[i] = x / 3;
        c7[i] = x % -7;
        cm[i] = x / -128;
        cr[i] = x % -128;
    }
    return 0;
}
