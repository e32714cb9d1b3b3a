// Pointers: &x, *p, p[i], p + k, p++, comparison and difference, pointer
// parameters, arrays decaying to pointers.
// expect: a = 7, b = 3, xs = [5, 40, 3, 2, 1], total = 51, d = 3, less = 1, last = 1, via = 9
int a = 3, b = 7;
int xs[5] = {5, 4, 3, 2, 1};
int total, d, less, last, via;
void swap(int *p, int *q) { int t = *p; *p = *q; *q = t; }
int sum(int v[], int n) { int s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }
void set(int *p, int v) { *p = v; }
int main() {
    swap(&a, &b);
    int *p = xs;
    p++;
    *p = 40;
    total = sum(xs, 5);
    int *q = &xs[4];
    d = q - p;
    less = p < q;
    last = *q;
    int local = 0;
    set(&local, 9);
    via = local;
    assert(p[1] == 3 && *(p + 2) == 2);
    return 0;
}
