// The end-to-end suite's runner: serves the built page (dist/) and the editor's
// demo page on loopback, starts BROWSER's WebDriver server, and runs every spec
// in tests/e2e/specs/ (or those named) in a fresh browser session each.
// Screenshots go to tests/e2e/out/BROWSER/. Exits non-zero if any test failed.
//
//   node tests/e2e/run.mjs BROWSER [--grep TEXT] [SPEC ...]
//   (BROWSER: chromium | firefox | webkit; scripts/e2e.sh builds the page first)
//
// A spec file exports `tests`, a list of [name, async (page) => {...}], run in
// order on one page (a failure skips the rest of that file), and optionally
// `options` (see README.md): { path, phone, timeout, only: {browsers, why} }.

import { readdir, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "../../scripts/serve.mjs";
import { DESKTOP, NAMES, startDriver } from "./harness/browsers.mjs";
import { Page } from "./harness/page.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const SPECS = join(HERE, "specs");

function usage(message) {
  console.error(`${message}\nusage: node tests/e2e/run.mjs ${NAMES.join("|")} [--grep TEXT] [SPEC ...]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const browser = args.shift();
if (!NAMES.includes(browser)) usage(`unknown browser ${JSON.stringify(browser)}`);
let grep = null;
const named = [];
while (args.length) {
  const a = args.shift();
  if (a === "--grep") grep = args.shift() ?? usage("--grep needs a text");
  else named.push(resolve(a));
}
const files = named.length
  ? named
  : (await readdir(SPECS))
      .filter((f) => f.endsWith(".mjs"))
      .sort()
      .map((f) => join(SPECS, f));

const out = join(HERE, "out", browser);
if (!named.length && !grep) await rm(out, { recursive: true, force: true });

// E2E_DIST tests another build of the page (default: dist/).
const dist = resolve(process.env.E2E_DIST ?? join(ROOT, "dist"));
const { server, url } = await serve({ "/": dist, "/editor-demo/": join(ROOT, "www", "editor") });
let driver;
const counts = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const log = (line) => console.log(`[${browser}] ${line}`);

/** A test's time limit (a spec's `options.timeout` overrides): a WebDriver command can hang. */
const TEST_TIMEOUT_S = Number(process.env.E2E_TEST_TIMEOUT_S ?? 180);

/** `promise`, or a rejection naming `what` after `ms`. */
function withTimeout(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Runs one spec file, counting into `counts`; false when the browser stopped answering
 * (a screenshot or closing it timed out), so the caller starts a fresh driver. */
async function runSpec(file) {
  const spec = basename(file, ".mjs");
  const { tests, options = {} } = await import(pathToFileURL(file).href);
  const chosen = tests.filter(([name]) => !grep || `${spec} › ${name}`.includes(grep));
  if (!chosen.length) return true;
  if (options.only && !options.only.browsers.includes(browser)) {
    counts.skipped += chosen.length;
    log(`skip ${spec}: ${options.only.why}`);
    return true;
  }
  const session = await driver.session({ phone: options.phone });
  const page = new Page(session, { browser, base: url, out, phone: options.phone });
  try {
    if (!options.phone) await page.setViewport(DESKTOP.width, DESKTOP.height);
    if (options.path !== null) await page.open(options.path ?? "");
    for (let i = 0; i < chosen.length; i++) {
      const [name, test] = chosen[i];
      const start = Date.now();
      try {
        await withTimeout(test(page), (options.timeout ?? TEST_TIMEOUT_S) * 1000, "the test");
        const errors = await page.takeErrors();
        if (errors.length) throw new Error(errors.join("\n"));
        counts.passed++;
        log(`ok   ${spec} › ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)`);
      } catch (e) {
        counts.failed++;
        failures.push(`${spec} › ${name}`);
        log(`FAIL ${spec} › ${name}\n     ${String(e?.stack ?? e).replaceAll("\n", "\n     ")}`);
        // A hung driver never answers: the screenshot is bounded like every other wait.
        await withTimeout(page.shot(`failure-${spec}`), 30_000, "the failure screenshot").catch(() => {});
        const rest = chosen.length - i - 1;
        if (rest) log(`skip the ${rest} later test(s) of ${spec}: they build on the failed one`);
        counts.skipped += rest;
        return true;
      }
    }
  } finally {
    try {
      await withTimeout(session.quit(), 30_000, "closing the browser");
    } catch (e) {
      log(`the browser stopped answering (${e?.message ?? e}): a fresh driver for the next spec`);
      return false;
    }
  }
  return true;
}

// Interrupted: the driver's process group (the browser, Xvfb) goes too.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    await driver?.stop();
    process.exit(130);
  });
}

const started = Date.now();
try {
  driver = await startDriver(browser);
  for (const file of files) {
    try {
      if (!(await runSpec(file))) {
        await driver.stop();
        driver = await startDriver(browser);
      }
    } catch (e) {
      // The session itself failed (the browser did not start or crashed).
      counts.failed++;
      failures.push(basename(file));
      log(`FAIL ${basename(file)}: ${e?.stack ?? e}`);
    }
  }
} catch (e) {
  counts.failed++;
  log(`FAIL starting ${browser}: ${e?.message ?? e}`);
} finally {
  await driver?.stop();
  server.close();
}
const seconds = ((Date.now() - started) / 1000).toFixed(0);
if (failures.length) log(`failed: ${failures.join("; ")}`);
log(`screenshots in tests/e2e/out/${browser}/ (${seconds} s)`);
// The closing line CI reads: "N passed, N failed", one word before it.
console.log(`${browser}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(counts.failed === 0 && counts.passed > 0 ? 0 : 1);
