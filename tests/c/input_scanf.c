// config: large16
// expect: results = [3, 1, 2, 1, 0, -1]
// output: "12 -7 ff\n[ab] [cd]\nword=Hello 42 x=40 rest=14\nu+1=0 got 1\nnext 'z'\n1 then 0 at 'q'\nEOF: -1\n"
// Each conversion of scanf with widths and literals; its results and what is left to read.
#include <stdio.h>

int results[6];

int main(void) {
    int a, b, n;
    unsigned h, u;
    char pair[2], pair2[2], word[8];
    results[0] = scanf("%d %d %x", &a, &b, &h);
    printf("%d %d %x\n", a, b, h);
    results[1] = scanf(" %2c", pair);
    scanf("%2c", pair2);
    printf("[%c%c] [%c%c]\n", pair[0], pair[1], pair2[0], pair2[1]);
    results[2] = scanf("%5s %2d", word, &n);
    printf("word=%s %d", word, n);
    scanf("%d", &n);
    printf(" x=%d", n);
    scanf(",%x", &h);
    printf(" rest=%d\n", h);
    results[3] = scanf("%u", &u);
    printf("u+1=%u got %d\n", u + 1u, results[3]);
    getchar();
    printf("next '%c'\n", getchar());
    results[4] = scanf("%d,%d", &a, &b);
    printf("%d then %d at '%c'\n", results[3], results[4], getchar());
    results[5] = scanf("%d", &a);
    printf("EOF: %d\n", results[5]);
    return 0;
}
