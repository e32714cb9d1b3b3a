// The trace machine (WebAssembly executed by attention over its trace): picked, stepped, scrubbed, run, explained.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

const BROKEN = '(module\n  (func (export "main") (result i32)\n    (i32.cosnt 7)))\n';
const FIXED = '(module\n  (func (export "main") (result i32)\n    (i32.const 7)))\n';

/** Replaces the WAT editor's text (CodeMirror, or its textarea fallback). */
async function setWat(page, src) {
  const cm = (await page.count(`${tid("trace-editor")} .cm-content`)) > 0;
  const target = cm ? `${tid("trace-editor")} .cm-content` : `textarea${tid("trace-editor")}`;
  // Focused, not clicked: a long starter's lines are wider and taller than the editor, and Firefox
  // refuses to click an element whose centre it cannot scroll into view.
  await page.eval((sel) => document.querySelector(sel).focus(), target);
  await page.press("Control+a");
  await page.insertText(src);
}

/** Moves the scrubber to `step`, as dragging it does. */
async function scrub(page, step) {
  await page.eval((sel, v) => {
    const el = document.querySelector(sel);
    el.value = String(v);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, tid("trace-scrub"), step);
  await page.expectText("trace-step-count", new RegExp(`^${step}$`));
}

const rows = (page) => page.count(`${tid("trace-table")} tbody tr`);
const currentRow = (page) => page.textOf(`${tid("trace-table")} tr.current td`);
const number = async (page, id) => Number(await page.text(id));

export const tests = [
  [
    "the machine picker shows the trace machine with the WAT editor and its GCD starter",
    async (page) => {
      await page.expectText("status", "loaded");
      await page.select(tid("machine-picker"), "trace");
      await page.expectText("trace-status", "ready");
      await until("the GCD starter in the WAT editor", async () => (await page.text("trace-editor")).includes("$gcd"));
      assert.equal(await page.value(tid("trace-example")), "gcd");
      const hidden = await page.eval(() => document.querySelector("[data-testid=editor]").offsetParent === null);
      assert.ok(hidden, "the C editor is hidden while the trace machine is picked");
      assert.equal(await rows(page), 0, "nothing has run");
    },
  ],
  [
    "stepping fills the table, the plot and the counters; back and the scrubber return",
    async (page) => {
      for (let i = 1; i <= 5; i++) {
        await page.click(tid("trace-step"));
        await page.expectText("trace-step-count", new RegExp(`^${i}$`));
      }
      assert.equal(await rows(page), 5);
      assert.equal(await currentRow(page), "5");
      await page.expectText("trace-counters", "dots/read");
      await until("a plot of the step's read", async () => (await page.count(`${tid("trace-plot")} svg circle`)) > 0);
      assert.equal(await page.count(`${tid("trace-plot")} circle[data-role=winner]`), 1);
      assert.equal(await page.count(`${tid("trace-plot")} line.iso.winner`), 1);
      const stackAt5 = await page.text("trace-stack");
      await page.click(tid("trace-step"));
      await page.expectText("trace-step-count", /^6$/);
      await page.click(tid("trace-back"));
      await page.expectText("trace-step-count", /^5$/);
      assert.equal(await page.text("trace-stack"), stackAt5, "back shows the same stack");
      await scrub(page, 2);
      assert.equal(await currentRow(page), "2");
      assert.equal(await rows(page), 6, "the table keeps the furthest run");
      await scrub(page, 5);
      assert.equal(await page.text("trace-stack"), stackAt5, "scrubbing shows the same stack");
      await page.shot("40-trace-stepped");
    },
  ],
  [
    "running GCD to the end gives 21 and 1, with both heads agreeing and the hull cheaper",
    async (page) => {
      assert.equal(await page.value(tid("trace-heads")), "hull");
      await page.expectText("trace-brute-dots", "—");
      await page.select(tid("trace-heads"), "both");
      await page.expectText("trace-step-count", /^5$/);
      await page.click(tid("trace-run"));
      await page.expectText("trace-status", "halted");
      await page.expectText("trace-result", /^21, 1$/);
      await page.expectText("trace-agree", "heads agree");
      const steps = await number(page, "trace-step-count");
      assert.ok(steps > 100, `GCD ran ${steps} steps`);
      const [brute, hull] = [await number(page, "trace-brute-dots"), await number(page, "trace-hull-dots")];
      assert.ok(brute > hull && hull > 0, `dot products per read: brute ${brute}, hull ${hull}`);
      console.log(`     gcd: ${steps} steps; dots/read brute ${brute}, hull ${hull}`);
      await page.shot("41-trace-halted");
    },
  ],
  [
    "a memory read of bubble sort: the plot shows stale writes, the winner, the runner-up and the margin",
    async (page) => {
      await page.select(tid("trace-heads"), "hull");
      await page.select(tid("trace-example"), "bubble_sort");
      await page.expectText("trace-status", "ready");
      await page.click(tid("trace-run"));
      await page.expectText("trace-status", "halted");
      await page.expectText("trace-result", /^-1776570451, 2121308585, 1$/);
      const end = await number(page, "trace-step-count");
      // Scrub back until the step on display reads memory with stale writes in view.
      let found = false;
      for (let step = Math.floor(end * 0.6); step > 0 && !found; step -= 7) {
        await scrub(page, step);
        found = (await page.count(`${tid("trace-plot")} circle[data-role=stale]`)) > 0 &&
          (await page.textOf(`${tid("trace-plot")} figcaption`)).startsWith("memory read");
      }
      assert.ok(found, "a memory read with stale writes");
      assert.equal(await page.count(`${tid("trace-plot")} circle[data-role=runner-up]`), 1);
      assert.equal(await page.count(`${tid("trace-plot")} line.iso.runner-up`), 1);
      assert.match(await page.textOf(`${tid("trace-plot")} figcaption`), /margin \d+/);
      assert.ok((await page.count(`${tid("trace-writes")} tr.stale`)) > 0, "stale write records are greyed");
      assert.ok((await page.count(`${tid("trace-memory")} tr`)) > 0, "the reconstructed memory");
      await page.eval((sel) => document.querySelector(sel).scrollIntoView({ block: "center" }), tid("trace-plot"));
      await page.shot("42-trace-plot");
    },
  ],
  [
    "a WAT error is located in the diagnostics and the editor; fixing it runs",
    async (page) => {
      await setWat(page, BROKEN);
      await page.expectText("trace-diagnostics", "3:6");
      await page.expectText("trace-status", "no program");
      if ((await page.count(`${tid("trace-editor")} .cm-content`)) > 0) {
        await until("a squiggle", async () => (await page.count(".cm-lintRange-error")) > 0);
      }
      assert.equal(await page.value(tid("trace-example")), "", "a typed program is no starter");
      await page.shot("43-trace-error");
      await setWat(page, FIXED);
      await page.expectText("trace-status", "ready");
      assert.equal((await page.text("trace-diagnostics")).trim(), "");
      await page.click(tid("trace-run"));
      await page.expectText("trace-result", /^7$/);
    },
  ],
  [
    "picking the C machine again shows its page as it was",
    async (page) => {
      await page.select(tid("machine-picker"), "loom");
      await page.expectText("status", "loaded");
      const shown = await page.eval(() => document.querySelector("[data-testid=editor]").offsetParent !== null);
      assert.ok(shown, "the C editor is back");
    },
  ],
];
