// char is an N-bit word, as int: character literals, char arrays, a string
// walked with a pointer until its '\0'.
// expect: upper = [72, 73, 0], n = 2, c = 97
char upper[3];
int n;
char c = 'a';
int length(char *s) { int k = 0; while (s[k]) k++; return k; }
int main() {
    char word[3] = {'h', 'i', '\0'};
    n = length(word);
    for (char *p = word; *p; p++) upper[p - word] = *p - 32;
    return 0;
}
