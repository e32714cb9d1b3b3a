// What survives a reload: the draft, the configuration, the theme and a demo.
import { tid, until } from "../harness/page.mjs";
import { SUM_BROKEN } from "../harness/programs.mjs";

export const tests = [
  [
    "the draft and the configuration survive a reload",
    async (page) => {
      await page.expectText("status", "loaded");
      await page.setSource(SUM_BROKEN);
      await page.select(tid("config"), "small");
      await page.expectText("status", "error");
      await page.reload();
      await until("the draft to come back", async () => (await page.text("editor")).includes("sum + ;"));
      await until("the configuration to come back", async () => (await page.value(tid("config"))) === "small");
      await page.shot("09-reloaded");
    },
  ],
  [
    "the theme and a chosen demo survive a reload; the dark heatmap is dark",
    async (page) => {
      const theme = 'button[aria-label="Toggle theme"]';
      const dark = () => page.eval(() => document.documentElement.dataset.theme === "dark");
      for (let i = 0; i < 3 && !(await dark()); i++) await page.click(theme);
      if (!(await dark())) throw new Error("no dark theme");
      await page.select(tid("demo"), "sort");
      await page.expectText("status", "loaded");
      await page.reload();
      await until("the dark theme to come back", dark);
      await until("the demo to come back", async () => (await page.value(tid("demo"))) === "sort");
      await until("its board", () => page.eval(() => !document.querySelector(".demo-slot").hidden && !!document.querySelector('[data-testid="demo-bar"]')));
      await page.blur();
      await page.press("ArrowRight");
      await page.expectText("step-count", /^1$/);
      // The canvas's zero cells take the dark page's colour: no bright block.
      const bright = await until("the heatmap to be drawn", () =>
        page.eval((s) => {
          const c = document.querySelector(s);
          if (!c || c.width < 100) return null;
          const px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
          let light = 0;
          for (let i = 0; i < px.length; i += 4) if (0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2] > 200) light++;
          return { share: light / (px.length / 4) };
        }, tid("heatmap")),
      );
      if (bright.share > 0.2) throw new Error(`${(bright.share * 100).toFixed(0)} % of the dark heatmap is bright`);
      await page.shot("09b-reloaded-dark-demo");
      // Back to the user's own program: a reload then keeps it.
      await page.select(tid("demo"), "");
      await page.reload();
      await until("no demo after choosing none", async () => (await page.value(tid("demo"))) === "");
    },
  ],
];
