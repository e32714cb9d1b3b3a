// config: small
// A branch-heavy loop: the Collatz walk from 7, with a branch on parity, an
// exact comparison for the peak and the loop test every round.
// expect: n = 1, steps = 16, odd = 5, peak = 52
int n, steps, odd, peak;
int main() {
    n = 7;
    while (n != 1) {
        if (n & 1) {
            n = n + n + n + 1;
            odd++;
        } else {
            n = n >> 1;
        }
        if (n > peak) peak = n;
        steps++;
    }
}
