// Array parameters: a function sorts any array it is given.
// expect: v = [1, 2, 3, 5, 8, 9], w = [-4, 0, 7], m = 9
int v[6] = {5, 3, 9, 1, 8, 2};
int w[3] = {7, -4, 0};
int m;
void sort(int a[], int n) {
    for (int i = 1; i < n; i++) {
        int x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}
int largest(int *a, int n) { int best = a[0]; for (int i = 1; i < n; i++) best = max(best, a[i]); return best; }
int main() {
    sort(v, 6);
    sort(w, 3);
    m = largest(v, 6);
    return 0;
}
