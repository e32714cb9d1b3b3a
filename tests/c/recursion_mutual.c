// Mutual recursion (is_even ↔ is_odd) and recursion through an inlined helper.
// expect: e = 1, o = 0, h = 7, depth = 0
int e, o, h, depth;
int is_odd(int n);
int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
int moves;
void step() { moves++; }
void hanoi(int n, int from, int to, int via) {
    if (n == 0) return;
    depth++;
    hanoi(n - 1, from, via, to);
    step();
    hanoi(n - 1, via, to, from);
    depth--;
}
int main() {
    e = is_even(10);
    o = is_even(7);
    hanoi(3, 1, 3, 2);
    h = moves;
    return 0;
}
