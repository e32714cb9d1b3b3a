// An array of 4,000 words: only `large32` holds it (and `--config auto` picks it).
// config: large32
// expect: total = 16000000, last = 7999
int a[4000];
int total, last;
int main() {
    for (int i = 0; i < 4000; i++) a[i] = 2 * i + 1;
    for (int i = 0; i < 4000; i++) total += a[i];
    last = a[3999];
    return 0;
}
