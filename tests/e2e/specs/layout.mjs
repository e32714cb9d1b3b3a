// The page's frame: the ? sheet, the dark theme, a narrow window, a 1440×900 screen and the names a screen reader reads.
import { tid, until } from "../harness/page.mjs";

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
  [
    "at 1440×900 the controls keep one row and the editor room; every control and heading has a name",
    async (page) => {
      await page.setViewport(1440, 900);
      await page.select(tid("demo"), "sort");
      await page.expectText("status", "loaded");
      await page.blur();
      await page.press("ArrowRight");
      await page.expectText("step-count", /^1$/);
      const m = await page.eval(() => {
        const box = (e) => e.getBoundingClientRect();
        // Rows of controls: tops more than half a control apart (labels and buttons differ by a pixel or two).
        const tops = [...document.querySelectorAll(".toolbar > *")].map((e) => box(e).top).sort((a, b) => a - b);
        const rows = 1 + tops.filter((t, i) => i > 0 && t - tops[i - 1] > 12).length;
        const h1 = box(document.querySelector("header h1"));
        const end = box(document.querySelector(".bar-end"));
        const narration = document.querySelector(".narration");
        const named = (e) => (e.getAttribute("aria-label") ?? e.labels?.[0]?.innerText ?? e.innerText ?? "").trim() !== "";
        const visible = (e) => e.getClientRects().length > 0 && !e.closest("[hidden]");
        return {
          rows,
          endBesideTitle: Math.abs(end.top - h1.top) < h1.height,
          editor: box(document.querySelector('[data-testid="editor"]')).width,
          narrationLines: Math.round(narration.scrollHeight / parseFloat(getComputedStyle(narration).lineHeight || "20")),
          emptyHeadings: [...document.querySelectorAll("h1, h2, h3")].filter((h) => visible(h) && h.innerText.trim() === "").length,
          unnamed: [...document.querySelectorAll("button, select, input, textarea, [role=textbox]")]
            .filter((e) => visible(e) && !named(e))
            .map((e) => e.outerHTML.slice(0, 80)),
        };
      });
      if (m.rows !== 1) throw new Error(`the controls wrap onto ${m.rows} rows`);
      if (!m.endBesideTitle) throw new Error("theme, ? and share are not on the title's row");
      if (m.editor < 500) throw new Error(`the editor is ${m.editor} px wide`);
      if (m.narrationLines > 1) throw new Error(`the narration takes ${m.narrationLines} lines`);
      if (m.emptyHeadings) throw new Error(`${m.emptyHeadings} empty heading(s)`);
      if (m.unnamed.length) throw new Error(`controls without a name: ${m.unnamed.join(" | ")}`);
      await page.shot("14-wide-1440");
    },
  ],
];
