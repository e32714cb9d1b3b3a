// A fault inside a called function during an initializer leaves the variable being
// initialized unwritten: the innermost assignment under way names it.
// expect: done = 0
// fault: division by zero @ 7
// unwritten: q
int done, zero;
int share(int total, int parts) { return total / parts; }
int main() {
    int q = share(100, zero);
    done = q;
    return 0;
}
