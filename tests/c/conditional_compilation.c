// Conditional compilation: #if with constant expressions and `defined`,
// #elif/#else, #ifdef/#ifndef/#undef, nesting, skipped text that is not C,
// line splicing, and the headers' macros (EOF, NULL, true/false, CHAR_BIT).
// output: "level 2\nfeature on\nno debug\nbig\nsplice 3\n-1 1 1 0\n"
// expect: picked = 3, bits_ok = 1
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#define LEVEL 2
#define FEATURE
#define DEBUG
#undef DEBUG
int picked;
int bits_ok = CHAR_BIT >= 8;
int main() {
#if LEVEL == 1
    printf("level 1\n");
#elif LEVEL == 2 && defined(FEATURE)
    printf("level %d\n", LEVEL);
#else
    printf("level other\n");
#endif
#ifdef FEATURE
    printf("feature on\n");
#endif
#ifndef DEBUG
    printf("no debug\n");
#else
    printf("debug\n");
#endif
#if 0
    This is not C: it's skipped, even 1.5 and an unclosed ' quote.
#endif
#if (LEVEL << 4) + 1 > 32 ? 1 : 1 / 0
#  if !defined(UNDEFINED) || UNDEFINED
    printf("big\n");
#  endif
#endif
#define LONG_SUM(a, b, c) \
    ((a) +            \
     (b) + (c))
    picked = LONG_SUM(1, 1, 1);
    printf("splice %d\n", picked);
    printf("%d %d %d %d\n", EOF, NULL == 0, true, false);
    return 0;
}
