// Compiling: errors are squiggled and listed, a fix compiles (Ctrl+Enter in the editor).
import { tid } from "../harness/page.mjs";
import { SUM, SUM_BROKEN } from "../harness/programs.mjs";
import { until } from "../harness/page.mjs";

export const tests = [
  [
    "a compile error shows a squiggle and a list entry; fixing it compiles",
    async (page) => {
      await page.expectText("status", "loaded");
      await page.setSource(SUM_BROKEN);
      await page.click(tid("compile"));
      await page.expectText("status", "error");
      await page.expectText("diagnostics", "7:");
      await until("a squiggle", async () => (await page.count(".cm-lintRange-error")) > 0);
      await page.shot("02-error");
      await page.click(`${tid("diagnostics")} button`);
      await page.setSource(SUM);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      if ((await page.text("diagnostics")).trim() !== "") throw new Error("diagnostics left over");
    },
  ],
];
