// switch: case, default, fallthrough, break, and continue inside a loop.
// expect: kinds = [2, 1, 3, 0, 3, 1], fall = 6, skipped = 5
int kinds[6];
int fall, skipped;
int classify(int x) {
    switch (x) {
    case 0: return 0;
    case 1:
    case 3:
    case 5: return 1;
    case 2: return 2;
    default: return 3;
    }
}
int main() {
    int xs[6] = {2, 5, 7, 0, -1, 3};
    for (int i = 0; i < 6; i++) kinds[i] = classify(xs[i]);
    switch (2) {
    case 1: fall += 1;
    case 2: fall += 2;
    case 3: fall += 4; break;
    case 4: fall += 8;
    }
    for (int i = 0; i < 6; i++) {
        switch (i % 3) {
        case 0: continue;
        case 1: skipped += i; break;
        default: break;
        }
    }
    return 0;
}
