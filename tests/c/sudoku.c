// A 9×9 Sudoku solver (iterative backtracking) that must fit `compact`.
// Givens are stored negated while solving so backtracking can skip them.
// expect: solved = 1
int g[81] = {
    5, 3, 0, 0, 7, 0, 0, 0, 0,
    6, 0, 0, 1, 9, 5, 0, 0, 0,
    0, 9, 8, 0, 0, 0, 0, 6, 0,
    8, 0, 0, 0, 6, 0, 0, 0, 3,
    4, 0, 0, 8, 0, 3, 0, 0, 1,
    7, 0, 0, 0, 2, 0, 0, 0, 6,
    0, 6, 0, 0, 0, 0, 2, 8, 0,
    0, 0, 0, 4, 1, 9, 0, 0, 5,
    0, 0, 0, 0, 8, 0, 0, 7, 9
};
int solved;

int ok(int i, int v) {
    int r = i / 9;
    int c = i - r * 9;
    int br = r / 3 * 27 + c / 3 * 3;
    for (int k = 0; k < 9; k++) {
        if (abs(g[r * 9 + k]) == v) return 0;
        if (abs(g[k * 9 + c]) == v) return 0;
    }
    for (int dr = 0; dr < 27; dr += 9) {
        for (int dc = 0; dc < 3; dc++) {
            if (abs(g[br + dr + dc]) == v) return 0;
        }
    }
    return 1;
}

int main() {
    for (int i = 0; i < 81; i++) g[i] = -g[i];
    int i = 0;
    while (i < 81) {
        if (g[i] < 0) { i++; continue; }
        int v = g[i] + 1;
        while (v <= 9 && !ok(i, v)) v++;
        if (v <= 9) {
            g[i] = v;
            i++;
        } else {
            g[i] = 0;
            i--;
            while (g[i] < 0) i--;
        }
    }
    for (int k = 0; k < 81; k++) g[k] = abs(g[k]);
    // Every row, column and box sums to 45.
    for (int k = 0; k < 9; k++) {
        int rs = 0, cs = 0;
        for (int j = 0; j < 9; j++) { rs += g[k * 9 + j]; cs += g[j * 9 + k]; }
        assert(rs == 45 && cs == 45);
    }
    assert(g[2] == 4 && g[80] == 9);
    solved = 1;
    return 0;
}
