// End-to-end test of the built playground (dist/) in the system Chromium:
// type programs, run/step/reset them, check what the page shows, and save
// screenshots to tests/e2e/out/. Exits non-zero on the first failed check.
//
//   trunk build --release && node tests/e2e/playground.mjs

import { chromium } from "playwright-core";
import { mkdtemp, mkdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const OUT = join(ROOT, "tests", "e2e", "out");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const TIMEOUT_MS = 10_000;

const COUNTDOWN = await readFile(join(ROOT, "tests", "asm", "countdown.s"), "utf8");

const PROGRAM = `// Sum of the first n numbers.
int n = 100;
int sum = 0;

int main() {
    while (n > 0) {
        sum = sum + n;
        n = n - 1;
    }
    return 0;
}
`;
const BROKEN = PROGRAM.replace("sum = sum + n;", "sum = sum + ;");

/** Polls `probe` until it returns a truthy value; fails with `what` and the last value seen. */
async function until(what, probe) {
  const end = Date.now() + TIMEOUT_MS;
  let last;
  while (Date.now() < end) {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

const text = (page, id) => page.getByTestId(id).innerText();

async function expectText(page, id, wanted) {
  const ok = (t) => (wanted instanceof RegExp ? wanted.test(t) : t.includes(wanted));
  await until(`[data-testid=${id}] to show ${wanted}`, async () => ok(await text(page, id)) || false).catch(
    async (e) => {
      throw new Error(`${e.message}; it shows ${JSON.stringify(await text(page, id))}`);
    },
  );
}

/** The variables table as {name: value-text}. */
async function variables(page) {
  const rows = await page.getByTestId("variables").locator("tbody tr").all();
  const vars = {};
  for (const row of rows) {
    const [name, value] = await row.locator("td").allInnerTexts();
    vars[name] = value;
  }
  return vars;
}

/** What identifies the machine's state on the page. */
async function snapshot(page) {
  return {
    steps: await text(page, "step-count"),
    pc: await text(page, "pc"),
    vars: await variables(page),
    agree: await text(page, "agree"),
  };
}

/** Replaces the editor's text (CodeMirror or the textarea fallback) as a user would. */
async function setSource(page, src) {
  const cm = page.locator("[data-testid=editor] .cm-content");
  if (await cm.count()) {
    await cm.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText(src);
  } else {
    await page.getByTestId("editor").fill(src);
  }
}

/** Moves focus out of the editor so page shortcuts apply. */
const blur = (page) => page.locator(".statusbar").click();

async function shot(page, name) {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}

const checks = [
  [
    "the page loads the C example on the sparse transformer with CodeMirror",
    async (page) => {
      await until("CodeMirror", async () => (await page.locator("[data-loom-editor=codemirror]").count()) > 0);
      await expectText(page, "status", "loaded");
      await expectText(page, "agree", "✓");
      if (!(await page.getByTestId("engine").inputValue()).includes("sparse")) throw new Error("engine is not sparse");
      await shot(page, "01-loaded");
    },
  ],
  [
    "a compile error shows a squiggle and a list entry; fixing it compiles",
    async (page) => {
      await setSource(page, BROKEN);
      await page.getByTestId("compile").click();
      await expectText(page, "status", "error");
      await expectText(page, "diagnostics", "7:");
      await until("a squiggle", async () => (await page.locator(".cm-lintRange-error").count()) > 0);
      await shot(page, "02-error");
      await page.getByTestId("diagnostics").locator("button").first().click();
      await setSource(page, PROGRAM);
      await page.keyboard.press("Control+Enter");
      await expectText(page, "status", "loaded");
      if ((await page.getByTestId("diagnostics").innerText()).trim() !== "") throw new Error("diagnostics left over");
    },
  ],
  [
    "stepping instructions and layers: the layer walks L1…L8, the PC and a variable change",
    async (page) => {
      await blur(page);
      const pc0 = await text(page, "pc");
      await page.keyboard.press("ArrowRight");
      await expectText(page, "step-count", /^1$/);
      if ((await text(page, "pc")) === pc0) throw new Error("the PC did not change");
      const layers = [];
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press("Alt+ArrowRight");
        await expectText(page, "layer", `L${i + 1}`);
        layers.push(await text(page, "layer"));
        if (i === 0) {
          await expectText(page, "attention", "reads");
          await shot(page, "03-layer-L1");
        }
      }
      await shot(page, "04-layer-L8");
      await expectText(page, "step-count", /^2$/);
      const before = (await variables(page)).sum;
      for (let i = 0; i < 20 && (await variables(page)).sum === before; i++) {
        await page.getByTestId("step").click();
      }
      if ((await variables(page)).sum === before) throw new Error("sum never changed");
      await until("the changed variable to be highlighted", async () => (await page.locator("[data-testid=variables] tr.changed").count()) > 0);
      await shot(page, "05-variable-changed");
      console.log(`     layers: ${layers.join(" | ")}`);
    },
  ],
  [
    "step back returns to the same state",
    async (page) => {
      await blur(page);
      const here = await snapshot(page);
      await page.keyboard.press("ArrowRight");
      await until("a step", async () => (await text(page, "step-count")) !== here.steps);
      await page.keyboard.press("ArrowLeft");
      await expectText(page, "step-count", new RegExp(`^${here.steps}$`));
      const back = await snapshot(page);
      if (JSON.stringify(back) !== JSON.stringify(here)) throw new Error(`${JSON.stringify(back)} != ${JSON.stringify(here)}`);
      await page.getByTestId("step-line").click();
      await until("step line", async () => Number(await text(page, "step-count")) > Number(here.steps));
      await shot(page, "06-stepped-back-and-line");
    },
  ],
  [
    "run and pause",
    async (page) => {
      await page.getByTestId("speed").selectOption("100");
      await page.getByTestId("run").click();
      await expectText(page, "status", "running");
      const a = Number(await text(page, "step-count"));
      await until("steps to advance", async () => Number(await text(page, "step-count")) > a + 5);
      await page.getByTestId("run").click();
      await expectText(page, "status", "paused");
      const b = await text(page, "step-count");
      await new Promise((r) => setTimeout(r, 300));
      if ((await text(page, "step-count")) !== b) throw new Error("still running after pause");
      await page.getByTestId("speed").selectOption("0");
      // A breakpoint from the gutter stops the run on its line (8: n = n - 1;).
      const gutter = page.locator("[data-testid=editor] .cm-loom-breakpoints .cm-gutterElement").nth(8);
      await gutter.click();
      await page.getByTestId("run").click();
      await expectText(page, "pc", "(line 8)");
      await expectText(page, "status", "paused");
      await shot(page, "07-breakpoint");
      await gutter.click();
      await page.getByTestId("run").click();
      await expectText(page, "status", "halted");
      if ((await variables(page)).sum !== "-70") throw new Error(`sum = ${(await variables(page)).sum}`);
      await expectText(page, "agree", "✓");
      await shot(page, "07b-halted");
    },
  ],
  [
    "each demo loads with its view and runs",
    async (page) => {
      const ids = await page.getByTestId("demo").locator("option").evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
      if (ids.length < 3) throw new Error(`demos: ${ids}`);
      for (const id of ids) {
        await page.getByTestId("demo").selectOption(id);
        await expectText(page, "status", "loaded");
        await until(`the ${id} panel`, async () => !(await page.locator(".demo-slot").evaluate((e) => e.hidden)));
        await page.getByTestId("run").click();
        if (id === "snake") {
          // The game waits at its first frame for the player's first key.
          await until("snake to wait for a key", async () => (await text(page, "note")).includes("key"));
          const waiting = Number(await text(page, "step-count"));
          await new Promise((r) => setTimeout(r, 500));
          if (Number(await text(page, "step-count")) !== waiting) throw new Error("snake ran before a key");
          await page.keyboard.press("ArrowUp");
        }
        await until(`${id} to run`, async () => Number(await text(page, "step-count")) > 50);
        await new Promise((r) => setTimeout(r, 700));
        if ((await text(page, "status")).includes("running")) await page.getByTestId("run").click();
        await expectText(page, "agree", "✓");
        await shot(page, `10-demo-${id}`);
      }
    },
  ],
  [
    "no long task while Sudoku runs at full speed",
    async (page) => {
      await page.getByTestId("demo").selectOption("sudoku");
      await expectText(page, "status", "loaded");
      await page.getByTestId("speed").selectOption("0");
      await page.evaluate(() => {
        window.__longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
        }).observe({ type: "longtask" });
      });
      // The classic puzzle (3.2 M steps) is still running after four seconds.
      const example = page.getByTestId("demo-example");
      const classic = await example
        .locator("option")
        .evaluateAll((os) => os.find((o) => o.textContent.startsWith("Classic"))?.value);
      await example.selectOption(classic);
      await page.getByTestId("run").click();
      await new Promise((r) => setTimeout(r, 4000));
      await page.getByTestId("run").click();
      await expectText(page, "status", "paused");
      const steps = Number(await text(page, "step-count"));
      // The views caught up with the last frames, and the listing scrolled to the PC.
      const shown = await page.evaluate(() => {
        const ol = document.querySelector(".listing ol");
        const li = ol?.querySelector("li.current");
        if (!li) return "no current row";
        const [a, b] = [ol.getBoundingClientRect(), li.getBoundingClientRect()];
        return b.top >= a.top && b.bottom <= a.bottom ? "in view" : `row ${li.dataset.pc} out of view`;
      });
      if (shown !== "in view") throw new Error(`listing: ${shown}`);
      const longest = await page.evaluate(() => window.__longest);
      console.log(`     Sudoku: ${steps} steps in 4 s on the sparse transformer; longest task ${longest.toFixed(0)} ms`);
      await shot(page, "11-sudoku-after-run");
      if (longest > 50) throw new Error(`a task took ${longest} ms`);
      if (steps < 100) throw new Error(`only ${steps} steps`);
    },
  ],
  [
    "the draft and the configuration survive a reload",
    async (page) => {
      await setSource(page, BROKEN);
      await page.getByTestId("config").selectOption("small");
      await expectText(page, "status", "error");
      await page.reload();
      await until("the draft to come back", async () => (await page.getByTestId("editor").innerText()).includes("sum + ;"));
      await until("the configuration to come back", async () => (await page.getByTestId("config").inputValue()) === "small");
      await shot(page, "09-reloaded");
    },
  ],
  [
    "the ? sheet, the dark theme and a narrow window",
    async (page) => {
      await blur(page);
      await page.keyboard.press("?");
      await until("the shortcut sheet", async () => page.getByRole("dialog").isVisible());
      await shot(page, "12-shortcuts");
      await page.keyboard.press("Escape");
      await until("the sheet to close", async () => !(await page.getByRole("dialog").isVisible()));
      const theme = page.getByRole("button", { name: "Toggle theme" });
      while ((await page.evaluate(() => document.documentElement.dataset.theme)) !== "dark") await theme.click();
      await page.setViewportSize({ width: 600, height: 1000 });
      const x = async (sel) => (await page.locator(sel).boundingBox()).x;
      await until("panels to stack", async () => Math.abs((await x(".pane.source")) - (await x(".pane.tensor"))) < 2);
      await shot(page, "13-narrow-dark");
      await page.setViewportSize({ width: 1280, height: 720 });
    },
  ],
  [
    "the page exposes loom-core's JavaScript API",
    async (page) => {
      const out = await page.evaluate((src) => {
        const api = window.wasmBindings;
        const report = JSON.parse(api.runProgram("asm", src, "default", "interp", 1000));
        let thrown = "";
        try {
          api.runProgram("asm", "FROB x", "default", "interp", 1000);
        } catch (e) {
          thrown = e instanceof Error ? e.message : `not an Error: ${e}`;
        }
        const diags = JSON.parse(api.check("asm", "JMP nowhere", "tiny"));
        return { report, thrown, diags, configs: JSON.parse(api.configs()).length };
      }, COUNTDOWN);
      if (out.report.status !== "halted" || out.report.vars.sum !== 55) throw new Error(JSON.stringify(out.report));
      if (!out.thrown.includes("program:1:1")) throw new Error(`thrown: ${out.thrown}`);
      if (out.diags[0]?.span?.line !== 1) throw new Error(`check: ${JSON.stringify(out.diags)}`);
      if (out.configs < 1) throw new Error("configs() is empty");
    },
  ],
];

await rm(OUT, { recursive: true, force: true });
await mkdir(OUT, { recursive: true });
const { server, url } = await serve(join(ROOT, "dist"));
const profile = await mkdtemp(join(tmpdir(), "loom-e2e-"));
const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
const page = browser.pages()[0] ?? (await browser.newPage());
const errors = [];
page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
page.on("console", (m) => m.type() === "error" && errors.push(`console error: ${m.text()}`));

let passed = 0;
let failed = 0;
try {
  await page.goto(url);
  for (const [name, check] of checks) {
    try {
      await check(page);
      if (errors.length) throw new Error(errors.join("\n"));
      passed++;
      console.log(`ok   ${name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}\n     ${e.message}`);
      await page.screenshot({ path: join(OUT, "failure.png") });
      break;
    }
  }
} finally {
  await browser.close();
  server.close();
  await rm(profile, { recursive: true, force: true });
}
console.log(`e2e: ${passed} passed, ${failed} failed (screenshots in tests/e2e/out/)`);
process.exit(failed === 0 && passed === checks.length ? 0 : 1);
