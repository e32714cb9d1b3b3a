// A focused control keeps its keys: Space on a focused button presses that
// button (and never runs the program); the page's shortcuts apply only when
// focus is on no control.
import { tid, until } from "../harness/page.mjs";
import { SUM } from "../harness/programs.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Presses Tab from the page's title until `selector` has focus, as a keyboard user gets there. */
async function tabTo(page, selector) {
  // The title comes before the toolbar: Tab moves on from where one clicked.
  await page.click("header.bar h1");
  for (let i = 0; i < 40; i++) {
    await page.press("Tab");
    if (await page.eval((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  const at = await page.eval(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`Tab never reached ${selector} (focus is on ${at})`);
}

/** Fails if the program starts running within a moment. */
async function staysStill(page, steps) {
  await sleep(600);
  const bar = await page.statusBar();
  if (bar.status.includes("running") || bar.steps !== String(steps)) throw new Error(`the program moved: ${JSON.stringify(bar)}`);
}

const sheet = (page) =>
  page.eval(() => {
    const e = document.querySelector('[role=dialog][aria-label="Keyboard shortcuts"]');
    return !!e && !e.hidden && e.getClientRects().length > 0;
  });

export const tests = [
  [
    "Space on a focused Step steps once, on Reset resets, on ? opens the sheet; none of them runs",
    async (page) => {
      await page.setSource(SUM);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");

      await tabTo(page, tid("step"));
      await page.press("Space");
      await page.expectText("step-count", /^1$/);
      await staysStill(page, 1);
      await page.press("Space");
      await page.expectText("step-count", /^2$/);
      await staysStill(page, 2);
      await page.shot("64-focus-step");

      await tabTo(page, tid("reset"));
      await page.press("Space");
      await page.expectText("step-count", /^0$/);
      await staysStill(page, 0);

      await tabTo(page, 'button[aria-label="Keyboard shortcuts"]');
      await page.press("Space");
      await until("the shortcut sheet to open", () => sheet(page));
      await page.shot("65-focus-help");
      await staysStill(page, 0);
      await page.press("Escape");
      await until("the sheet to close", async () => !(await sheet(page)));
    },
  ],
  [
    "with focus on no control, Space runs and pauses, → steps",
    async (page) => {
      await page.blur();
      await page.press("ArrowRight");
      await page.expectText("step-count", /^1$/);
      await page.select(tid("speed"), "100");
      await page.blur();
      await page.press("Space");
      await page.expectText("status", "running");
      // The run steps on animation frames: pause once it has made a step (on a busy machine
      // the first frame can come after the test's next key).
      await until("the run to make a step", async () => (await page.steps()) > 1);
      await page.press("Space");
      await page.expectText("status", "paused");
      const steps = await page.steps();
      await staysStill(page, steps);
    },
  ],
];
