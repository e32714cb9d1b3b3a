// Division and modulo at the word's extremes: MIN / -1 wraps to MIN, x / MIN, MIN % x,
// variable and constant divisors (the long division, N steps of DROL and DIVSUB;
// two constant divisors only: each division is 2N + 13 instructions and compact16 has 320).
// config: compact16
// expect: q = [1, -32768, -32768, 10922, -4681, -1, 0, 32767, -32767, 10922, -4681, -1, 0, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -30000, 30000, -10000, 4285, 0, 0, -32767, 32767, -10922, 4681, 1], r = [0, 0, 0, -2, -1, -1, -32767, 0, 0, -1, 0, 0, -1, 0, 0, -1, -1, -1, 0, 0, 0, 0, 0, 0, 30000, 0, 0, 0, 5, 30000, 32767, 0, 0, 1, 0, 0], c3 = [-10922, -10922, 0, 0, 10000, 10922], cr = [0, -32767, -1, 0, 30000, 32767]
int q[36], r[36], c3[6], cr[6];
int a[6] = {-32767 - 1, -32767, -1, 0, 30000, 32767};
int b[6] = {-32767 - 1, -1, 1, -3, 7, 32767};
int main() {
    for (int i = 0; i < 6; i++) {
        int x = a[i];
        for (int j = 0; j < 6; j++) {
            q[i * 6 + j] = x / b[j];
            r[i * 6 + j] = x % b[j];
            assert(q[i * 6 + j] * b[j] + r[i * 6 + j] == x);
        }
        c3[i] = x / 3;
        cr[i] = x % (-32767 - 1);
    }
    return 0;
}
