// The editor bridge (www/editor, window.LoomEditor) on its own demo page,
// through both implementations: the CodeMirror bundle and the textarea
// fallback that takes over when the bundle fails to load.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

const DEMO = "editor-demo/demo.html";
const editor = tid("editor");

export const options = { path: null };

/** Opens the demo page (`blocked`: a file the server refuses) at the size the screenshots want. */
async function open(page, blocked) {
  await page.open(blocked ? `_block/${blocked}/${DEMO}` : DEMO, { mounted: false });
  await page.setViewport(760, 560);
  await until("the demo page", () => page.eval(() => !!window.demo));
}

const call = (page, name, ...args) => page.eval((n, a) => window.demo.api[n](window.demo.h, ...a), name, args);
const events = (page, kind) => page.eval((k) => window.events.filter((e) => e.kind === k).map((e) => e.value), kind);
const waitForEvent = (page, kind) =>
  until(`a ${kind} event`, () => page.eval((k) => window.events.some((e) => e.kind === k), kind));
const content = (page, selector) => page.eval((s) => document.querySelector(s)?.textContent ?? null, selector);
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
/** Gutter cell `line` of the breakpoint gutter (cell 0 is CodeMirror's spacer). */
const gutterCell = (line) => `${editor} .cm-loom-breakpoints .cm-gutterElement:nth-child(${line + 1})`;
const selection = (page) => page.eval(() => getSelection().toString());

async function hoverTooltip(page, selector) {
  await page.hover(selector);
  await until("the lint tooltip", () => page.count(".cm-tooltip-lint"));
  return content(page, ".cm-tooltip-lint");
}

export const tests = [
  [
    "CodeMirror editor: typing, diagnostics, breakpoints, current line, keys, dark mode",
    async (page) => {
      await open(page);
      assert.equal(await page.eval(() => window.LoomEditor.kind()), "codemirror");
      assert.equal(await page.count(`${editor} .cm-editor`), 1);
      // C highlighting is on: keywords get a highlight class.
      assert.ok((await page.count(`${editor} .cm-content span[class]`)) > 10);

      // Typing reaches getText and, debounced, onChange (once for a burst: 150 ms
      // without a key ends one, which a busy machine may put between two keys).
      const typed = "int y = 2;";
      await page.click(`${editor} .cm-line:nth-child(10)`);
      await page.type(typed);
      const text = await call(page, "getText");
      assert.equal(text.split("\n")[9], typed);
      await until("onChange with the typed text", async () => (await events(page, "change")).at(-1) === text.length);
      const bursts = (await events(page, "change")).length;
      assert.ok(bursts < typed.length, `${bursts} change events for ${typed.length} keys`);

      // A diagnostic is squiggled and its message shows on hover.
      await call(page, "setDiagnostics", [
        { line: 12, col: 20, endCol: 21, severity: "error", message: "undefined variable `y`" },
        { line: 3, col: 7, endCol: 12, severity: "warning", message: "demo warning" },
      ]);
      assert.equal(await content(page, ".cm-lintRange-error"), "y");
      assert.equal(await content(page, ".cm-lintRange-warning"), "total");
      assert.match(await hoverTooltip(page, ".cm-lintRange-error"), /undefined variable `y`/);

      // The loom_core::diag::Diagnostic serialisation is accepted as-is, as JSON.
      await call(
        page,
        "setDiagnostics",
        JSON.stringify([
          { severity: "error", message: "bad", span: { line: 2, col: 5, end_col: 8 }, notes: [], hint: "fix" },
        ]),
      );
      assert.equal(await content(page, ".cm-lintRange-error"), "sum");
      assert.match(await hoverTooltip(page, ".cm-lintRange-error"), /bad.*hint: fix/s);
      await page.mouseTo(600, 500);

      // Clicking the breakpoint gutter toggles a dot; breakpoints follow their line.
      await page.click(gutterCell(5));
      assert.deepEqual(await call(page, "getBreakpoints"), [5]);
      const visibleDots = () =>
        page.eval(
          (s) => [...document.querySelectorAll(s)].filter((e) => e.checkVisibility({ visibilityProperty: true })).length,
          `${editor} .cm-loom-breakpoint`,
        );
      assert.equal(await visibleDots(), 1); // + a hidden spacer
      await page.click(`${editor} .cm-line:first-child`);
      await page.press("Home");
      await page.press("Enter");
      assert.deepEqual(await call(page, "getBreakpoints"), [6]);
      await page.click(gutterCell(6));
      assert.deepEqual(await call(page, "getBreakpoints"), []);
      await call(page, "setBreakpoints", [9, 3, 3, 0, 500]);
      assert.deepEqual(await call(page, "getBreakpoints"), [3, 9]);
      assert.deepEqual(await events(page, "breakpoints"), [[5], [6], [], [3, 9]]);

      // The executing line is highlighted, and scrolled to when off screen.
      await call(page, "setCurrentLine", 5);
      assert.equal(await content(page, `${editor} .cm-loom-current-line`), "  while (n > 0) {");
      await pause(300); // let the Enter typed above report its change
      const changes = (await events(page, "change")).length;
      const long = Array.from({ length: 200 }, (_, i) => `int v${i + 1} = ${i};`).join("\n");
      await call(page, "setText", long);
      assert.deepEqual(await call(page, "getBreakpoints"), [], "setText clears breakpoints");
      await pause(300); // past the debounce: setText must not echo through onChange
      assert.equal((await events(page, "change")).length, changes);
      await call(page, "setCurrentLine", 150);
      await until("line 150 highlighted", () => page.count(`${editor} .cm-loom-current-line`));
      assert.equal(await content(page, `${editor} .cm-loom-current-line`), "int v150 = 149;");
      const inView = () =>
        page.eval((s) => {
          const [line, box] = [document.querySelector(`${s} .cm-loom-current-line`), document.querySelector(`${s} .cm-scroller`)];
          const [a, b] = [line.getBoundingClientRect(), box.getBoundingClientRect()];
          return a.height > 0 && a.top >= b.top && a.bottom <= b.bottom;
        }, editor);
      await until("line 150 scrolled into view", inView);
      await call(page, "setCurrentLine", 0);
      assert.equal(await page.count(`${editor} .cm-loom-current-line`), 0);

      // gotoLine selects a column range, or the whole line.
      await call(page, "gotoLine", 42, 5, 8);
      assert.equal(await selection(page), "v42");
      await call(page, "gotoLine", 7);
      assert.equal(await selection(page), "int v7 = 6;");

      // Ctrl+Enter goes to onKeyCommand, is consumed, and inserts nothing.
      const before = await call(page, "getText");
      await page.press("Control+Enter");
      assert.deepEqual(await events(page, "key"), ["compile"]);
      assert.deepEqual(await events(page, "page-shortcut"), []);
      assert.equal(await call(page, "getText"), before);
      // Without a callback it bubbles to the page's own shortcut instead.
      await call(page, "onKeyCommand", null);
      await page.press("Control+Enter");
      assert.deepEqual(await events(page, "page-shortcut"), ["compile"]);
      assert.equal(await call(page, "getText"), before);

      // Read-only refuses typing; history undoes edits.
      await call(page, "setReadOnly", true);
      await page.type("xyz");
      assert.equal(await call(page, "getText"), before);
      await page.click(gutterCell(2)); // breakpoints stay clickable while read-only
      assert.deepEqual(await call(page, "getBreakpoints"), [2]);
      await page.click(`${editor} .cm-content`);
      await call(page, "gotoLine", 7);
      await call(page, "setReadOnly", false);
      await page.type("xyz");
      assert.notEqual(await call(page, "getText"), before);
      await page.press("Control+z");
      assert.equal(await call(page, "getText"), before);

      // Back to the demo program for the screenshots: light, then dark.
      await page.driver.navigate().refresh();
      await until("the demo page", () => page.eval(() => !!window.demo));
      await page.click("#diagnose");
      await call(page, "setBreakpoints", [5]);
      await call(page, "setCurrentLine", 5);
      await hoverTooltip(page, ".cm-lintRange-error");
      await page.hover(gutterCell(8)); // shows the faint "click to add" dot
      await page.shot("editor-light");
      const background = () => page.eval((s) => getComputedStyle(document.querySelector(s)).backgroundColor, `${editor} .cm-editor`);
      assert.equal(await background(), "rgb(255, 255, 255)");
      await page.click("#dark");
      assert.equal(await background(), "rgb(27, 30, 36)");
      await hoverTooltip(page, ".cm-lintRange-error");
      await page.shot("editor-dark");

      await call(page, "destroy");
      assert.equal(await page.count(`${editor} .cm-editor`), 0);
    },
  ],
  [
    "textarea fallback takes over when the bundle fails to load",
    async (page) => {
      await open(page, "loom-editor.js");
      assert.equal(await page.eval(() => window.LoomEditor.kind()), "textarea");
      const area = `${editor} textarea`;
      await page.click(area);
      await page.press("Control+End");
      await page.press("Enter");
      await page.type("// more");
      await waitForEvent(page, "change");
      assert.ok((await call(page, "getText")).endsWith("}\n// more"));
      assert.equal(await page.value(area), await call(page, "getText"));

      await page.press("Control+Enter");
      assert.deepEqual(await events(page, "key"), ["compile"]);
      assert.ok((await call(page, "getText")).endsWith("// more"), "Ctrl+Enter inserts nothing");

      const undefinedY = { line: 12, col: 20, endCol: 21, severity: "error", message: "undefined variable `y`" };
      await call(page, "setDiagnostics", [undefinedY]);
      assert.equal(await page.eval((s) => document.querySelector(s).title, area), "12:20: error: undefined variable `y`");
      await call(page, "setBreakpoints", [4, 2]);
      assert.deepEqual(await call(page, "getBreakpoints"), [2, 4]);
      await call(page, "gotoLine", 2, 5, 8);
      assert.equal(await page.eval((s) => { const a = document.querySelector(s); return a.value.slice(a.selectionStart, a.selectionEnd); }, area), "sum");
      await call(page, "setText", "int main() { return 0; }");
      assert.deepEqual(await events(page, "breakpoints"), [[2, 4], []]);
      await call(page, "setDark", true);
      await page.shot("editor-fallback-dark");
      await call(page, "destroy");
      assert.equal(await page.count(area), 0);
    },
  ],
];
