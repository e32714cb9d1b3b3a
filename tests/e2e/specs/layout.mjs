// The page's frame: the ? sheet, the dark theme, a narrow window.
import { until } from "../harness/page.mjs";

const visible = (selector) => (page) =>
  page.eval((s) => {
    const e = document.querySelector(s);
    return !!e && !e.hidden && e.getClientRects().length > 0;
  }, selector);

export const tests = [
  [
    "the ? sheet, the dark theme and a narrow window",
    async (page) => {
      await page.expectText("status", "loaded");
      await page.blur();
      await page.press("?");
      const sheet = visible("[role=dialog]");
      await until("the shortcut sheet", () => sheet(page));
      await page.shot("12-shortcuts");
      await page.press("Escape");
      await until("the sheet to close", async () => !(await sheet(page)));
      const theme = 'button[aria-label="Toggle theme"]';
      for (let i = 0; i < 3 && (await page.eval(() => document.documentElement.dataset.theme)) !== "dark"; i++)
        await page.click(theme);
      if ((await page.eval(() => document.documentElement.dataset.theme)) !== "dark") throw new Error("no dark theme");
      await page.setViewport(600, 1000);
      const x = async (sel) => (await page.box(sel)).x;
      await until("panels to stack", async () => Math.abs((await x(".pane.source")) - (await x(".pane.tensor"))) < 2);
      await page.shot("13-narrow-dark");
    },
  ],
];
