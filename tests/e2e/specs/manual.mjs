// The manual beside the playground (docs/, built into dist/book/): the `?`
// sheet and the share / embed dialog link into it, the links open in a new
// tab, and following one reaches a page with the chapter's heading. The
// diagnostics, Explain and the lesson picker link to their pages too.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";
import { SUM, SUM_BROKEN } from "../harness/programs.mjs";

/** The manual links inside `selector`: their resolved addresses and targets. */
function manualLinks(page, selector) {
  return page.eval(
    (s) => [...document.querySelectorAll(`${s} a.manual`)].map((a) => ({ href: a.href, target: a.target, text: a.innerText })),
    selector,
  );
}

/** Follows `link` (in this tab: the suite drives one window) and waits for the manual page's heading. */
async function follow(page, link, heading) {
  assert.equal(link.target, "_blank", `${link.href} opens in a new tab, keeping the playground`);
  await page.open(link.href, { mounted: false });
  const h1 = await until(`the manual's heading "${heading}" at ${link.href}`, () =>
    page.eval(() => document.querySelector("main h1")?.innerText.trim()),
  );
  assert.equal(h1, heading);
}

export const tests = [
  [
    "the ? sheet links into the manual, and the link reaches the playground's chapter",
    async (page) => {
      // The README's screenshot: a program stepped into layer 3, Explain telling the layers so far.
      await page.setSource(SUM);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      // Stepped by the button, each step awaited: this test is about the manual's links (the
      // keys are layers.mjs's and focus.mjs's); WebKit once lost the keys here in a full run.
      for (let i = 0; i < 3; i++) await page.stepOnce();
      await page.expectText("step-count", /^3$/);
      await page.blur();
      for (let l = 1; l <= 3; l++) {
        await page.press("Alt+ArrowRight");
        await page.expectText("layer", `L${l}`);
      }
      await page.shot("40-manual-playground");
      await page.click('button[aria-label="Keyboard shortcuts"]');
      await until("the ? sheet", () => page.eval(() => !document.querySelector(".sheet").hidden));
      const links = await manualLinks(page, tid("help-manual"));
      assert.deepEqual(
        links.map((l) => new URL(l.href).pathname),
        ["/book/index.html", "/book/playground.html", "/book/debugger.html", "/book/machine.html"],
      );
      await follow(page, links[1], "The playground");
      assert.ok(await page.eval(() => !!document.getElementById("keyboard-shortcuts")), "the shortcuts' section");
      await page.shot("41-manual-playground-page");
    },
  ],
  [
    "the share / embed dialog links to the embedding chapter and its options",
    async (page) => {
      await page.open("");
      await page.expectText("status", "loaded");
      await page.click(tid("share"));
      await until("the dialog", () => page.eval(() => !document.querySelector(".share").hidden));
      const links = await manualLinks(page, tid("embed-manual"));
      assert.deepEqual(
        links.map((l) => new URL(l.href).pathname),
        ["/book/embedding.html", "/book/protocol.html"],
      );
      await follow(page, links[0], "Embedding");
      assert.ok(await page.eval(() => !!document.getElementById("an-iframe-indexhtmlembed")), "the iframe's options");
      await page.shot("42-manual-embedding-page");
    },
  ],
  [
    "a diagnostic, Explain's layer names and the lesson picker link to their pages",
    async (page) => {
      await page.open("");
      await page.expectText("status", "loaded");
      const lessons = await manualLinks(page, ".bar-end");
      assert.deepEqual(lessons.map((l) => new URL(l.href).pathname), ["/book/lessons.html"]);
      await page.setSource(SUM_BROKEN);
      await page.press("Control+Enter");
      const learn = await until("a diagnostic's learn-more link", async () => (await manualLinks(page, tid("diagnostics")))[0]);
      assert.equal(new URL(learn.href).pathname + new URL(learn.href).hash, "/book/c-reference.html#what-errors-mean");
      await page.setSource(SUM);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      await page.blur();
      await page.press("Alt+ArrowRight");
      await page.expectText("layer", "L1");
      const layer = await until("Explain's L1 link", async () => (await manualLinks(page, tid("explain")))[0]);
      assert.equal(new URL(layer.href).hash, "#l1");
      await follow(page, layer, "The machine and its eight layers");
      const l1 = await page.eval(() => document.getElementById("l1")?.innerText.trim());
      assert.equal(l1, "L1 fetch");
    },
  ],
];
