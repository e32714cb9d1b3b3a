// <string.h>'s searches and functions returning pointers: strchr, strrchr and strstr find
// a character or a string (NULL when absent, the '\0' counts), strcpy and strcat return
// their destination, and a function of the program returns a pointer into an array.
// config: default32
// oracle: gcc
// output: "strchr 2 -1 5 world\nstrrchr 7 -1 orld\nstrstr 6 -1 0 2\nchain hello!? 7\nmax 9 @2\nwords: one two three\n"
// expect: found = 3
#include <stdio.h>
#include <string.h>
int found;
int at(char *base, char *p) { return p ? (int)(p - base) : -1; }
int *largest(int *v, int n) {
    int *best = v;
    for (int i = 1; i < n; i++)
        if (v[i] > *best) best = &v[i];
    return best;
}
char *skip_spaces(char *s) {
    while (*s == ' ') s++;
    return s;
}
int main(void) {
    char s[] = "hello world";
    printf("strchr %d %d %d %s\n", at(s, strchr(s, 'l')), at(s, strchr(s, 'z')), at(s, strchr(s, ' ')), strchr(s, 'w'));
    printf("strrchr %d %d %s\n", at(s, strrchr(s, 'o')), at(s, strrchr(s, 'q')), strrchr(s, 'o'));
    printf("strstr %d %d %d %d\n", at(s, strstr(s, "wor")), at(s, strstr(s, "word")), at(s, strstr(s, "")), at(s, strstr(s, "llo")));
    found = (strchr(s, '\0') == s + 11) + (strrchr(s, 0) == s + 11) + (strstr("abc", "abcd") == NULL);
    char buf[16];
    char *end = strcat(strcpy(buf, "hello"), "!?");
    printf("chain %s %d\n", end, (int)strlen(buf));
    int v[5] = {4, 1, 9, 3, 9};
    int *m = largest(v, 5);
    *m = *m;
    printf("max %d @%d\n", *m, (int)(m - v));
    char line[] = "   one two three";
    char *w = skip_spaces(line);
    printf("words: %s\n", w);
    return 0;
}
