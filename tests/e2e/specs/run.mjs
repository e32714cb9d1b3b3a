// Running: run and pause at a speed, a breakpoint from the gutter, running to the end, a fault.
import { tid, until } from "../harness/page.mjs";
import { SUM } from "../harness/programs.mjs";

export const tests = [
  [
    "run and pause",
    async (page) => {
      await page.setSource(SUM);
      await page.press("Control+Enter");
      // (The example was "loaded" too, with n = 10: wait for SUM's build, answered from the worker.)
      await until("SUM's build", async () => (await page.variables()).n === "100");
      await page.expectText("status", "loaded");
      await page.select(tid("speed"), "100");
      await page.click(tid("run"));
      await page.expectText("status", "running");
      const a = await page.steps();
      await until("steps to advance", async () => (await page.steps()) > a + 5);
      await page.click(tid("run"));
      await page.expectText("status", "paused");
      const b = await page.text("step-count");
      await new Promise((r) => setTimeout(r, 300));
      if ((await page.text("step-count")) !== b) throw new Error("still running after pause");
    },
  ],
  [
    "a breakpoint from the gutter stops the run on its line; the run ends with the sum",
    async (page) => {
      await page.select(tid("speed"), "0");
      // Gutter cell 0 is CodeMirror's spacer: cell 8 is line 8 (n = n - 1;).
      const gutter = `${tid("editor")} .cm-loom-breakpoints .cm-gutterElement:nth-child(9)`;
      await page.click(gutter);
      await page.click(tid("run"));
      await page.expectText("pc", "(line 8)");
      await page.expectText("status", "paused");
      await page.shot("07-breakpoint");
      await page.click(gutter);
      await page.click(tid("run"));
      await page.expectText("status", "halted");
      const { sum } = await page.variables();
      if (sum !== "-70") throw new Error(`sum = ${sum}`);
      await page.expectText("agree", "✓");
      await page.shot("07b-halted");
    },
  ],
  [
    "a faulting assignment keeps its variable's old value and says so beside it",
    async (page) => {
      await page.setSource("int a = 7, r, zero;\nint main() {\n    r = 5;\n    r = a / zero;\n    return 0;\n}\n");
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      await page.click(tid("run"));
      await page.expectText("status", "fault at line 4");
      const { r } = await page.variables();
      if (!/^5\s+not written: division by zero$/.test(r)) throw new Error(`r shows ${JSON.stringify(r)}`);
      await page.expectText("unwritten", "not written: division by zero");
      await page.shot("07c-unwritten");
    },
  ],
];
