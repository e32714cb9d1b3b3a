// The widget's call stack (`panels=stack`, with Over and Out in its bar), and a load of
// a program that does not compile: the iframe's reply says ok: false with the first
// error, and the custom element's load() rejects the same way.
import assert from "node:assert/strict";
import { until } from "../harness/page.mjs";

export const options = { path: null };

const FACT = "int fact(int n) {\n    if (n <= 1)\n        return 1;\n    return n * fact(n - 1);\n}\n\nint main() {\n    int r = fact(5);\n    return r;\n}\n";
const BROKEN = "int main() { return 0 }";

const got = (page) => page.eval(() => window.__got.map((m) => m.data));
const replies = async (page) => (await got(page)).filter((m) => "reply" in m);

/** The frames of the iframe's call stack, as text. */
const frames = (page) =>
  page.eval(() =>
    [...document.querySelector("#w").contentDocument.querySelectorAll('[data-testid="frame"]')].map((f) =>
      f.innerText.replace(/\s+/g, " ").trim(),
    ),
  );

export const tests = [
  [
    "an iframe with panels=stack: a refused load says its first error; the stack shows every activation",
    async (page) => {
      await page.open("editor-demo/demo.html", { mounted: false });
      await page.eval(() => {
        document.body.replaceChildren();
        window.__got = [];
        addEventListener("message", (e) => window.__got.push({ data: e.data }));
        const f = document.createElement("iframe");
        f.id = "w";
        f.src = "/index.html?embed&panels=stack,editor";
        f.style.cssText = "width:900px;height:600px";
        document.body.append(f);
      });
      await until("the widget to say ready", async () => (await got(page)).some((m) => m.event === "ready"));
      const ready = (await got(page)).find((m) => m.event === "ready");
      assert.deepEqual(ready.panels, ["stack", "editor"]);
      await page.eval((src) => document.querySelector("#w").contentWindow.postMessage({ loom: 1, cmd: "load", id: 1, source: src }, "*"), BROKEN);
      await until("the load's reply", async () => (await replies(page)).length === 1);
      const [refused] = await replies(page);
      assert.equal(refused.ok, false, JSON.stringify(refused));
      assert.match(refused.error, /^line 1, column \d+: expected/);
      await page.eval((src) => {
        const w = document.querySelector("#w").contentWindow;
        w.postMessage({ loom: 1, cmd: "load", id: 2, source: src }, "*");
        w.postMessage({ loom: 1, cmd: "breakpoints", lines: [3], id: 3 }, "*");
        w.postMessage({ loom: 1, cmd: "speed", steps_per_second: 0, id: 4 }, "*");
        w.postMessage({ loom: 1, cmd: "run", id: 5 }, "*");
      }, FACT);
      await until("the breakpoint", async () => (await got(page)).some((m) => m.event === "paused"));
      assert.deepEqual((await replies(page)).map((r) => r.ok), [false, true, true, true, true]);
      const paused = (await got(page)).find((m) => m.event === "paused");
      assert.deepEqual(paused.frames.map((f) => f.vars[0]?.value), ["1", "2", "3", "4", "5", "0"]);
      assert.ok(paused.owners.some((o) => o.name === "fact#3: n"), JSON.stringify(paused.owners));
      await until("six frames in the widget", async () => (await frames(page)).length === 6);
      assert.match((await frames(page))[0], /^fact#5 line 3 n = 1$/);
      await page.shot("47-embed-stack");
      // The bar's Out finishes fact#5.
      await page.eval(() => document.querySelector("#w").contentDocument.querySelector('[data-testid="step-out"]').click());
      await until("five frames", async () => (await frames(page)).length === 5);
      assert.match((await frames(page))[0], /^fact#4 line 4 n = 2$/);
    },
  ],
  [
    "the custom element's load() rejects a program that does not compile",
    async (page) => {
      const module = new URL("loom-playground.js", page.base).href;
      await page.open("editor-demo/demo.html", { mounted: false });
      await page.eval(() => {
        document.body.replaceChildren();
        const el = document.createElement("loom-playground");
        el.id = "e";
        el.setAttribute("panels", "editor,stack");
        el.style.cssText = "display:block;width:700px;height:400px";
        document.body.append(el);
      });
      const outcome = await page.eval(
        async (m, broken, good) => {
          await import(m);
          const w = await document.getElementById("e").ready;
          const bad = await w.load(broken).then(
            () => "resolved",
            (e) => `rejected: ${e.message}`,
          );
          const ok = await w.load(good).then((s) => `resolved: ${s.status}`, (e) => `rejected: ${e.message}`);
          return [bad, ok];
        },
        module,
        BROKEN,
        FACT,
      );
      assert.match(outcome[0], /^rejected: line 1, column \d+: expected/);
      assert.equal(outcome[1], "resolved: loaded");
    },
  ],
];
