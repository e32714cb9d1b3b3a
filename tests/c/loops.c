// break and continue in nested loops, do-while, for with a declaration.
// expect: pairs = 12, odd = 25, dw = 3, skipped = 3, cnt = [2, 31, 1, 1, 0, 55]
int pairs, odd, dw, skipped;
int cnt[6];
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
    // Counting loops near the edges of the 8-bit range.
    for (int i = 120; i < 125; i += 3) cnt[0]++;   // 120, 123; stops at 126 (no wrap)
    for (int i = -128; i <= 112; i += 8) cnt[1]++;
    for (int i = -100; i < 100; i++) {
        if (i < -99) cnt[2]++;
        if (i >= 99) cnt[3]++;
        assert(i > -101 && i <= 99 && i - 1 < i);
    }
    for (int i = 5; i < 3; i++) cnt[4]++;
    for (int i = 0; i <= 10; i++) cnt[5] += i;
    return 0;
}
