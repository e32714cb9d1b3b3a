// A measurement, not a test: the page benchmark. In the built page (dist/),
// headless, it solves the classic Sudoku in the playground at full speed on
// the sparse transformer (the session in its web worker, the page drawing as
// it goes) and, in the same page, runs the engine alone on the same puzzle
// (`wasmBindings.benchDemo`: no session, checkpoints or views); it prints both
// wall times and their ratio (README "Speed"). Each figure is the better of
// `--runs N` (default 1) interleaved runs, after a warm-up of both.
//
//   trunk build --release && node tests/e2e/page_bench.mjs [chromium|firefox|webkit] [--runs N] [--in-page]
//     [--hard]   also solve the hard Sudoku (38.5 M steps) in the page, with the progress bar
//     [--long]   also run 10 M steps, then time step back, a line step and a run to a breakpoint
//
// `--in-page` opens the page with `?worker=0` (the fallback: the run loop in the page's thread).

import { join } from "node:path";
import { serve } from "../../scripts/serve.mjs";
import { startDriver } from "./harness/browsers.mjs";
import { clickAndTime, example, Page, tid, until, watchLongTasks } from "./harness/page.mjs";

const args = process.argv.slice(2);
const browser = args.find((a) => !a.startsWith("--") && !/^\d+$/.test(a)) ?? "chromium";
const runs = Number(args[args.indexOf("--runs") + 1]) || 1;
const LIMIT_MS = 900_000;

const { server, url } = await serve(join(import.meta.dirname, "..", "..", "dist"));
const driver = await startDriver(browser);
const session = await driver.session();
await session.manage().setTimeouts({ script: LIMIT_MS });
const page = new Page(session, { browser, base: url, out: join(import.meta.dirname, "out", browser) });

/** The engine alone in this page: seconds and steps of `example` (to completion, or `steps`). */
async function engineOnly(name, steps = 0) {
  const row = await page.eval(
    (ex, n) => new Promise((resolve) => setTimeout(() => resolve(window.wasmBindings.benchDemo("sudoku", ex, "sparse", n)))),
    name,
    steps,
  );
  return JSON.parse(row);
}

/** Picks the Sudoku example `name` and waits until it is loaded. */
async function pick(name) {
  await page.select(tid("demo-example"), await example(page, name));
  await page.click(tid("reset"));
  await page.expectText("status", "loaded");
}

/** Runs the loaded example in the playground to the end: wall seconds, steps, the panel's verdict. */
async function inPage() {
  await page.eval(watchLongTasks);
  const start = Date.now();
  await page.click(tid("run"));
  await until("the solver to halt", async () => (await page.text("status")).includes("halted"), LIMIT_MS);
  const seconds = (Date.now() - start) / 1000;
  const longest = await page.eval(() => ((window.__stopProbe = true), window.__longest));
  return { seconds, steps: await page.steps(), verdict: await page.text("demo-status"), longest };
}

try {
  await page.setViewport(1400, 900);
  await page.open(args.includes("--in-page") ? "?worker=0" : "");
  await page.select(tid("demo"), "sudoku");
  await page.expectText("status", "loaded");
  await page.select(tid("speed"), "0");
  const thread = await page.text("thread");
  // Warm-up: V8 compiles hot wasm functions in the background; both modules get a run first.
  await engineOnly("Classic", 300_000);
  await pick("Easy");
  await inPage();
  let best = { page: null, engine: null };
  for (let i = 0; i < runs; i++) {
    await pick("Classic");
    const p = await inPage();
    const e = await engineOnly("Classic");
    if (p.steps !== e.steps) throw new Error(`the page ran ${p.steps} steps, the engine ${e.steps}`);
    console.log(
      `run ${i + 1}: page ${p.seconds.toFixed(2)} s, engine alone ${e.seconds.toFixed(2)} s (ratio ${(p.seconds / e.seconds).toFixed(3)}); longest task ${p.longest.toFixed(0)} ms`,
    );
    if (!best.page || p.seconds < best.page.seconds) best.page = p;
    if (!best.engine || e.seconds < best.engine.seconds) best.engine = e;
  }
  const { page: p, engine: e } = best;
  console.log(
    `Sudoku classic (${browser}, ${thread}): ${p.steps} steps; in the page ${p.seconds.toFixed(2)} s ` +
      `(${Math.round(p.steps / p.seconds)} steps/s), the engine alone ${e.seconds.toFixed(2)} s ` +
      `(${Math.round(e.steps_per_sec)} steps/s): page / engine = ${(p.seconds / e.seconds).toFixed(3)}; the panel says: ${p.verdict}`,
  );
  if (args.includes("--hard")) {
    await pick("Hard");
    const h = await inPage();
    await page.shot("page-bench-hard-solved");
    console.log(
      `Sudoku hard in the page: ${h.steps} steps in ${h.seconds.toFixed(1)} s (${Math.round(h.steps / h.seconds)} steps/s); ` +
        `longest task ${h.longest.toFixed(0)} ms; the panel says: ${h.verdict}`,
    );
  }
  if (args.includes("--long")) {
    await pick("Hard");
    await page.click(tid("run"));
    await until("10 M steps", async () => (await page.steps()) >= 10_000_000, LIMIT_MS);
    await page.click(tid("run"));
    await page.expectText("status", "paused");
    await page.eval(watchLongTasks);
    const back = [];
    for (let i = 0; i < 5; i++) back.push(await page.eval(clickAndTime, tid("step-back")));
    // A line step (Shift+→), then a run to a breakpoint on the line the machine stands on.
    const before = await page.steps();
    await page.blur();
    let t0 = Date.now();
    await page.press("Shift+ArrowRight");
    await until("the line step", async () => (await page.steps()) !== before);
    const lineStep = Date.now() - t0;
    const line = await page.eval(() => document.querySelector('[data-testid="pc"]').textContent.match(/line (\d+)/)?.[1]);
    // The breakpoint gutter's element level with the line number's.
    const marked = await page.eval((l) => {
      const number = [...document.querySelectorAll(".cm-lineNumbers .cm-gutterElement")].find((g) => g.textContent === l);
      if (!number) return false;
      const top = number.getBoundingClientRect().top;
      const marks = [...document.querySelectorAll(".cm-loom-breakpoints .cm-gutterElement")];
      const mark = marks.find((g) => Math.abs(g.getBoundingClientRect().top - top) < 2);
      if (!mark) return false;
      mark.setAttribute("data-bench", "bp");
      return true;
    }, line);
    let run = NaN;
    if (marked) {
      await page.click('[data-bench="bp"]');
      await new Promise((r) => setTimeout(r, 300));
      t0 = Date.now();
      await page.click(tid("run"));
      await until("the breakpoint", async () => (await page.text("status")).includes("paused"), LIMIT_MS);
      run = Date.now() - t0;
    }
    const longest = await page.eval(() => ((window.__stopProbe = true), window.__longest));
    console.log(
      `after ${await page.steps()} steps: step back answered in ${back.map((t) => t.toFixed(0)).join(", ")} ms in the page; ` +
        `a line step in ${lineStep} ms and a run to a breakpoint on line ${line} in ${run} ms (WebDriver round trips included); ` +
        `longest task ${longest.toFixed(0)} ms`,
    );
  }
} finally {
  await session.quit();
  await driver.stop();
  server.close();
}
