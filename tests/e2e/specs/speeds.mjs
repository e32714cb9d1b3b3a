// Every run speed keeps its rate for seconds on end, and the demos run on
// past a frame() at every speed (limited speeds once stalled after a few
// dozen to a few thousand steps while the status still said "running").
import { readFileSync } from "node:fs";
import { tid, until } from "../harness/page.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The toolbar's speeds, slowest first; 0 = as fast as possible. */
const SPEEDS = [1, 10, 100, 1000, 10000, 0];

/** Counts for ever: a program that never ends. */
const FOREVER = `// Counts for ever.
int count = 0;

int main() {
    while (1) {
        count = count + 1;
    }
    return 0;
}
`;

/** How long each speed's rate is measured (the issue asks for at least 5 s). */
const MEASURE_MS = 5500;

/** In demo `id`, the line `text` and the `frame();` within two lines after it (1-based numbers). */
function beforeFrame(id, text) {
  const lines = readFileSync(new URL(`../../../demos/${id}.c`, import.meta.url), "utf8").split("\n");
  const near = (i) => [i + 1, i + 2].find((j) => lines[j]?.includes("frame();"));
  const before = lines.findIndex((l, i) => l.includes(text) && near(i) !== undefined);
  if (before < 0) throw new Error(`demos/${id}.c has no line "${text}" just before a frame()`);
  return { before: before + 1, frame: near(before) + 1 };
}

/** The step count and the clock, sampled every `every` ms for `ms` ms. */
async function sample(page, ms, every = 500) {
  const samples = [];
  const end = Date.now() + ms;
  while (true) {
    samples.push({ t: Date.now(), steps: await page.steps() });
    if (Date.now() >= end) return samples;
    await sleep(every);
  }
}

/** The lowest growth of the step count over any window of at least `span` ms. */
function slowestWindow(samples, span) {
  let low = Infinity;
  for (let i = 0; i < samples.length; i++) {
    const j = samples.findIndex((s) => s.t - samples[i].t >= span);
    if (j > i) low = Math.min(low, samples[j].steps - samples[i].steps);
  }
  return low;
}

/** Toggles the breakpoint of editor line `line` from its gutter, as a person clicks it. */
async function toggleBreakpoint(page, line) {
  // CodeMirror renders only the lines near its viewport: scroll the line into it first.
  const index = await until(`line ${line} in the editor's gutter`, () =>
    page.eval((n) => {
      const editor = document.querySelector('[data-testid="editor"]');
      const numbers = [...editor.querySelectorAll(".cm-lineNumbers .cm-gutterElement")];
      const number = numbers.find((e) => e.textContent.trim() === String(n));
      if (!number) {
        const scroller = editor.querySelector(".cm-scroller");
        scroller.scrollTop = scroller.scrollHeight * (n / (numbers.length + n)) - scroller.clientHeight / 2;
        return null;
      }
      number.scrollIntoView({ block: "center" });
      const top = number.getBoundingClientRect().top;
      const marks = [...editor.querySelectorAll(".cm-loom-breakpoints .cm-gutterElement")];
      const k = marks.findIndex((m) => Math.abs(m.getBoundingClientRect().top - top) < 2);
      return k < 0 ? null : k + 1;
    }, line),
  );
  await page.click(`${tid("editor")} .cm-loom-breakpoints .cm-gutterElement:nth-child(${index})`);
}

/** The demo's picture as text: each board cell's value, or each bar's height. */
function picture() {
  const cells = [...document.querySelectorAll('[data-testid="demo-cell"]')].map((c) => c.dataset.value);
  const bars = [...document.querySelectorAll('[data-testid="demo-bar"]')].map((b) => b.style.height);
  return [...cells, ...bars].join(",");
}

/** The source line the status bar's PC is on, or null. */
async function pcLine(page) {
  const m = /\(line (\d+)\)/.exec(await page.text("pc"));
  return m ? Number(m[1]) : null;
}

export const tests = [
  [
    "each speed keeps its rate for five seconds, and the count never stalls",
    async (page) => {
      await page.setSource(FOREVER);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      const report = [];
      for (const speed of SPEEDS) {
        await page.click(tid("reset"));
        await page.expectText("step-count", /^0$/);
        await page.select(tid("speed"), String(speed));
        await page.click(tid("run"));
        await page.expectText("status", "running");
        const samples = await sample(page, MEASURE_MS);
        const shownRate = Number(/(\d+) steps\/s/.exec(await page.textOf(".statusbar .rate"))?.[1]);
        await page.click(tid("run"));
        await page.expectText("status", "paused");
        const [first, last] = [samples[0], samples.at(-1)];
        const seconds = (last.t - first.t) / 1000;
        const rate = (last.steps - first.steps) / seconds;
        // Never a stall: every two seconds the count grows (by at least 40 % of its due at a limited speed).
        const slowest = slowestWindow(samples, 2000);
        const due = speed === 0 ? 1 : Math.max(1, Math.floor(0.4 * speed * 2));
        report.push(`${speed || "max"}: ${rate.toFixed(1)}/s over ${seconds.toFixed(1)} s (shown ${shownRate}/s, slowest 2 s: +${slowest})`);
        if (slowest < due) throw new Error(`at ${speed || "max"} steps/s the count stalled: +${slowest} in 2 s; ${JSON.stringify(samples)}`);
        if (speed === 0) {
          // As fast as possible: well beyond the fastest limited speed's floor even on a loaded machine.
          if (rate < 5000) throw new Error(`max ran ${rate.toFixed(0)} steps/s`);
          if (!(shownRate > 0)) throw new Error(`max shows ${shownRate} steps/s`);
        } else {
          // Counting can miss a step at each end; a loaded 2-core machine may fall behind 10 000/s.
          const slack = 2 / seconds;
          const low = (speed >= 10000 ? 0.5 : 0.75) * speed - slack;
          const high = 1.15 * speed + slack;
          if (rate < low || rate > high) throw new Error(`at ${speed} steps/s the count grew ${rate.toFixed(1)}/s (allowed ${low.toFixed(1)}…${high.toFixed(1)})`);
          if (!(shownRate >= 0.4 * speed && shownRate <= 2 * speed + 1)) throw new Error(`at ${speed} steps/s the status says ${shownRate} steps/s`);
        }
      }
      console.log(`     ${report.join("\n     ")}`);
      await page.shot("60-speeds-paused");
    },
  ],
  [
    "Sort and Snake run on past a frame() at every speed",
    async (page) => {
      // Each run starts a few steps before a frame(): a breakpoint there, reached at full speed.
      const cases = [
        { id: "sort", example: "Insertion", ...beforeFrame("sort", "values[j] = b;"), counter: "compares" },
        { id: "snake", example: "", ...beforeFrame("snake", "screen[cell] = FOOD;"), key: "ArrowDown" },
      ];
      const report = [];
      for (const c of cases) {
        await page.select(tid("demo"), c.id);
        await page.expectText("status", "loaded");
        if (c.example) {
          const value = await page.eval(
            (s, p) => [...document.querySelectorAll(`${s} option`)].find((o) => o.textContent.includes(p))?.value,
            tid("demo-example"),
            c.example,
          );
          if (value === undefined) throw new Error(`${c.id} has no example "${c.example}"`);
          await page.select(tid("demo-example"), value);
        }
        await toggleBreakpoint(page, c.before);
        for (const speed of SPEEDS) {
          await page.click(tid("reset"));
          await page.expectText("step-count", /^0$/);
          await page.select(tid("speed"), "0");
          await page.click(tid("run"));
          await page.expectText("status", "paused");
          if ((await pcLine(page)) !== c.before) throw new Error(`${c.id} did not stop on line ${c.before}: PC ${await page.text("pc")}`);
          const stopped = await page.steps();
          const counted = c.counter && Number(await page.text(`demo-counter-${c.counter}`));
          const board = await page.eval(picture);
          await toggleBreakpoint(page, c.before);
          await page.select(tid("speed"), String(speed));
          await page.click(tid("run"));
          await page.expectText("status", "running");
          const t0 = Date.now();
          let from = stopped;
          if (c.key) {
            // A game waits at its first frame for the player's first key.
            await until(`${c.id} at ${speed}/s to wait for a key`, async () => (await page.text("note")).includes("key"));
            from = await page.steps();
            await page.press(c.key);
          }
          // Past the frame: the PC leaves the lines around it (or the program ends) and the count goes on.
          const halted = async () => (await page.text("status")).includes("halted");
          await until(`${c.id} at ${speed}/s to run past its frame() (line ${c.frame})`, async () => {
            const line = await pcLine(page);
            const left = (line !== null && line !== c.before && line !== c.frame) || (await halted());
            return left && (await page.steps()) > from + 2;
          });
          const past = Date.now() - t0;
          const samples = await sample(page, 2200);
          if (!(await halted()) && slowestWindow(samples, 2000) < 1)
            throw new Error(`${c.id} at ${speed}/s stalled after its frame: ${JSON.stringify(samples)}`);
          // Fast enough to see the next frames: the picture or the counters move on.
          if (speed === 0 || speed >= 1000) {
            await until(`${c.id} at ${speed}/s to draw on`, async () => {
              if (c.counter) return Number(await page.text(`demo-counter-${c.counter}`)) > counted;
              return (await page.eval(picture)) !== board;
            });
          }
          report.push(`${c.id} ${speed ? `${speed}/s` : "max"}: past frame() in ${past} ms, ${await page.steps()} steps`);
          if ((await page.text("status")).includes("running")) await page.click(tid("run"));
          await page.expectText("status", /paused|halted/);
          await page.expectText("agree", "✓");
          await toggleBreakpoint(page, c.before);
        }
        await page.shot(`61-speeds-${c.id}`);
        await toggleBreakpoint(page, c.before);
      }
      console.log(`     ${report.join("\n     ")}`);
    },
  ],
];
