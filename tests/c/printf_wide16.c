// printf on 16-bit words: five decimal places, four hex digits, unsigned reading.
// config: compact16
// output: "-32768 32767 65535 ffff 1234 00042|7    |\n"
// expect: x = 4660
#include <stdio.h>
int x = 0x1234;
int main() {
    int lo = -32768, hi = 32767, k = 7;
    printf("%d %d %u %x %x %05d|%-5d|\n", lo, hi, -1, -1, x, 42, k);
    return 0;
}
