// Sorting with a[i] = b[j] style element copies.
// expect: xs = [-90, -3, 0, 7, 42, 100]
int xs[6] = {42, -3, 100, 0, -90, 7};
int main() {
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5 - i; j++) {
            if (xs[j] > xs[j + 1]) {
                int t = xs[j];
                xs[j] = xs[j + 1];
                xs[j + 1] = t;
            }
        }
    }
    for (int i = 0; i < 5; i++) assert(xs[i] <= xs[i + 1]);
    return 0;
}
