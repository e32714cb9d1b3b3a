// typedef of integer, pointer and array types; enum with explicit values and
// constant expressions, in `switch`, as array sizes, shadowed by locals.
// config: large16
// output: "sum 10 big 300\nred 0 green 5 blue 6\nmask 7 shift 8 neg -2 last -1\nGREEN BLUE RED other\nrow 10 26\nbyte 44 small 1\nshadow 3 7\nunsigned 0 1\n"
// expect: counts = [1, 0, 0, 0, 0, 2, 1]
#include <stdio.h>
typedef int number;
typedef unsigned char byte;
typedef int *int_ptr;
typedef int row[4];
typedef number count_t;
enum color { RED, GREEN = 5, BLUE };
enum { SHIFT = 1 << 3, MASK = SHIFT - 1, NEG = -2, LAST };
enum size { SMALL = 'a' - 'a' + 1, COLORS = BLUE + 1 };
int counts[COLORS];
number total(int_ptr p, count_t n) {
    number s = 0;
    for (count_t i = 0; i < n; i++) s += p[i];
    return s;
}
void show(enum color c) {
    switch (c) {
    case RED: printf("RED"); break;
    case GREEN: printf("GREEN"); break;
    case BLUE: printf("BLUE"); break;
    default: printf("other");
    }
}
int main() {
    number xs[4] = {1, 2, 3, 4};
    int_ptr p = xs;
    printf("sum %d big %d\n", total(p, 4), (number)300);
    printf("red %d green %d blue %d\n", RED, GREEN, BLUE);
    printf("mask %d shift %d neg %d last %d\n", MASK, SHIFT, NEG, LAST);
    enum color seq[4] = {GREEN, BLUE, RED, 9};
    for (int i = 0; i < 4; i++) {
        show(seq[i]);
        putchar(i < 3 ? ' ' : '\n');
    }
    for (int i = 0; i < 3; i++) counts[seq[i]]++;
    counts[GREEN]++;
    row m[2] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    printf("row %d %d\n", m[0][0] + m[0][1] + m[0][2] + m[0][3], m[1][0] + m[1][1] + m[1][2] + m[1][3]);
    byte b = (byte)300;
    printf("byte %d small %d\n", b, SMALL);
    {
        int RED = 3;
        typedef int GREEN_t;
        GREEN_t number = 7;
        printf("shadow %d %d\n", RED, number);
    }
    enum color c = RED;
    printf("unsigned %d %d\n", c - 1 < 0, NEG < 0);
    return 0;
}
