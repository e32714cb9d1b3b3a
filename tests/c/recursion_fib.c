// Direct recursion: each activation of `fib` has its own `n` and partial sum.
// expect: r = 55, calls = -79, f6 = 120
int r, calls, f6;
int fib(int n) {
    calls++;
    if (n < 2) return n;
    int a = fib(n - 1);
    return a + fib(n - 2);
}
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main() {
    r = fib(10);
    assert(fib(7) == 13);
    calls = calls - 41;   // fib(7) made 41 calls (177 wraps to -79 in 8 bits)
    f6 = fact(5);
    return 0;
}
