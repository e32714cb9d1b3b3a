// Found by the differential tester (program seed 0xd196f27aa2e3c746, reduced):
// as fault_keeps_target.c, when the fault is in an inlined call: its `return`
// computes straight into the caller's target (gcc: g = 7).
// gcc: no (a division by zero: our fault, a signal under gcc)
// expect: g = 7
// fault: division by zero @ 11
// unwritten: g
int g = 7;
int z;
int f() {
    return 5 / z;
}
int main() {
    g = f();
    return 0;
}
