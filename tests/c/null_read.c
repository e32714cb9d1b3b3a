// Reading through NULL stops the program on the read's line, where gcc's program stops
// with a segmentation fault: no object lives at NULL's slot.
// gcc: no (a segmentation fault)
// expect: before = 1
// fault: LOAD: NULL pointer dereference (pointer 0) @ 11
int before;
int main(void) {
    int *p = 0;
    before = 1;
    int v = before;
    v = *p;
    before = v;
    return 0;
}
