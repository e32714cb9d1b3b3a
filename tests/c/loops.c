// break and continue in nested loops, do-while, for with a declaration.
// expect: pairs = 12, odd = 25, dw = 3, skipped = 3
int pairs, odd, dw, skipped;
int main() {
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5; j++) {
            if (j > i) break;
            if (j == 2) { skipped++; continue; }
            pairs++;
        }
    }
    for (int i = 0; i < 10; i++) {
        if (i % 2 == 0) continue;
        odd += i;
    }
    int n = 0;
    do { n++; dw++; } while (n < 3);
    int k = 0;
    while (1) {
        k++;
        if (k > 50) break;
    }
    assert(k == 51);
    do { dw += 0; } while (0);
    return 0;
}
