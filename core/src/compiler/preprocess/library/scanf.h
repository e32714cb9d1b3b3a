/* scanf(format, ...) is a builtin: the compiler turns a call into calls of the steps
   below, one per directive of its literal format, threading a state s: s >= 0 is the
   number of conversions so far; once a directive fails, -1 - 2k (the input ended after
   k conversions) or -2 - 2k (a character did not match), which the later steps pass on.
   __input_peek() is the next byte of the input (EOF at its end), left unread;
   __input_next() consumes it. A number's digits wrap on overflow. */

int __scanf_space(int s) {
    int c;
    if (s < 0)
        return s;
    c = __input_peek();
    while (c == ' ' || (c >= '\t' && c <= '\r')) {
        __input_next();
        c = __input_peek();
    }
    return s;
}

int __scanf_lit(int s, int want) {
    int c;
    if (s < 0)
        return s;
    c = __input_peek();
    if (c == EOF)
        return -1 - s - s;
    if ((char)c != want)
        return -2 - s - s;
    __input_next();
    return s;
}

int __scanf_digit(int c, int base) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (base == 16 && c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (base == 16 && c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* %d: white space, a sign, decimal digits; at most w characters (0: any number). */
int __scanf_d(int s, int *p, int w) {
    int c, d, start;
    int n = 0, neg = 0, v = 0;
    if (s < 0)
        return s;
    __scanf_space(s);
    c = __input_peek();
    if (c == EOF)
        return -1 - s - s;
    if (w == 0)
        w = -1;
    if (c == '-' || c == '+') {
        neg = c == '-';
        __input_next();
        n = 1;
    }
    start = n;
    while (n != w && (d = __scanf_digit(__input_peek(), 10)) >= 0) {
        v = v * 10 + d;
        __input_next();
        n++;
    }
    if (n == start)
        return -2 - s - s;
    *p = neg ? -v : v;
    return s + 1;
}

/* %u (base 10) and %x (base 16, after an optional 0x): a sign is allowed, as in C. */
int __scanf_u(int s, unsigned *p, int w, int base) {
    int c, d, start;
    int n = 0, neg = 0;
    unsigned v = 0;
    if (s < 0)
        return s;
    __scanf_space(s);
    c = __input_peek();
    if (c == EOF)
        return -1 - s - s;
    if (w == 0)
        w = -1;
    if (c == '-' || c == '+') {
        neg = c == '-';
        __input_next();
        n = 1;
    }
    start = n;
    while (n != w && (d = __scanf_digit(__input_peek(), base)) >= 0) {
        v = v * base + d;
        __input_next();
        n++;
        if (base == 16 && n == start + 1 && v == 0 && n != w && (__input_peek() | 32) == 'x') {
            __input_next();
            n++;
        }
    }
    if (n == start)
        return -2 - s - s;
    *p = neg ? -v : v;
    return s + 1;
}

/* %c: the next w characters (1 without a width), white space included; no '\0'. */
int __scanf_c(int s, char *p, int w) {
    int c;
    int n = 0;
    if (s < 0)
        return s;
    if (w == 0)
        w = 1;
    while (n != w) {
        c = __input_peek();
        if (c == EOF)
            return -1 - s - s;
        p[n] = c;
        __input_next();
        n++;
    }
    return s + 1;
}

/* %s: white space, then the characters up to the next white space (at most w), and '\0'. */
int __scanf_s(int s, char *p, int w) {
    int c;
    int n = 0;
    if (s < 0)
        return s;
    __scanf_space(s);
    c = __input_peek();
    if (c == EOF)
        return -1 - s - s;
    if (w == 0)
        w = -1;
    while (n != w && c != EOF && !(c == ' ' || (c >= '\t' && c <= '\r'))) {
        p[n] = c;
        __input_next();
        n++;
        c = __input_peek();
    }
    p[n] = 0;
    return s + 1;
}

/* scanf's result: the conversions made, or EOF when the input ended before the first. */
int __scanf_end(int s) {
    if (s >= -1)
        return s;
    return (-s - 1) / 2;
}
