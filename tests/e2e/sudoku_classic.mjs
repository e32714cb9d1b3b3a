// A measurement, not a test: solves the classic Sudoku in the built page
// (dist/) at full speed on the sparse transformer, with the page drawing as
// it goes, and prints the wall time. Takes a minute or so.
//
//   trunk build --release && node tests/e2e/sudoku_classic.mjs

import { chromium } from "playwright-core";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./serve.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const LIMIT_MS = 600_000;

const { server, url } = await serve(join(ROOT, "dist"));
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  const text = (id) => page.getByTestId(id).innerText();
  const until = async (what, probe, limit = 30_000) => {
    const end = Date.now() + limit;
    while (Date.now() < end) {
      if (await probe()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  await page.getByTestId("demo").selectOption("sudoku");
  await until("the demo to load", async () => (await text("status")).includes("loaded"));
  const example = page.getByTestId("demo-example");
  const value = await example
    .locator("option")
    .evaluateAll((os) => os.find((o) => o.textContent.startsWith("Classic"))?.value);
  if (value === undefined) throw new Error("no Classic example");
  await example.selectOption(value);
  await page.getByTestId("speed").selectOption("0");
  const start = Date.now();
  await page.getByTestId("run").click();
  await until("the solver to halt", async () => (await text("status")).includes("halted"), LIMIT_MS);
  const seconds = (Date.now() - start) / 1000;
  const steps = Number(await text("step-count"));
  const verdict = await text("demo-status");
  console.log(
    `Sudoku classic in the page: ${steps} steps in ${seconds.toFixed(1)} s ` +
      `(${Math.round(steps / seconds)} steps/s) on the sparse transformer; the panel says: ${verdict}`,
  );
} finally {
  await browser.close();
  server.close();
}
