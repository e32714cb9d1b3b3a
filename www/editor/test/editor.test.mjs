// Drives demo.html in headless Chromium through both implementations of the
// LoomEditor API. Run from www/editor: `npm ci && npm test` (needs
// /usr/bin/chromium, or CHROMIUM=path). Screenshots go to $SHOTS (default
// /tmp/loom-editor-shots) for a human to look at.

import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";

const root = new URL("..", import.meta.url).pathname;
const shots = process.env.SHOTS ?? "/tmp/loom-editor-shots";
mkdirSync(shots, { recursive: true });

let server;
let browser;
let base;

before(async () => {
  server = createServer((req, res) => {
    const path = join(root, new URL(req.url, "http://x").pathname);
    let body;
    try {
      body = readFileSync(path);
    } catch {
      return res.writeHead(404).end();
    }
    const type = { ".html": "text/html", ".js": "text/javascript" }[extname(path)] ?? "text/plain";
    res.writeHead(200, { "content-type": type }).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  // Playwright gives every launch a fresh temporary profile (it refuses an
  // explicit --user-data-dir here).
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function open(path, setup) {
  const page = await browser.newPage({ viewport: { width: 760, height: 560 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await setup?.(page);
  await page.goto(base + path);
  await page.waitForFunction(() => window.demo);
  return { page, errors };
}

const call = (page, name, ...args) => page.evaluate(([n, a]) => window.demo.api[n](window.demo.h, ...a), [name, args]);
const events = (page, kind) =>
  page.evaluate((k) => window.events.filter((e) => e.kind === k).map((e) => e.value), kind);

test("CodeMirror editor: typing, diagnostics, breakpoints, current line, keys, dark mode", async () => {
  const { page, errors } = await open("/demo.html");
  const editor = page.getByTestId("editor");
  assert.equal(await page.evaluate(() => window.LoomEditor.kind()), "codemirror");
  assert.equal(await editor.locator(".cm-editor").count(), 1);
  // C highlighting is on: keywords get a highlight class.
  assert.ok((await editor.locator(".cm-content span[class]").count()) > 10);

  // Typing reaches getText and, debounced, onChange (once for a burst).
  await editor.locator(".cm-line").nth(9).click();
  await page.keyboard.type("int y = 2;");
  await page.waitForFunction(() => window.events.some((e) => e.kind === "change"));
  const text = await call(page, "getText");
  assert.equal(text.split("\n")[9], "int y = 2;");
  assert.deepEqual(await events(page, "change"), [text.length]);

  // A diagnostic is squiggled and its message shows on hover.
  await call(page, "setDiagnostics", [
    { line: 12, col: 20, endCol: 21, severity: "error", message: "undefined variable `y`" },
    { line: 3, col: 7, endCol: 12, severity: "warning", message: "demo warning" },
  ]);
  const squiggle = editor.locator(".cm-lintRange-error");
  assert.equal(await squiggle.textContent(), "y");
  assert.equal(await editor.locator(".cm-lintRange-warning").textContent(), "total");
  await squiggle.hover();
  await page.locator(".cm-tooltip-lint").waitFor();
  assert.match(await page.locator(".cm-tooltip-lint").textContent(), /undefined variable `y`/);

  // The loom_core::diag::Diagnostic serialisation is accepted as-is, as JSON.
  await call(
    page,
    "setDiagnostics",
    JSON.stringify([
      { severity: "error", message: "bad", span: { line: 2, col: 5, end_col: 8 }, notes: [], hint: "fix" },
    ]),
  );
  assert.equal(await editor.locator(".cm-lintRange-error").textContent(), "sum");
  await editor.locator(".cm-lintRange-error").hover();
  assert.match(await page.locator(".cm-tooltip-lint").textContent(), /bad.*hint: fix/s);
  await page.mouse.move(600, 500);

  // Clicking the breakpoint gutter toggles a dot; breakpoints follow their line.
  const gutterCell = (line) => editor.locator(".cm-loom-breakpoints .cm-gutterElement").nth(line); // 0 = spacer
  await gutterCell(5).click();
  assert.deepEqual(await call(page, "getBreakpoints"), [5]);
  assert.equal(await editor.locator(".cm-loom-breakpoint").filter({ visible: true }).count(), 1); // + hidden spacer
  await editor.locator(".cm-line").first().click();
  await page.keyboard.press("Home");
  await page.keyboard.press("Enter");
  assert.deepEqual(await call(page, "getBreakpoints"), [6]);
  await gutterCell(6).click();
  assert.deepEqual(await call(page, "getBreakpoints"), []);
  await call(page, "setBreakpoints", [9, 3, 3, 0, 500]);
  assert.deepEqual(await call(page, "getBreakpoints"), [3, 9]);
  assert.deepEqual(await events(page, "breakpoints"), [[5], [6], [], [3, 9]]);

  // The executing line is highlighted, and scrolled to when off screen.
  await call(page, "setCurrentLine", 5);
  assert.equal(await editor.locator(".cm-loom-current-line").textContent(), "  while (n > 0) {");
  await page.waitForTimeout(300); // let the Enter typed above report its change
  const changes = (await events(page, "change")).length;
  const long = Array.from({ length: 200 }, (_, i) => `int v${i + 1} = ${i};`).join("\n");
  await call(page, "setText", long);
  assert.deepEqual(await call(page, "getBreakpoints"), [], "setText clears breakpoints");
  await page.waitForTimeout(300); // past the debounce: setText must not echo through onChange
  assert.equal((await events(page, "change")).length, changes);
  await call(page, "setCurrentLine", 150);
  await editor.locator(".cm-loom-current-line").waitFor();
  assert.equal(await editor.locator(".cm-loom-current-line").textContent(), "int v150 = 149;");
  assert.ok(await editor.locator(".cm-loom-current-line").isVisible());
  await call(page, "setCurrentLine", 0);
  assert.equal(await editor.locator(".cm-loom-current-line").count(), 0);

  // gotoLine selects a column range, or the whole line.
  await call(page, "gotoLine", 42, 5, 8);
  const selection = () => page.evaluate(() => getSelection().toString());
  assert.equal(await selection(), "v42");
  await call(page, "gotoLine", 7);
  assert.equal(await selection(), "int v7 = 6;");

  // Ctrl+Enter goes to onKeyCommand, is consumed, and inserts nothing.
  const before = await call(page, "getText");
  await page.keyboard.press("Control+Enter");
  assert.deepEqual(await events(page, "key"), ["compile"]);
  assert.deepEqual(await events(page, "page-shortcut"), []);
  assert.equal(await call(page, "getText"), before);
  // Without a callback it bubbles to the page's own shortcut instead.
  await call(page, "onKeyCommand", null);
  await page.keyboard.press("Control+Enter");
  assert.deepEqual(await events(page, "page-shortcut"), ["compile"]);
  assert.equal(await call(page, "getText"), before);

  // Read-only refuses typing; history undoes edits.
  await call(page, "setReadOnly", true);
  await page.keyboard.type("xyz");
  assert.equal(await call(page, "getText"), before);
  await gutterCell(2).click(); // breakpoints stay clickable while read-only
  assert.deepEqual(await call(page, "getBreakpoints"), [2]);
  await editor.locator(".cm-content").click();
  await call(page, "gotoLine", 7);
  await call(page, "setReadOnly", false);
  await page.keyboard.type("xyz");
  assert.notEqual(await call(page, "getText"), before);
  await page.keyboard.press("Control+z");
  assert.equal(await call(page, "getText"), before);

  // Back to the demo program for the screenshots: light, then dark.
  await page.reload();
  await page.waitForFunction(() => window.demo);
  await page.click("#diagnose");
  await call(page, "setBreakpoints", [5]);
  await call(page, "setCurrentLine", 5);
  await editor.locator(".cm-lintRange-error").hover();
  await page.locator(".cm-tooltip-lint").waitFor();
  await gutterCell(8).hover(); // shows the faint "click to add" dot
  await page.screenshot({ path: `${shots}/light.png` });
  const background = () => editor.locator(".cm-editor").evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(await background(), "rgb(255, 255, 255)");
  await page.click("#dark");
  assert.equal(await background(), "rgb(27, 30, 36)");
  await editor.locator(".cm-lintRange-error").hover();
  await page.locator(".cm-tooltip-lint").waitFor();
  await page.screenshot({ path: `${shots}/dark.png` });

  await call(page, "destroy");
  assert.equal(await editor.locator(".cm-editor").count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("textarea fallback takes over when the bundle fails to load", async () => {
  const { page, errors } = await open("/demo.html", (p) => p.route("**/loom-editor.js", (route) => route.abort()));
  assert.equal(await page.evaluate(() => window.LoomEditor.kind()), "textarea");
  const area = page.getByTestId("editor").locator("textarea");
  await area.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n// more");
  await page.waitForFunction(() => window.events.some((e) => e.kind === "change"));
  assert.ok((await call(page, "getText")).endsWith("}\n// more"));
  assert.equal(await area.inputValue(), await call(page, "getText"));

  await page.keyboard.press("Control+Enter");
  assert.deepEqual(await events(page, "key"), ["compile"]);
  assert.ok((await call(page, "getText")).endsWith("// more"), "Ctrl+Enter inserts nothing");

  const undefinedY = { line: 12, col: 20, endCol: 21, severity: "error", message: "undefined variable `y`" };
  await call(page, "setDiagnostics", [undefinedY]);
  assert.equal(await area.getAttribute("title"), "12:20: error: undefined variable `y`");
  await call(page, "setBreakpoints", [4, 2]);
  assert.deepEqual(await call(page, "getBreakpoints"), [2, 4]);
  await call(page, "gotoLine", 2, 5, 8);
  assert.equal(await area.evaluate((a) => a.value.slice(a.selectionStart, a.selectionEnd)), "sum");
  await call(page, "setText", "int main() { return 0; }");
  assert.deepEqual(await events(page, "breakpoints"), [[2, 4], []]);
  await call(page, "setDark", true);
  await page.screenshot({ path: `${shots}/fallback-dark.png` });
  await call(page, "destroy");
  assert.equal(await area.count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
