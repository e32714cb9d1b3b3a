// Products of negatives, including the extremes, wrap like C on 8 bits.
// expect: p = [6, -6, -6, 6, 0, 0, 1]
int p[7];
int a = -2, b = 3;
int main() {
    p[0] = -a * b;
    p[1] = a * b;
    p[2] = b * a;
    p[3] = a * -b;
    p[4] = -128 * a * a * a * a * a * a * a * -1;   // wraps
    p[5] = a * 0;
    p[6] = -1 * -1;
    for (int x = -12; x <= 12; x++) {
        for (int y = -10; y <= 10; y++) {
            assert(x * y == y * x);
            assert(x * y / (y == 0 ? 1 : y) == (y == 0 ? 0 : x));
        }
    }
    return 0;
}
