// `return` leaves the function from anywhere, including inside loops.
// expect: first = 3, sign_neg = -1, sign_pos = 1, count = 5
int first, sign_neg, sign_pos, count;
int xs[6] = {4, 9, 1, 7, 7, 2};
int find(int v) {
    for (int i = 0; i < 6; i++) {
        if (xs[i] == v) return i;
    }
    return -1;
}
int sign(int v) {
    if (v < 0) return -1;
    if (v == 0) return 0;
    return 1;
}
void bump() {
    while (1) {
        count++;
        if (count >= 5) return;
    }
    count = 100;
}
int main() {
    first = find(7);
    assert(find(5) == -1);
    sign_neg = sign(-50);
    sign_pos = sign(50);
    assert(sign(0) == 0);
    bump();
    return 0;
    count = 99;
}
