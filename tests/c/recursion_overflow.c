// Runaway recursion stops with the fault "stack overflow" at the call's line,
// before it writes past memory; the globals written before stay.
// gcc: no (gcc's stack is larger: it overflows much later, as a signal)
// expect: reached = 1
// fault: stack overflow @ 9
int reached, depth;
int down(int n) {
    depth = n;
    return down(n + 1) + 1;
}
int main() {
    reached = 1;
    down(0);
    reached = 2;
    return 0;
}
