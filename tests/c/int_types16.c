// Narrow and unsigned types on a 16-bit machine, where `int` is one 16-bit word: the
// values stay within 16 bits and signedness never mixes, so gcc's 32-bit `int` prints
// the same. `uint16_t` promotes to a 16-bit `unsigned` here, so its `/ % >> <` are the
// unsigned operations on whole words.
// config: large16
// expect: q = [9285, 5, 3840, 30727, 1, 27190], small = -56
// output: "9285 5 3840 30727 1 27190 \n1 1 0\n-128 4 -56 44\n-25536 -25536 44 f00f -56\n255 0 1\n65535 ffff 535\n"
#include <stdio.h>
#include <stdint.h>

uint16_t q[6];
int8_t small;

uint16_t mix(char *s) {
    uint16_t x = 40503u;
    while (*s) {
        x = (uint16_t)((x ^ (uint8_t)*s) * 31u);
        s++;
    }
    return x;
}

uint16_t half(uint16_t v) { return v >> 1; }

int main() {
    uint16_t a = 65000u, b = 0xF00Fu, d = 7;
    q[0] = a / d;
    q[1] = a % d;
    q[2] = b >> 4;
    q[3] = half(b);
    q[4] = a / 40000u;
    q[5] = mix("loom");
    for (int i = 0; i < sizeof q / sizeof q[0]; i++) printf("%u ", q[i]);
    printf("\n%d %d %d\n", a > 10000u, b < a, a >= 65001u);
    char c = 127;
    c++;
    unsigned char uc = 250;
    uc += 10;
    small = (int8_t)200;
    printf("%d %d %d %d\n", c, uc, small, (char)300);
    int16_t s = (int16_t)40000u;
    printf("%d %hd %hhu %hx %hhd\n", s, s, 300, b, 200);
    uint8_t bytes[3] = {255, 256, 257};
    printf("%u %u %u\n", bytes[0], bytes[1], bytes[2]);
    uint16_t big = 0;
    big--;
    printf("%u %x %u\n", big, big, big % 1000u);
    return 0;
}
