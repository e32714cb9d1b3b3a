// Found by the differential tester (program seed 0x1c5de4657edbb538 and 14 more
// of 300): a minus before a hex, octal or character literal that spells a
// negative pattern is rejected ("the literal -255 does not fit in an 8-bit
// int"), although `0xFF` alone is −1 and `-(0xFF)` is 1. Expected: gcc with
// 8-bit words (int8_t), which negates the pattern's value.
// gcc: no (8-bit literal patterns; expected values from gcc with int8_t)
// expect: a = 1, b = 8, c = 1, d = -128, e = 1, f = 127
int a, b, c, d, e, f;
int main() {
    a = -0xFF;
    b = -0370;
    c = -'\xff';
    d = -0x80;
    e = -(0xFF);
    f = -0x81;
    return 0;
}
