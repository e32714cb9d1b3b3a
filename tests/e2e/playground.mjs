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

async function expectVar(page, name, value) {
  await until(`variable ${name} = ${value}`, async () => (await variables(page))[name] === value).catch(async (e) => {
    throw new Error(`${e.message}; variables: ${JSON.stringify(await variables(page))}`);
  });
}

const checks = [
  [
    "the example program runs to its product",
    async (page) => {
      await until("the editor to hold the example", async () => (await page.getByTestId("editor").inputValue()).includes("product"));
      await page.getByTestId("run").click();
      await expectText(page, "status", "halted");
      await expectVar(page, "product", "42");
      await expectVar(page, "b", "0");
      await expectText(page, "pc", "0");
      await page.screenshot({ path: join(OUT, "01-example-halted.png") });
    },
  ],
  [
    "a typed program runs with Ctrl+Enter",
    async (page) => {
      const editor = page.getByTestId("editor");
      await editor.fill("");
      await editor.pressSequentially(COUNTDOWN);
      await editor.press("Control+Enter");
      await expectText(page, "status", "halted");
      await expectVar(page, "sum", "55");
      await expectVar(page, "xs", "[3, -1, 2, 55]");
      await expectText(page, "step-count", "32");
      await page.screenshot({ path: join(OUT, "02-typed-countdown.png") });
    },
  ],
  [
    "reset and step execute one instruction at a time",
    async (page) => {
      await page.getByTestId("reset").click();
      await expectText(page, "step-count", /^0$/);
      await expectText(page, "status", "loaded");
      await expectVar(page, "sum", "0");
      await page.getByTestId("step").click();
      await expectText(page, "step-count", /^1$/);
      await expectVar(page, "sum", "10");
      await expectText(page, "pc", "(line 6)");
      await page.getByTestId("step").click();
      await expectVar(page, "n", "9");
      await expectText(page, "status", "paused");
      await page.screenshot({ path: join(OUT, "03-stepped.png") });
    },
  ],
  [
    "an assembly error shows line:column and a caret",
    async (page) => {
      const editor = page.getByTestId("editor");
      await editor.press("Control+End");
      await editor.pressSequentially("\nFROB n\n");
      await page.getByTestId("compile").click();
      await expectText(page, "status", "error");
      await expectText(page, "diagnostics", "program.s:11:1");
      await expectText(page, "diagnostics", "FROB n");
      await expectText(page, "diagnostics", "^^^^");
      await page.screenshot({ path: join(OUT, "04-error.png") });
    },
  ],
  [
    "the draft and the configuration survive a reload",
    async (page) => {
      await page.getByTestId("config").selectOption("small");
      await expectText(page, "status", "error");
      await page.reload();
      await until("the draft to come back", async () => (await page.getByTestId("editor").inputValue()).includes("FROB n"));
      await until("the configuration to come back", async () => (await page.getByTestId("config").inputValue()) === "small");
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
