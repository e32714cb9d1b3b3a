// Division by zero stops with a fault naming the line.
// expect: before = 1
// fault: division by zero @ 10
// unwritten: x
int before;
int d;
int main() {
    before = 1;
    int x = 10;
    x = x / d;
    before = 2;
    return 0;
}
