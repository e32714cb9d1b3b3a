// The debugger on the page: the call stack through recursion, Step over, Step out,
// Run to cursor and Back undoing each; hovering a variable outlines its column in the
// heatmap, and hovering that column names its owner.
import { tid, until } from "../harness/page.mjs";

const FACT = `int fact(int n) {
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

int main() {
    int r = fact(5);
    int s = r + 1;
    printf("%d\\n", s);
    return 0;
}
`;

/** Gutter cell `line` of the breakpoint gutter (cell 0 is CodeMirror's spacer). */
const gutter = (line) => `${tid("editor")} .cm-loom-breakpoints .cm-gutterElement:nth-child(${line + 1})`;

/** The call stack as the page shows it: one text per frame, innermost first. */
function stack(page) {
  return page.eval(() =>
    [...document.querySelectorAll('[data-testid="call-stack"] [data-testid="frame"]')].map((f) =>
      f.innerText.replace(/\s+/g, " ").trim(),
    ),
  );
}

/** Waits until the call stack has `n` frames and the innermost one shows every text in `first`. */
async function expectStack(page, n, first) {
  let seen;
  await until(`a call stack of ${n} frames, the innermost showing ${first.join(", ")}`, async () => {
    seen = await stack(page);
    return seen.length === n && first.every((t) => seen[0].includes(t));
  }).catch((e) => {
    throw new Error(`${e.message}; it shows ${JSON.stringify(seen)}`);
  });
  return seen;
}

/** Clicks a toolbar button and waits until the step count changes. */
async function move(page, id) {
  const before = await page.steps();
  await page.click(tid(id));
  await until(`${id} to move the machine`, async () => (await page.steps()) !== before);
}

let atBreak;

export const tests = [
  [
    "stopped in fact at depth 5, the call stack shows six frames, n = 1 … 5 and main",
    async (page) => {
      await page.setSource(FACT);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      await page.select(tid("speed"), "0");
      // Line 3 (return 1;) is reached only when n <= 1: at the fifth activation.
      await page.click(gutter(3));
      await page.click(tid("run"));
      await page.expectText("pc", "(line 3)");
      await page.expectText("status", "paused");
      const frames = await expectStack(page, 6, ["fact#5", "line 3", "n = 1"]);
      for (let k = 1; k <= 4; k++) {
        for (const t of [`fact#${5 - k}`, "line 4", `n = ${k + 1}`]) {
          if (!frames[k].includes(t)) throw new Error(`frame ${k} lacks ${t}: ${frames[k]}`);
        }
      }
      if (!/^main line 8\b.*r = /.test(frames[5])) throw new Error(`the outermost frame: ${frames[5]}`);
      atBreak = await page.steps();
      await page.shot("40-callstack-depth5");
    },
  ],
  [
    "choosing a frame marks its line in the editor",
    async (page) => {
      await page.click(`${tid("call-stack")} > li:nth-child(3) .frame-head`);
      await until("the chosen frame", async () => (await page.count(`${tid("call-stack")} > li.chosen:nth-child(3)`)) === 1);
      await until("its line marked", async () => {
        const marked = await page.eval(() => [...document.querySelectorAll(".cm-loom-frame-line")].map((l) => l.innerText));
        return marked.length === 1 && marked[0].includes("return n * fact(n - 1);");
      });
      await page.shot("41-callstack-frame-chosen");
    },
  ],
  [
    "hovering n of fact#3 outlines its column; hovering the column names fact#3: n",
    async (page) => {
      await page.hover(`${tid("call-stack")} > li:nth-child(3) [data-testid=binding]`);
      const col = await until("the heatmap to outline n's column", async () =>
        page.eval(() => document.querySelector('[data-testid="heatmap"]').dataset.outlined),
      );
      if (!/^\d+$/.test(col)) throw new Error(`outlined ${col}`);
      await page.shot("42-callstack-hover-variable");
      // The tooltip names the column under the mouse: search the canvas for n's column.
      const box = await page.eval(() => {
        const r = document.querySelector('[data-testid="heatmap"]').getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top };
      });
      const columnAt = async (x) => {
        await page.mouseTo(Math.round(x), Math.round(box.top + 60));
        const text = await until("the tooltip", async () => page.eval(() => document.querySelector(".heat-wrap .tooltip")?.innerText));
        return { text, col: Number(/column (\d+)/.exec(text)?.[1] ?? -1) };
      };
      let [lo, hi] = [box.left + 77, box.right - 2];
      let found;
      for (let i = 0; i < 24 && !found; i++) {
        const mid = (lo + hi) / 2;
        const at = await columnAt(mid);
        if (at.col === Number(col)) found = at.text;
        else if (at.col < Number(col)) lo = mid;
        else hi = mid;
      }
      if (!found?.includes("fact#3: n")) throw new Error(`column ${col}'s tooltip: ${found}`);
      await page.shot("43-callstack-hover-column");
    },
  ],
  [
    "Step out returns to the caller's line with the returned value; Back undoes it",
    async (page) => {
      await move(page, "step-out");
      await expectStack(page, 5, ["fact#4", "line 4", "n = 2"]);
      await page.expectText("note", "fact returned 1");
      await page.expectText("pc", "(line 4)");
      await page.shot("44-callstack-step-out");
      await move(page, "step-back");
      await expectStack(page, 6, ["fact#5", "line 3", "n = 1"]);
      if ((await page.steps()) !== atBreak) throw new Error(`Back went to step ${await page.steps()}, not ${atBreak}`);
    },
  ],
  [
    "Run to cursor stops on the cursor's line; Back undoes it",
    async (page) => {
      await page.click(`${tid("editor")} .cm-content .cm-line:nth-child(10)`);
      await move(page, "run-to-cursor");
      await page.expectText("pc", "(line 10)");
      await expectStack(page, 1, ["main", "line 10", "s = 121"]);
      await page.shot("45-callstack-run-to-cursor");
      await move(page, "step-back");
      await expectStack(page, 6, ["fact#5", "line 3"]);
      if ((await page.steps()) !== atBreak) throw new Error(`Back went to step ${await page.steps()}, not ${atBreak}`);
    },
  ],
  [
    "Step over (F10) runs the call whole to the next line of main; Back undoes it",
    async (page) => {
      await page.click(gutter(3));
      await page.click(tid("reset"));
      await page.expectText("status", "loaded");
      await expectStack(page, 1, ["main", "line 8"]);
      await page.blur();
      await page.press("F10");
      await page.expectText("pc", "(line 9)");
      await expectStack(page, 1, ["main", "line 9", "r = 120"]);
      await page.shot("46-callstack-step-over");
      await page.press("ArrowLeft");
      await page.expectText("step-count", /^0$/);
      await expectStack(page, 1, ["main", "line 8"]);
      const errors = await page.takeErrors();
      if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
    },
  ],
  [
    "at 1440×900 the controls with Over, Out and To cursor keep one row",
    async (page) => {
      await page.setViewport(1440, 900);
      const rows = await until("the toolbar laid out at 1440", () =>
        page.eval(() => {
          if (window.innerWidth !== 1440) return null;
          const tops = [...document.querySelectorAll(".toolbar > *")].map((e) => e.getBoundingClientRect().top).sort((a, b) => a - b);
          return 1 + tops.filter((t, i) => i > 0 && t - tops[i - 1] > 12).length;
        }),
      );
      if (rows !== 1) throw new Error(`the controls wrap onto ${rows} rows`);
      await page.shot("48-callstack-1440");
    },
  ],
];
