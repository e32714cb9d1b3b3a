// FizzBuzz to 15: printf with %d inside branches and a loop.
// output: "1 2 Fizz 4 Buzz Fizz 7 8 Fizz Buzz 11 Fizz 13 14 FizzBuzz \n"
// expect: fizz = 4, buzz = 2
#include <stdio.h>
int fizz, buzz;
int main() {
    for (int i = 1; i <= 15; i++) {
        if (i % 15 == 0) printf("FizzBuzz ");
        else if (i % 3 == 0) { printf("Fizz "); fizz++; }
        else if (i % 5 == 0) { printf("Buzz "); buzz++; }
        else printf("%d ", i);
    }
    printf("\n");
    return 0;
}
