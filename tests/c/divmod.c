// Division truncates toward zero; the remainder has the dividend's sign.
// expect: q = [3, -3, -3, 3], r = [1, 1, -1, -1]
int q[4], r[4];
int a[4] = {7, 7, -7, -7};
int b[4] = {2, -2, 2, -2};
int main() {
    for (int i = 0; i < 4; i++) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
        assert(q[i] * b[i] + r[i] == a[i]);
    }
    assert(-128 / 3 == -42 && -128 % 3 == -2);
    int m = -128;
    assert(m / 3 == -42);
    assert(m % 3 == -2);
    assert(m / 64 == -2 && m % 64 == 0);
    assert(m / -128 == 1);
    assert(127 / m == 0 && 127 % m == 127);
    int z = 0;
    assert(z / 5 == 0);
    return 0;
}
