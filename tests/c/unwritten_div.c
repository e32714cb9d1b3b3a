// A division by zero stops the assignment it is part of: `r` keeps its old value,
// and the debugger names `r` as the variable the faulting statement did not write.
// expect: r = 5, a = 7
// fault: division by zero @ 10
// unwritten: r
int r, a, zero;
int main() {
    a = 7;
    r = 5;
    r = a / zero;
    r = 6;
    return 0;
}
