/* <stdlib.h>: abs and exit are builtins; atoi and the random numbers are C. */

int atoi(char *s) {
    int i = 0, neg = 0, v = 0;
    while (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))
        i++;
    if (s[i] == '-' || s[i] == '+') {
        neg = s[i] == '-';
        i++;
    }
    while (s[i] >= '0' && s[i] <= '9') {
        v = v * 10 + (s[i] - '0');
        i++;
    }
    return neg ? -v : v;
}

/* rand: a linear congruential generator on the machine's unsigned long, starting from
   seed 1 (srand sets it). With 32-bit words it is the C standard's example (C99 7.20.2.2):
   next = next * 1103515245 + 12345, rand = next / 65536 % 32768. With 16-bit words:
   next = next * 25173 + 13849, rand = next / 2. RAND_MAX is 32767 either way. Machines
   with 8-bit words have no rand (RAND_MAX must be at least 32767). */
#if __INT_WIDTH__ >= 16
#define RAND_MAX 32767
unsigned long __rand_next = 1;

int rand(void) {
#if __INT_WIDTH__ >= 32
    __rand_next = __rand_next * 1103515245UL + 12345UL;
    return (int)(__rand_next / 65536UL % 32768UL);
#else
    __rand_next = __rand_next * 25173UL + 13849UL;
    return (int)(__rand_next / 2UL);
#endif
}

void srand(unsigned seed) {
    __rand_next = seed;
}
#endif
