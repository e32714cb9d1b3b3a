// Integer types with gcc's meaning on a 32-bit target (ILP32): the output is gcc -m32's.
// config: default32
// expect: fact = 479001600, h = 1335831723, big = 2147483647
// output: "479001600\n44 44 -56\n0 1 1\n4294967295 ffffffff FFFFFFF 1\n4 4095\n1 735928559\n-4 15\n1335831723 4f9f2cab\n-25536 32767\n0 -128\n2147483647 2147483648 4294967295\n2147483647 -2147483648 4294967295\n-128 32767 255\n4 40 10 4\n4464 44 ffff -56\n300000000 -42\n1\n1 1 1\n"
#include <stdio.h>
#include <limits.h>

unsigned h;
int fact;
long big;

int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

/* FNV-1a: unsigned arithmetic wraps modulo 2^32. */
unsigned fnv(char *s) {
    unsigned x = 2166136261u;
    while (*s) {
        x ^= (unsigned char)*s;
        x *= 16777619u;
        s++;
    }
    return x;
}

short narrow(int v) { return v; }

int main() {
    fact = factorial(12);
    printf("%d\n", fact);
    printf("%d %d %d\n", (char)300, (unsigned char)300, (signed char)200);
    printf("%d %d %d\n", -1 < 0u, -1 < 0, 0u - 1 > 0);
    unsigned u = 0;
    u = u - 1;
    printf("%u %x %X %d\n", u, u, u >> 4, u > 5);
    printf("%u %u\n", u / 1000000000u, u % 4096);
    printf("%u %u\n", 0xDEADBEEF / 3000000000u, 0xDEADBEEF % 3000000000u);
    int i = -16;
    printf("%d %u\n", i >> 2, (unsigned)i >> 28);
    h = fnv("hello");
    printf("%u %x\n", h, h);
    printf("%d %d\n", narrow(40000), narrow(-32769));
    unsigned short us = 65535;
    us++;
    char c = 127;
    c++;
    printf("%d %d\n", us, c);
    big = 2147483647L;
    printf("%ld %lu %lu\n", big, (unsigned long)big + 1, (unsigned long)-1L);
    printf("%d %d %u\n", INT_MAX, INT_MIN, UINT_MAX);
    printf("%d %d %d\n", CHAR_MIN, SHRT_MAX, UCHAR_MAX);
    int a[10];
    printf("%u %u %u %u\n", sizeof(int), sizeof a, sizeof a / sizeof a[0], sizeof(char *));
    printf("%hd %hhu %hx %hhd\n", 70000, 300, -1, 200);
    long l = 100000L * 3000;
    printf("%ld %ld\n", l, -l / 7000000);
    unsigned m = 3000000000u;
    printf("%d\n", m > 2000000000);
    printf("%d %d %d\n", 0x7FFFFFFF + 1u > 0, -2147483647 - 1 == INT_MIN, -2147483648 == INT_MIN);
    return 0;
}
