// The page on a phone (390×844, touch): it fits the width, the toolbar steps
// by touch, and a demo's on-screen arrows steer it. Only Chromium emulates a
// phone through its driver (geckodriver and WebKitWebDriver have no device
// emulation or touch screen), so this spec runs there.
import { tid, until } from "../harness/page.mjs";

export const options = {
  phone: true,
  only: { browsers: ["chromium"], why: "phone emulation with a touch screen is Chromium's (mobileEmulation)" },
};

/** Counts the page's touch and pointer input, to prove the taps arrive as touch. */
function watchInput() {
  window.__input = { touchstart: 0, touch: 0, mouse: 0 };
  addEventListener("touchstart", () => window.__input.touchstart++, { capture: true, passive: true });
  addEventListener("pointerdown", (e) => window.__input[e.pointerType === "touch" ? "touch" : "mouse"]++, { capture: true });
}

export const tests = [
  [
    "the page fits a phone's width and says it is touch",
    async (page) => {
      await page.expectText("status", "loaded");
      const fit = await page.eval(() => ({
        width: innerWidth,
        scroll: document.documentElement.scrollWidth,
        touch: matchMedia("(pointer: coarse)").matches,
      }));
      if (fit.width !== 390) throw new Error(`viewport ${fit.width} px wide`);
      if (!fit.touch) throw new Error("the page does not see a touch screen");
      if (fit.scroll > fit.width) throw new Error(`the page is ${fit.scroll} px wide on a ${fit.width} px screen`);
      await page.eval(watchInput);
      await page.shot("20-phone-loaded");
    },
  ],
  [
    "stepping by touch: an instruction, a layer, back",
    async (page) => {
      // The C example that loaded with the page.
      await page.tap(tid("compile"));
      await page.expectText("status", "loaded");
      await page.tap(tid("step"));
      await page.expectText("step-count", /^1$/);
      await page.tap(tid("step-layer"));
      await page.expectText("layer", "L1");
      await page.tap(tid("step-layer"));
      await page.expectText("layer", "L2");
      await page.tap(tid("step-back"));
      await page.expectText("step-count", /^1$/);
      await page.tap(tid("step-line"));
      await until("a source line stepped", async () => (await page.steps()) > 1);
      const input = await page.eval(() => window.__input);
      if (input.touchstart < 6 || input.touch < 6 || input.mouse > 0) throw new Error(`input: ${JSON.stringify(input)}`);
      await page.shot("21-phone-stepped");
    },
  ],
  [
    "Snake steered by the on-screen arrows",
    async (page) => {
      await page.select(tid("demo"), "snake");
      await page.expectText("status", "loaded");
      await until("the arrows", async () => (await page.count(tid("demo-key"))) === 4);
      // The board is in view with Run: the demo comes before the editor on one column.
      const near = await page.eval((run, board) => {
        scrollTo(0, 0);
        const [r, b] = [document.querySelector(run).getBoundingClientRect(), document.querySelector(board).getBoundingClientRect()];
        return { run: r.bottom, top: b.top, bottom: b.bottom, height: innerHeight };
      }, tid("run"), tid("demo-grid"));
      if (near.bottom > near.height || near.top - near.run > 400)
        throw new Error(`the board is at ${near.top.toFixed(0)}…${near.bottom.toFixed(0)} px, Run ends at ${near.run.toFixed(0)} px, the screen is ${near.height} px`);
      await page.shot("23-phone-snake-board");
      // 100 steps/s: about two moves a second (a frame is about 50 steps), so Left lands while the
      // snake, heading up from row 4, is still moves from the wall (at 1,000 steps/s the game runs
      // at its 12 frames a second, and a slow round trip missed the half second it had).
      await page.select(tid("speed"), "100");
      await page.tap(tid("run"));
      await page.expectText("status", "running");
      // The snake starts heading right; up, then left, are legal turns.
      await page.tap(`${tid("demo-key")}[aria-label="Move up"]`);
      await until("dir = 1 after Up", async () => (await page.variables()).dir === "1");
      // The editor follows the running line in its own box: the page stays on the board and its arrows.
      const board = await page.eval((grid) => {
        const b = document.querySelector(grid).getBoundingClientRect();
        return { top: b.top, bottom: b.bottom, height: innerHeight };
      }, tid("demo-grid"));
      if (board.bottom < 0 || board.top > board.height)
        throw new Error(`the page moved off the board while the game ran: the board is at ${board.top.toFixed(0)}…${board.bottom.toFixed(0)} px`);
      await page.tap(`${tid("demo-key")}[aria-label="Move left"]`);
      // The head went up from row 4, then left from column 2.
      let seen = {};
      await until("dir = 4, the head above row 4 and left of column 2, after Left", async () => {
        seen = await page.variables();
        return seen.dir === "4" && Number(seen.y) < 4 && Number(seen.x) < 2;
      }).catch((e) => {
        throw new Error(`${e.message}: dir = ${seen.dir}, x = ${seen.x}, y = ${seen.y}`);
      });
      await page.shot("22-phone-snake");
      // (The snake may have met a wall by now, which halts the game.)
      if ((await page.text("status")).includes("running")) await page.tap(tid("run"));
      await page.expectText("status", /paused|halted/);
      await page.expectText("agree", "✓");
    },
  ],
];
