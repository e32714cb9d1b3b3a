// Sorting visualizer: the host writes `values` and picks `algo`; the program
// sorts in place and pauses at frame() after every pass so the page can draw.
//
// algo: 0 bubble sort, 1 insertion sort, 2 selection sort.
// Every comparison reads the array and every move writes it, with nothing
// else in between, so the attention heads' reads and writes show which bars
// are being compared and moved.

#define LEN 12

int values[LEN];  // host: the numbers to sort, 1..99 (all zero: the program makes some up)
int algo;         // host: which algorithm
int compares;     // comparisons made so far (at most 66 for LEN 12, so it fits 8 bits)
int moves;        // swaps (bubble, selection) or shifts (insertion) so far, at most 66

void main() {
    int i;
    int j;
    int a;
    int b;
    int m;
    // Nothing written by the host: make up a shuffled input with an LCG so a
    // plain run still sorts something.
    if (values[0] == 0) {
        a = 7;
        for (i = 0; i < LEN; i++) {
            a = (a << 2) + a + 3;
            values[i] = ((a >> 2) & 63) + 1;
        }
    }
    if (algo == 0) {
        // Bubble sort: swap neighbours; stop after a pass without swaps.
        for (i = LEN - 1; i > 0; i--) {
            m = 0;
            for (j = 0; j < i; j++) {
                a = values[j];
                b = values[j + 1];
                compares++;
                if (a > b) {
                    values[j] = b;
                    values[j + 1] = a;
                    moves++;
                    m = 1;
                }
            }
            frame();
            if (m == 0) break;
        }
    } else if (algo == 1) {
        // Insertion sort: shift larger elements right, drop the key in the gap.
        for (i = 1; i < LEN; i++) {
            b = values[i];
            j = i;
            while (j > 0) {
                a = values[j - 1];
                compares++;
                if (a <= b) break;
                values[j] = a;
                moves++;
                j--;
            }
            values[j] = b;
            frame();
        }
    } else {
        // Selection sort: find the smallest of the rest, swap it to the front.
        for (i = 0; i < LEN - 1; i++) {
            m = i;
            b = values[i];
            for (j = i + 1; j < LEN; j++) {
                a = values[j];
                compares++;
                if (a < b) {
                    m = j;
                    b = a;
                }
            }
            if (m != i) {
                values[m] = values[i];
                values[i] = b;
                moves++;
            }
            frame();
        }
    }
}
