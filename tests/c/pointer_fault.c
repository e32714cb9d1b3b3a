// A pointer that leaves memory faults with its line (there is no pointer into code).
// gcc: no (an access outside the program's memory: a signal under gcc, if any)
// expect: before = 1
// fault: LOAD: pointer 202 is outside memory (slots 0..159) @ 10
int before;
int xs[3];
int main() {
    before = 1;
    int *p = xs + 100;
    int v = p[100];
    before = v;
    return 0;
}
