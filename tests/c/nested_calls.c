// Calls nest and repeat inside one expression; each gets its own result slot.
// expect: a = 25, b = 41, c = 12, d = 2, ctr = 33, other = 7
int a, b, c, d, ctr, other;
int sq(int x) { return x * x; }
int add(int x, int y) { return x + y; }
int twice(int x) { return add(x, x); }
int bump() { ctr = ctr + 10; return ctr + 1; }     // reads and writes the caller's target
int peek() { return ctr * 2; }
int seven() { return 7; }
int main() {
    a = sq(3) + sq(4);
    b = add(sq(4), add(sq(5), sq(0)));
    c = twice(twice(3));
    int k = 2;
    d = sq(k) - sq(sq(k)) / 8;   // 4 - 16 / 8
    assert(sq(sq(2)) == 16);
    assert(add(1, 2) * add(3, 4) == 21);
    ctr = bump();          // 11: the call's own write to ctr is overwritten by its result
    ctr = peek() + ctr;    // 22 + 11
    other = seven();
    return 0;
}
