// The Input box: the text a C program reads with scanf and getchar, a byte at a
// time as the transformer runs, in the page and in the embed widget (`input=`).
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

const SUM = `#include <stdio.h>
int main(void) {
    int x, sum = 0;
    while (scanf("%d", &x) == 1)
        sum += x;
    printf("sum %d\\n", sum);
    return 0;
}
`;

const text = (page, id) => page.eval((s) => document.querySelector(s)?.textContent ?? null, tid(id));

export const tests = [
  [
    "a program that reads numbers with scanf prints their sum from the Input box",
    async (page) => {
      await page.open(`index.html#src=${encodeURIComponent(SUM)}&config=compact16`);
      await page.expectText("status", /loaded|paused/);
      await page.click(tid("input"));
      await page.insertText("3 4 35\n");
      await until("the box to count its bytes", async () => (await text(page, "input-read")) === "read 0 of 7 bytes");
      await page.select(tid("speed"), "0");
      await page.click(tid("run"));
      await page.expectText("status", "halted");
      assert.equal(await text(page, "console"), "sum 42\n");
      assert.equal(await text(page, "input-read"), "read 7 of 7 bytes");
      await page.shot("60-input-sum");
    },
  ],
  [
    "Reset reads the text again from its start, and the text stays",
    async (page) => {
      await page.click(tid("reset"));
      await until("the read count to go back", async () => (await text(page, "input-read")) === "read 0 of 7 bytes");
      assert.equal(await page.eval((s) => document.querySelector(s).value, tid("input")), "3 4 35\n");
      await page.click(tid("run"));
      await page.expectText("status", "halted");
      assert.equal(await text(page, "console"), "sum 42\n");
    },
  ],
  [
    "the widget's input= option is what the program reads",
    async (page) => {
      const src = encodeURIComponent(SUM);
      await page.open(`index.html?embed&panels=editor,console&input=5%20-3#src=${src}&config=compact16`);
      await page.expectText("status", /loaded|paused/);
      await page.click(tid("run"));
      await page.expectText("status", "halted");
      await until("the widget's console to fill", async () => (await text(page, "console")) === "sum 2\n");
      await page.shot("61-input-embed");
    },
  ],
];
