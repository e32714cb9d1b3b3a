// The Console: what a C program prints, filled while it runs and while stepping (the
// character the current step printed highlighted), in the page and in the embed widget.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

const HELLO = `#include <stdio.h>
int n = 42;
int main() {
    puts("hi");
    printf("%d\\n", n);
    for (int i = 0; i < 3; i++) putchar('a' + i);
    return 0;
}
`;

const consoleText = (page) => page.eval(() => document.querySelector('[data-testid="console"]').textContent);
const printed = (page) =>
  page.eval(() => document.querySelector('[data-testid="console-printed"]')?.textContent ?? null);

export const tests = [
  [
    "stepping fills the Console one character at a time, the newest highlighted",
    async (page) => {
      await page.setSource(HELLO);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      assert.equal(await consoleText(page), "");
      await page.blur();
      // Step until the first character appears: it is 'h', highlighted.
      await until("the first character", async () => {
        if ((await consoleText(page)) !== "") return true;
        await page.stepOnce();
        return false;
      });
      assert.equal(await consoleText(page), "h");
      assert.equal(await printed(page), "h");
      await page.shot("50-console-first-char");
      // Each write is one step: the next prints 'i', then the newline.
      await page.click(tid("step"));
      await until("the second character", async () => (await consoleText(page)) === "hi");
      assert.equal(await printed(page), "i");
    },
  ],
  [
    "running prints the whole text, as loom run --json reports it",
    async (page) => {
      await page.select(tid("speed"), "0");
      await page.click(tid("run"));
      await page.expectText("status", "halted");
      assert.equal(await consoleText(page), "hi\n42\nabc");
      await page.shot("51-console-halted");
    },
  ],
  [
    "stepping back takes printed characters back off",
    async (page) => {
      // Back over the loop's last steps to the one before the last putchar: its 'c' is gone.
      await until("the last character to go", async () => {
        if ((await consoleText(page)) !== "hi\n42\nabc") return true;
        await page.click(tid("step-back"));
        return false;
      });
      assert.equal(await consoleText(page), "hi\n42\nab");
      await page.click(tid("step"));
      await until("the step to print it again", async () => (await consoleText(page)) === "hi\n42\nabc");
      assert.equal(await printed(page), "c");
      await page.shot("51b-console-stepped-back");
    },
  ],
  [
    "the embed widget's console panel",
    async (page) => {
      const src = encodeURIComponent(HELLO);
      await page.open(`index.html?embed&panels=editor,console#src=${src}&config=small`);
      await page.expectText("status", /loaded|paused/);
      assert.ok((await page.count(tid("console"))) === 1, "the widget shows a console");
      await page.click(tid("run"));
      await page.expectText("status", "halted");
      await until("the widget's console to fill", async () => (await consoleText(page)) === "hi\n42\nabc");
      await page.shot("52-console-embed");
    },
  ],
];
