// Found by the differential tester (program seeds 0x5b1c99cb523304c5,
// 0xe26b63b2fb0a9fa9 and, as `+q || 1`, 0x6401047fd5b98487; reduced): an
// assignment whose right side is `&&` or `||` with the target itself as the
// left operand emitted no instruction, so the target kept its old value
// (a = 5 after `a = a && b`). Expected values: gcc.
// expect: a = 1, c = 1, d = 0, e = 1, g = 0, h = 0, l = 1, p = 1, q = 1
int a, b, c, d, e, g, h, l, p, q;
int main() {
    a = 5;
    b = 3;
    a = a && b;
    c = 0;
    c = c || 1;
    d = 90;
    d = d && 0;
    e = -4;
    e = e || 0;
    g = 7;
    h = (g = g && 0);
    int x = 5;
    x = x && b;
    l = x;
    p = -3;
    p = (p && 2);
    q = 0;
    q = +q || 1;
    return 0;
}
