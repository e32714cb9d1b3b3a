// Operator precedence and associativity, as in C.
// expect: a = 14, b = 1, c = 7, d = 1, e = 1, f = 3
int a, b, c, d, e, f;
int main() {
    a = 2 + 3 * 4;
    b = 10 - 4 - 5;
    c = 1 | 2 & 3 ^ 4;          // 1 | ((2 & 3) ^ 4) = 1 | 6 = 7
    d = 17 % 5 * 2 / 3;         // ((17 % 5) * 2) / 3 
    e = 1 < 2 == 1;             // (1 < 2) == 1
    f = 1 ? 2 ? 3 : 4 : 5;
    assert(-2 * -3 == 6);
    assert(!0 + !5 == 1);
    assert(~0 == -1);
    assert((1 << 3 >> 1) == 4);
    assert((2 + 3) * 4 == 20);
    assert(1 || 0 && 0);
    int x = 3;
    x += x *= 2;                // unsequenced in C; here: x *= 2 first, then x += 6 → 12
    assert(x == 12);
    int y = 5;
    int z = y++ + ++y;          // also unsequenced in C; left to right here
    assert(y == 7);
    return 0;
}
