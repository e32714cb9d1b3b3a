// Programs the specs type into the playground.
import { readFileSync } from "node:fs";

/** Sum of 1..100 in C: 5050 wraps to -70 in the default configuration's 8-bit words. */
export const SUM = `// Sum of the first n numbers.
int n = 100;
int sum = 0;

int main() {
    while (n > 0) {
        sum = sum + n;
        n = n - 1;
    }
    return 0;
}
`;

/** SUM with a syntax error on line 7. */
export const SUM_BROKEN = SUM.replace("sum = sum + n;", "sum = sum + ;");

/** tests/asm/countdown.s: sums 10..1 into `sum` (55). */
export const COUNTDOWN = readFileSync(new URL("../../asm/countdown.s", import.meta.url), "utf8");
