// Stepping by instruction, by layer, by source line, and back, from the keyboard and the toolbar.
import { tid, until } from "../harness/page.mjs";
import { SUM } from "../harness/programs.mjs";

/** What identifies the machine's state on the page. */
async function snapshot(page) {
  const { steps, pc, agree } = await page.statusBar();
  return { steps, pc, agree, vars: await page.variables() };
}

export const tests = [
  [
    "stepping instructions and layers: the layer walks L1…L8, the PC and a variable change",
    async (page) => {
      await page.setSource(SUM);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      await page.blur();
      const pc0 = await page.text("pc");
      await page.press("ArrowRight");
      await page.expectText("step-count", /^1$/);
      if ((await page.text("pc")) === pc0) throw new Error("the PC did not change");
      const layers = [];
      for (let i = 0; i < 8; i++) {
        await page.press("Alt+ArrowRight");
        await page.expectText("layer", `L${i + 1}`);
        layers.push(await page.text("layer"));
        if (i === 0) {
          await page.expectText("attention", "reads");
          await page.shot("03-layer-L1");
        }
      }
      await page.shot("04-layer-L8");
      await page.expectText("step-count", /^2$/);
      const before = (await page.variables()).sum;
      for (let i = 0; i < 20 && (await page.variables()).sum === before; i++) await page.stepOnce();
      if ((await page.variables()).sum === before) throw new Error("sum never changed");
      await until("the changed variable to be highlighted", async () => (await page.count(`${tid("variables")} tr.changed`)) > 0);
      await page.shot("05-variable-changed");
      console.log(`     layers: ${layers.join(" | ")}`);
    },
  ],
  [
    "step back returns to the same state",
    async (page) => {
      await page.blur();
      const here = await snapshot(page);
      await page.press("ArrowRight");
      await until("a step", async () => (await page.text("step-count")) !== here.steps);
      await page.press("ArrowLeft");
      await page.expectText("step-count", new RegExp(`^${here.steps}$`));
      const back = await snapshot(page);
      if (JSON.stringify(back) !== JSON.stringify(here)) throw new Error(`${JSON.stringify(back)} != ${JSON.stringify(here)}`);
      await page.click(tid("step-line"));
      await until("step line", async () => (await page.steps()) > Number(here.steps));
      await page.shot("06-stepped-back-and-line");
    },
  ],
];
