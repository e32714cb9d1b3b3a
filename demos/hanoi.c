// Towers of Hanoi: a recursive solver that prints every move it makes.
//
// The host writes `disks` (3..5; anything else: 4) before the run. The pegs are
// drawn from `tower`, a 5-row by 3-peg grid: row 0 is the top, tower[r * 3 + p]
// holds the size of the disk at that height on peg p (0: empty). `frame()`
// after every move lets the page draw; the Console shows the moves as printed.
#include <stdio.h>

#define ROWS 5

int disks;            // host: how many disks
int moves;            // moves made so far (at most 31)
int tower[3 * ROWS];  // the pegs, drawn by the page
int height[3];        // disks on each peg

// Takes the top disk of peg `from` and puts it on peg `to`.
void move(int from, int to) {
    int top = (ROWS - height[from]) * 3 + from;
    int d = tower[top];
    tower[top] = 0;
    height[from]--;
    height[to]++;
    tower[(ROWS - height[to]) * 3 + to] = d;
    moves++;
    printf("%d: disk %d %c -> %c\n", moves, d, 'A' + from, 'A' + to);
    frame();
}

// Moves `n` disks from `from` to `to`, using `via` for the ones on top.
void hanoi(int n, int from, int to, int via) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to);
    move(from, to);
    hanoi(n - 1, via, to, from);
}

void main() {
    if (disks < 3 || disks > ROWS) disks = 4;
    for (int i = 0; i < disks; i++) tower[(ROWS - disks + i) * 3] = i + 1;
    height[0] = disks;
    printf("%d disks from A to C\n", disks);
    hanoi(disks, 0, 2, 1);
    printf("done in %d moves\n", moves);
}
