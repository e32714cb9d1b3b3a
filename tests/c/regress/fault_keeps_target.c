// Found by the differential tester (program seed 0xa52e3aac27c9443f, reduced to
// `g = 0 / 0;`): a plain assignment computes its right side in the target, so
// when a division in it faults the global already holds a partial value (5
// here); C never performs the assignment (gcc, with the same zero check: g = 86).
// gcc: no (a division by zero: our fault, a signal under gcc)
// expect: g = 86, before = 1
// fault: division by zero @ 13
// unwritten: g
int g = 86;
int z, before;
int main() {
    before = 1;
    g = 1 + 5 / z;
    before = 2;
    return 0;
}
