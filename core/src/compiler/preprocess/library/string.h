/* <string.h>: strings are char arrays ending in '\0'. Memory holds one value per slot,
   not bytes, and there is no void *: the mem functions take char arrays (n counts chars),
   and the functions that return their destination in C return nothing here (a function
   cannot return a pointer yet). */

size_t strlen(char *s) {
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int strcmp(char *a, char *b) {
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    return (unsigned char)a[i] - (unsigned char)b[i];
}

int strncmp(char *a, char *b, size_t n) {
    size_t i = 0;
    if (n == 0)
        return 0;
    while (i + 1 < n && a[i] && a[i] == b[i])
        i++;
    return (unsigned char)a[i] - (unsigned char)b[i];
}

void strcpy(char *dst, char *src) {
    size_t i = 0;
    while ((dst[i] = src[i]))
        i++;
}

/* Copies at most n chars and pads with '\0' up to n; no '\0' when src is n long or longer. */
void strncpy(char *dst, char *src, size_t n) {
    size_t i = 0;
    while (i < n && src[i]) {
        dst[i] = src[i];
        i++;
    }
    while (i < n) {
        dst[i] = 0;
        i++;
    }
}

void strcat(char *dst, char *src) {
    size_t i = 0, j = 0;
    while (dst[i])
        i++;
    while ((dst[i] = src[j])) {
        i++;
        j++;
    }
}

void memset(char *p, int c, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        p[i] = c;
}

void memcpy(char *dst, char *src, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        dst[i] = src[i];
}

int memcmp(char *a, char *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i])
            return (unsigned char)a[i] - (unsigned char)b[i];
    return 0;
}
