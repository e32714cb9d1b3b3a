// Found by the differential tester (program seed 0x2332575ee26f1468, reduced to
// `int main() { assert(0); }`): an assert whose condition folds to 0 compiles to
// a jump to its trap; the peephole deletes that jump when the trap's HALT comes
// next, then drops the trap's label as unused, so the HALT is no longer a trap
// and the program halts normally. gcc (the same check): the assertion fails.
// gcc: no (a failed assert: our fault, an abort under gcc)
// expect: g = 1
// fault: assertion failed @ 12
int g;
int main() {
    g = 1;
    assert(1 - 1);
    g = 2;
    return 0;
}
