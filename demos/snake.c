// Snake on an 8×8 board. One frame() per tick: at each frame the host draws
// `screen` and may write `key`; the program moves the snake, eats, grows,
// places food with its own random generator and detects collisions.

#define W 8           // board width and height; cells are y * 8 + x
#define CELLS 64
#define MAXLEN 40     // the ring buffer of body cells; reaching it wins
#define EMPTY 0
#define BODY 1
#define HEAD 2
#define FOOD 3

int screen[CELLS];    // display: 0 empty, 1 body, 2 head, 3 food
int key;              // host: 0 none, 1 up, 2 right, 3 down, 4 left; consumed each tick
int seed;             // host: random seed, read once at the start
int score;            // food eaten
int game_over;        // 0 playing, 1 crashed into a wall or itself, 2 won (length MAXLEN)
int length;
int body[MAXLEN];     // ring buffer of the snake's cells, tail first
int tail;             // ring index of the tail
int head;             // ring index of the head
int dir;              // current direction, same codes as `key`
int rng;              // LCG state: rng = 5 * rng + 1 (mod 256), period 256

void main() {
    int x;
    int y;
    int k;
    int cell;
    int ate;
    rng = seed;
    // A snake of length 3 in row 4, heading right, head at (2, 4).
    x = 2;
    y = 4;
    body[0] = 32;
    body[1] = 33;
    body[2] = 34;
    screen[32] = BODY;
    screen[33] = BODY;
    screen[34] = HEAD;
    tail = 0;
    head = 2;
    length = 3;
    dir = 2;
    ate = 1;
    while (game_over == 0) {
        if (ate) {
            // Food on a random free cell: draw one, then walk to the next free
            // one (the board is never full: the snake stops at MAXLEN < CELLS).
            rng = (rng << 2) + rng + 1;
            cell = (rng >> 2) & (CELLS - 1);
            while (screen[cell] != EMPTY) cell = (cell + 1) & (CELLS - 1);
            screen[cell] = FOOD;
        }
        frame();
        // Turn, unless the key asks to reverse into the neck.
        k = key;
        key = 0;
        if (k != 0 && abs(k - dir) != 2) dir = k;
        if (dir == 1) y--;
        else if (dir == 2) x++;
        else if (dir == 3) y++;
        else x--;
        // Any bit outside 0..7 in x or y means the snake left the board.
        if ((x | y) & -W) {
            game_over = 1;
            break;
        }
        cell = (y << 3) + x;
        ate = screen[cell] == FOOD;
        if (ate) {
            score++;
            length++;
        } else {
            // The tail moves away first, so the head may enter its cell.
            screen[body[tail]] = EMPTY;
            tail++;
            if (tail == MAXLEN) tail = 0;
            if (screen[cell] == BODY) {
                game_over = 1;
                break;
            }
        }
        screen[body[head]] = BODY;
        head++;
        if (head == MAXLEN) head = 0;
        body[head] = cell;
        screen[cell] = HEAD;
        if (length == MAXLEN) game_over = 2;
    }
}
