// 32-bit words: C's int as gcc has it. 12! needs 29 bits; the limits and
// products that wrap on 16 bits are exact here.
// config: compact32
// expect: f = 479001600, big = 2147483647, small = -2147483648, prod = 40000, s = 500500
// output: "12! = 479001600\n"
int f, big, small, prod, s;
int factorial(int n) {
    if (n <= 1) return 1;
    return n * factorial(n - 1);
}
int main() {
    f = factorial(12);
    big = 2147483647;
    small = -big - 1;
    prod = 200 * 200;
    assert(small < 0 && big > 0 && small < big);
    assert(100000 * 3 == 300000);
    assert(-70000 < 70000);
    assert((65535 + 1) == 65536);
    assert((big >> 16) == 32767);
    assert((0x12345678 & 0xffff) == 0x5678);
    for (int i = 1; i <= 1000; i++) s += i;
    printf("12! = %d\n", f);
    return 0;
}
