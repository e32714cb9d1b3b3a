// Two-dimensional arrays with initialisers, indexed and passed by row.
// expect: m = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], trace = 18, row = 26, g = [1, 0, 0, 2, 3, 0]
int m[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
int g[3][2] = {{1}, {0, 2}, {3}};
int trace, row;
int sum_row(int r[], int n) { int s = 0; for (int i = 0; i < n; i++) s += r[i]; return s; }
int main() {
    for (int i = 0; i < 3; i++) trace += m[i][i];
    row = sum_row(m[1], 4);
    int local[2][3] = {{1, 2, 3}, {4, 5, 6}};
    assert(local[1][2] == 6 && local[0][1] == 2);
    int k = 1;
    local[k][k] = 50;
    assert(local[1][1] == 50);
    return 0;
}
