// A measurement, not a test: solves the classic Sudoku in the built page
// (dist/) at full speed on the sparse transformer, with the page drawing as
// it goes, and prints the wall time. Takes a minute or so.
//
//   trunk build --release && node tests/e2e/sudoku_classic.mjs [chromium|firefox|webkit]

import { join } from "node:path";
import { serve } from "../../scripts/serve.mjs";
import { startDriver } from "./harness/browsers.mjs";
import { Page, tid, until } from "./harness/page.mjs";

const browser = process.argv[2] ?? "chromium";
const LIMIT_MS = 600_000;

const { server, url } = await serve(join(import.meta.dirname, "..", "..", "dist"));
const driver = await startDriver(browser);
const session = await driver.session();
try {
  const page = new Page(session, { browser, base: url, out: "/tmp" });
  await page.setViewport(1400, 900);
  await page.open();
  await page.select(tid("demo"), "sudoku");
  await page.expectText("status", "loaded");
  const value = await page.eval(
    (s) => [...document.querySelectorAll(`${s} option`)].find((o) => o.textContent.startsWith("Classic"))?.value,
    tid("demo-example"),
  );
  if (value === undefined) throw new Error("no Classic example");
  await page.select(tid("demo-example"), value);
  await page.select(tid("speed"), "0");
  const start = Date.now();
  await page.click(tid("run"));
  await until("the solver to halt", async () => (await page.text("status")).includes("halted"), LIMIT_MS);
  const seconds = (Date.now() - start) / 1000;
  const steps = await page.steps();
  const verdict = await page.text("demo-status");
  console.log(
    `Sudoku classic in the page (${browser}): ${steps} steps in ${seconds.toFixed(1)} s ` +
      `(${Math.round(steps / seconds)} steps/s) on the sparse transformer; the panel says: ${verdict}`,
  );
} finally {
  await session.quit();
  await driver.stop();
  server.close();
}
