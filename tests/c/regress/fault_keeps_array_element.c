// Found by the differential tester (program seed 0x3cccdbdc4e600a91, reduced to
// `a1[0] = 0 % 0;`): as fault_keeps_target.c, for an array element.
// gcc: no (a division by zero: our fault, a signal under gcc)
// expect: a = [4, 4]
// fault: division by zero @ 10
// unwritten: a
int a[2] = {4, 4};
int z;
int main() {
    a[0] = 5 / z;
    return 0;
}
