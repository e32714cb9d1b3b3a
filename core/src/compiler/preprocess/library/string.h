/* <string.h>: strings are char arrays ending in '\0'. Memory holds one value per slot,
   not bytes, and there is no void *: the mem functions take char arrays (n counts chars)
   and return nothing; the str functions return what C's return. */

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

char *strcpy(char *dst, char *src) {
    size_t i = 0;
    while ((dst[i] = src[i]))
        i++;
    return dst;
}

/* Copies at most n chars and pads with '\0' up to n; no '\0' when src is n long or longer. */
char *strncpy(char *dst, char *src, size_t n) {
    size_t i = 0;
    while (i < n && src[i]) {
        dst[i] = src[i];
        i++;
    }
    while (i < n) {
        dst[i] = 0;
        i++;
    }
    return dst;
}

char *strcat(char *dst, char *src) {
    size_t i = 0, j = 0;
    while (dst[i])
        i++;
    while ((dst[i] = src[j])) {
        i++;
        j++;
    }
    return dst;
}

/* The first c (converted to char) in s, its '\0' included; NULL when there is none. */
char *strchr(char *s, int c) {
    size_t i = 0;
    while (s[i] != (char)c) {
        if (!s[i])
            return NULL;
        i++;
    }
    return s + i;
}

/* The last c in s, its '\0' included; NULL when there is none. */
char *strrchr(char *s, int c) {
    char *last = NULL;
    size_t i = 0;
    for (;;) {
        if (s[i] == (char)c)
            last = s + i;
        if (!s[i])
            return last;
        i++;
    }
}

/* The first place needle occurs in haystack (haystack itself for ""); NULL when none. */
char *strstr(char *haystack, char *needle) {
    size_t i = 0, j;
    for (;;) {
        j = 0;
        while (needle[j] && haystack[i + j] == needle[j])
            j++;
        if (!needle[j])
            return haystack + i;
        if (!haystack[i])
            return NULL;
        i++;
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
