// The Explain view and the guided lessons: the panel tells each layer in words
// while stepping by layer (and the aria-live narration says the same); the five
// built-in lessons play end to end with their checks passing; a lesson opens
// from `?lesson=ID` and from a compressed `#lesson=…` link; a bad lesson link
// is refused with a message and the page stays usable; phone size and embed mode.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

const LESSONS = ["tensor", "fetch", "memory", "alu", "branch"];

/** The check's text when the step has one (hidden otherwise: ""). */
const checkText = (page) => page.eval(() => {
  const e = document.querySelector('[data-testid="lesson-check"]');
  return e && !e.hidden ? e.innerText : "";
});

/** Plays the open lesson from its first step to its last, every check passing; returns the checks' texts. */
async function playThrough(page, id, shots = []) {
  await page.expectText("lesson-progress", /^Step 1 of \d+$/);
  const total = Number((await page.text("lesson-progress")).match(/of (\d+)/)[1]);
  const said = [];
  for (let i = 1; i <= total; i++) {
    await page.expectText("lesson-progress", `Step ${i} of ${total}`);
    const hasCheck = await page.eval(() => !document.querySelector('[data-testid="lesson-check"]').hidden);
    if (hasCheck) {
      await until(`${id} step ${i}: its check to pass`, async () => (await checkText(page)).startsWith("✓"));
      said.push(`${i}: ${await checkText(page)}`);
    }
    if (shots.includes(i)) await page.shot(`lesson-${id}-${i}`);
    if (i < total) await page.click(tid("lesson-next"));
  }
  assert.equal(await page.eval(() => document.querySelector('[data-testid="lesson-next"]').disabled), true);
  return said;
}

export const tests = [
  [
    "the Explain panel tells each layer while stepping by layer, and the narration says it",
    async (page) => {
      await page.expectText("status", "loaded");
      await page.expectText("explain", "Step");
      await page.blur();
      await page.press("Alt+ArrowRight");
      await page.expectText("layer", "L1");
      await page.expectText("explain", "L1 fetch");
      await page.expectText("explain", "reads the instruction at the program counter");
      const narration = await page.textOf(".narration");
      assert.match(narration, /^L1 fetch: Head fetch reads the instruction/);
      for (let i = 2; i <= 4; i++) {
        await page.press("Alt+ArrowRight");
        await page.expectText("layer", `L${i}`);
      }
      await page.expectText("explain", "L4 subtract");
      await page.expectText("explain", "The FFN subtracted in one layer");
      assert.match(await page.textOf(".narration"), /^L4 subtract: The FFN subtracted/);
      // A link highlights what it names.
      await page.hover(`${tid("explain")} button.ref`);
      await until("the link to be lit", async () => (await page.count(`${tid("explain")} button.ref.lit`)) > 0);
      await page.shot("50-explain-L4");
      console.log(`     ${narration.slice(0, 160)}…`);
    },
  ],
  [
    "the five lessons play end to end, every check passing",
    async (page) => {
      for (const id of LESSONS) {
        await page.select(tid("lesson-picker"), id);
        const said = await playThrough(page, id, id === "alu" ? [3] : id === "fetch" ? [2] : []);
        console.log(`     ${id}: ${said.join(" | ")}`);
      }
      await page.shot("51-lesson-branch-done");
      // Back goes to the previous step.
      await page.click(tid("lesson-back"));
      await page.expectText("lesson-progress", "Step 4 of 5");
    },
  ],
  [
    "a lesson opens from ?lesson=ID and from a compressed link",
    async (page) => {
      await page.open("?lesson=memory");
      await page.expectText("lesson", /Memory: how LOAD and STORE find a column by its address/i);
      await page.expectText("lesson-progress", "Step 1 of 6");
      const href = await page.eval(() => document.querySelector('[data-testid="lesson-link"]').getAttribute("href"));
      assert.match(href, /^#lesson=[A-Za-z0-9_-]+$/);
      await page.open(`?via=link${href}`);
      await page.expectText("lesson-progress", "Step 1 of 6");
      await playThrough(page, "memory-from-link", [3]);
    },
  ],
  [
    "a bad lesson link is refused with a message and the page stays usable",
    async (page) => {
      await page.open("?bad=1#lesson=AAAA");
      await page.expectText("lesson-problem", "the lesson link cannot be read");
      assert.equal(await page.eval(() => document.querySelector('[data-testid="lesson"]').hidden), true);
      await page.expectText("status", "loaded");
      await page.click(tid("step"));
      await page.expectText("step-count", /^1$/);
      await page.shot("52-lesson-bad-link");
      await page.open("?lesson=nope");
      await page.expectText("lesson-problem", "there is no lesson “nope”");
    },
  ],
  [
    "phone size: a lesson and the Explain view fit 390×844",
    async (page) => {
      await page.setViewport(390, 844);
      await page.open("?lesson=alu");
      await page.click(tid("lesson-next"));
      await page.click(tid("lesson-next"));
      await until("the check to pass", async () => (await checkText(page)).startsWith("✓"));
      const fit = await page.eval(() => ({
        width: document.documentElement.clientWidth,
        scroll: document.documentElement.scrollWidth,
        // What sticks out, to say in the failure.
        wide: [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)})`),
      }));
      // No element's box sticks out (WebKit's scrollWidth counts more than the boxes, so the boxes decide).
      assert.deepEqual(fit.wide, [], `the page is ${fit.scroll} px wide on ${fit.width}`);
      await page.shot("53-phone-lesson");
      await page.eval(() => document.querySelector('[data-testid="explain"]').scrollIntoView());
      await page.shot("54-phone-explain");
      await page.setViewport(1280, 900);
    },
  ],
  [
    "embed mode: the Explain panel and a lesson in a widget",
    async (page) => {
      await page.open("?embed&panels=editor,explain&lesson=fetch");
      await page.expectText("lesson-progress", "Step 1 of 4");
      await page.click(tid("lesson-next"));
      await until("the check to pass", async () => (await checkText(page)).startsWith("✓"));
      await page.expectText("explain", "L1 fetch");
      await page.shot("55-embed-lesson");
      await page.open("?embed&panels=editor,explain");
      await page.expectText("status", "loaded");
      await page.click(tid("step-layer"));
      await page.click(tid("step-layer"));
      await page.expectText("explain", "L2 read+decode");
      await page.shot("56-embed-explain");
    },
  ],
];
