// Arithmetic wraps to 8 bits; literals at the extremes are exact.
// expect: hi = -128, lo = 127, m = 0, s = -2, t = -128
int hi, lo, m, s, t;
int main() {
    hi = 127;
    hi++;
    lo = -128;
    lo--;
    m = 16 * 16;
    s = 127 + 127;
    t = -128;
    t = -t;
    assert(hi == -128);
    assert(lo == 127);
    assert(0x7f == 127);
    assert(0xff == -1);
    assert('A' == 65);
    assert(-128 - 1 == 127);
    int x = 100;
    x *= 3;                     // 300 mod 256 = 44
    assert(x == 44);
    x = -128;
    assert(x / -1 == -128);     // the only overflowing division wraps
    return 0;
}
