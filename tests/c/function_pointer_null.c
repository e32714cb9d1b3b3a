// Calling through a null function pointer stops the program on the call's line (C leaves
// it undefined; the machine has no code at NULL).
// config: compact
// expect: before = 5
// fault: call through a pointer that holds no function @ 13
// unwritten: before
int before;
int five(void) { return 5; }
int main(void) {
    int (*f)(void) = five;
    before = f();
    f = 0;
    before = f();
    return 0;
}
