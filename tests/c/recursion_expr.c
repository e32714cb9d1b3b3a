// A recursive call inside the returned expression, twice: each call's result
// is kept apart from the next call's (both come back through one register).
// expect: r = 57, s = 55, t = 10
int r, s, t;
int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int sum(int n) { return n == 0 ? 0 : n + sum(n - 1) - sum(0); }
int main() {
    int i = 2;
    r = fib(10) + i;
    s = fib(9) + fib(8) + (fib(1) - fib(1));
    t = sum(4);
    return 0;
}
