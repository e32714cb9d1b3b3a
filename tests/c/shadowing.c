// Callee locals never alias caller variables; blocks shadow with C scoping.
// expect: x = 10, y = 3, z = 7
int x = 10, y, z;
int f(int a) {
    int x = a + 1;      // a local `x`, not the global
    int y = x * 2;
    return y - x;
}
int g(int i) {
    int t = i;
    int u = f(t) + f(t + 1);   // f's locals live above g's
    return u + t;
}
int main() {
    int i = 1;
    y = f(i + 1);          // x = 3, y = 6 → 3
    {
        int i = 5;
        assert(i == 5);
        { int i = 6; assert(i == 6); }
        assert(i == 5);
    }
    assert(i == 1);
    int t = 100;
    z = g(1);              // f(1) = 2, f(2) = 3, + 1 = 6... plus: 2 + 3 + 1 = 6
    z = z + 1;
    assert(t == 100);
    return 0;
}
