// 16-bit words: larger literals, exact comparisons and products.
// config: compact16
// expect: big = 30000, prod = -25536, lt = 1, q = -109
int big, prod, lt, q;
int main() {
    big = 30000;
    prod = 200 * 200;          // 40000 wraps to -25536
    lt = -30000 < 30000;
    q = -32768 / 300;
    assert(32767 + 1 == -32768);
    assert(1000 * 30 == 30000);
    int s = 0;
    for (int i = 1; i <= 200; i++) s += i;
    assert(s == 20100);
    return 0;
}
