// 9×9 Sudoku by iterative backtracking (no recursion: a cursor walks the
// cells forwards and backwards). The host writes the puzzle into `grid`
// (0 = empty) and runs to the end; `solved` tells the outcome.
//
// Givens are turned negative at the start (-5 is a given 5) so the walk can
// tell them from its own placements without a second 81-word array; they stay
// negative, so a page can draw them differently.
//
// A first walk checks every given against its peers, so an invalid puzzle is
// reported before any search; the second walk solves.
//
// For each cell visited, the digits its 27 peers hold are marked in `used`
// with a fresh stamp (no clearing pass); then the next free digit is tried.

#define CELLS 81

int grid[CELLS];    // host: the puzzle, row by row, 0 = empty; afterwards the solution
int solved;         // 0 running, 1 solved, -1 no solution or an invalid puzzle
int placements;     // digits placed: placements_hi * 256 + (placements & 255)
int placements_hi;
int backtracks;     // cells given up: backtracks_hi * 256 + (backtracks & 255)
int backtracks_hi;
int used[10];       // used[d] == stamp: a peer of the current cell holds d

void main() {
    int i;          // the cursor, 0..80
    int col;        // its column 0..8
    int row;        // index of its row's first cell: 0, 9, .., 72
    int dir;        // +1 walking forwards, -1 backtracking
    int checking;   // 1 during the first walk (givens only), 0 while solving
    int stamp;
    int cur;
    int g;
    int k;
    int rp;         // peer cursors: along the row, down the column, through the box
    int cp;
    int bp;
    int run;        // cells left in the current box row
    for (i = 0; i < CELLS; i++) {
        g = grid[i];
        if (g < 0 || g > 9) {
            solved = -1;
            return;
        }
        grid[i] = -g;
    }
    i = 0;
    col = 0;
    row = 0;
    dir = 1;
    checking = 1;
    stamp = 0;
    while (1) {
        cur = grid[i];
        // The first walk visits the givens, the second the other cells.
        if ((cur < 0) == checking) {
            // Mark the digits of every peer (the cell itself is cleared first).
            grid[i] = 0;
            stamp++;
            if (stamp == 0) {
                for (k = 0; k < 10; k++) used[k] = 0;
                stamp = 1;
            }
            rp = row;
            cp = col;
            if (col >= 6) bp = 6;
            else if (col >= 3) bp = 3;
            else bp = 0;
            if (row >= 54) bp += 54;
            else if (row >= 27) bp += 27;
            run = 3;
            for (k = 0; k < 9; k++) {
                used[abs(grid[rp])] = stamp;
                used[abs(grid[cp])] = stamp;
                used[abs(grid[bp])] = stamp;
                rp++;
                cp += 9;
                bp++;
                run--;
                if (run == 0) {
                    run = 3;
                    bp += 6;
                }
            }
            if (cur < 0) {
                // A given that a peer repeats: the puzzle is invalid.
                grid[i] = cur;
                if (used[-cur] == stamp) {
                    solved = -1;
                    return;
                }
            } else {
                // The next digit after the current one that no peer holds.
                cur++;
                while (cur <= 9) {
                    if (used[cur] != stamp) break;
                    cur++;
                }
                if (cur <= 9) {
                    grid[i] = cur;
                    dir = 1;
                    placements++;
                    if (placements == 0) placements_hi++;
                } else {
                    dir = -1;
                    backtracks++;
                    if (backtracks == 0) backtracks_hi++;
                }
            }
        }
        i += dir;
        if (i == CELLS) {
            if (checking == 0) {
                solved = 1;
                return;
            }
            checking = 0;
            i = 0;
            col = 0;
            row = 0;
            continue;
        }
        if (i < 0) {
            solved = -1;
            return;
        }
        col += dir;
        if (col == 9) {
            col = 0;
            row += 9;
        } else if (col < 0) {
            col = 8;
            row -= 9;
        }
    }
}
