// An element assignment that faults leaves its array unwritten; a printing statement
// writes no variable (see `divzero.c` for a plain local).
// expect: xs = [1, 2, 3]
// fault: division by zero @ 9
// unwritten: xs
int xs[3] = {1, 2, 3};
int i = 1, zero;
int main() {
    xs[i] = xs[i] % zero;
    return 0;
}
