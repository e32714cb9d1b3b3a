// The embeddable widget: the example lesson (two iframes and a custom
// element), the iframe's postMessage protocol (only from its parent), two
// custom elements side by side (imported from another origin), read-only.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

export const options = { path: null };

const PROGRAM = "int x;\nint y;\nint main() {\n    x = 6 * 7;\n    y = x - 2;\n    return 0;\n}\n";

/** The text of a test id inside the first iframe matching `frame`, or inside a custom element's shadow root. */
function inner(page, host, id) {
  return page.eval(
    (h, i) => {
      const el = document.querySelector(h);
      const root = el?.shadowRoot ?? el?.contentDocument;
      return root?.querySelector(`[data-testid="${i}"]`)?.textContent ?? null;
    },
    host,
    id,
  );
}

/** A blank host page at the test server (its origin), with a message log. Not the lesson page:
 * emptying it while its three widgets boot left WebKitWebDriver hanging in the next command. */
async function hostPage(page, path = "editor-demo/demo.html") {
  await page.open(path, { mounted: false });
  await page.eval(() => {
    document.body.replaceChildren();
    window.__got = [];
    addEventListener("message", (e) => window.__got.push({ data: e.data, fromFrame: e.source === document.querySelector("#w")?.contentWindow }));
  });
}

const got = (page) => page.eval(() => window.__got.map((m) => m.data));

export const tests = [
  [
    "the example lesson renders at 1280×800 and at 600×400",
    async (page) => {
      await page.open("lesson.html", { mounted: false });
      for (const [w, h, name] of [
        [1280, 800, "40-lesson-1280"],
        [600, 400, "41-lesson-600"],
      ]) {
        await page.setViewport(w, h);
        await until("the custom element to load its program", async () =>
          /loaded|halted|paused/.test((await inner(page, "loom-playground", "status")) ?? ""),
        );
        await page.eval(() => document.querySelectorAll("iframe").forEach((f) => f.setAttribute("loading", "eager")));
        await until("the demo iframe to run", async () => Number(await inner(page, "iframe.demo", "step-count")) > 0);
        await until("the read-only iframe to load its loop", async () => /loaded/.test((await inner(page, "iframe.program", "status")) ?? ""));
        await page.shot(name);
        await page.eval(() => document.querySelector("iframe.program").scrollIntoView());
        await page.shot(`${name}-program`);
        await page.eval(() => document.querySelector("loom-playground").scrollIntoView());
        await page.shot(`${name}-element`);
        await page.eval(() => scrollTo(0, 0));
      }
      // The demo iframe shows only what it was asked for.
      const panels = await page.eval(() =>
        [...document.querySelector("iframe.demo").contentDocument.querySelectorAll(".wpanel")].map((p) => p.dataset.panel),
      );
      assert.deepEqual(panels, ["heatmap", "attention"]);
      // The lesson's buttons drive the element through the JS API.
      await page.click("#load");
      await page.click("#run");
      await until("the log to show the halt", async () => (await page.text("lesson-log")).includes('halted: halted'));
      assert.match(await page.text("lesson-log"), /"x":42/);
    },
  ],
  [
    "a host page drives an iframe by postMessage and hears it halt",
    async (page) => {
      await hostPage(page);
      await page.eval(() => {
        const f = document.createElement("iframe");
        f.id = "w";
        f.src = "/index.html?embed&panels=machine";
        f.style.cssText = "width:480px;height:320px";
        document.body.append(f);
      });
      await until("the widget to say ready", async () => (await got(page)).some((m) => m.event === "ready"));
      await page.eval((src) => {
        const w = document.querySelector("#w").contentWindow;
        w.postMessage({ loom: 1, cmd: "load", id: 1, source: src, lang: "c", config: "default" }, "*");
        w.postMessage({ loom: 1, cmd: "run", id: "two" }, "*");
      }, PROGRAM);
      await until("the halted event", async () => (await got(page)).some((m) => m.event === "halted"));
      const messages = await got(page);
      const halted = messages.find((m) => m.event === "halted");
      assert.equal(halted.loom, 1);
      assert.equal(halted.status, "halted");
      assert.deepEqual([halted.vars.x, halted.vars.y], [42, 40]);
      const replies = messages.filter((m) => "reply" in m);
      assert.deepEqual(replies.map((r) => [r.reply, r.ok]), [[1, true], ["two", true]]);
      assert.ok(messages.some((m) => m.event === "compiled" && m.ok === true), "a compiled event");
      assert.ok(messages.every((m) => m.loom === 1), "every message is in the envelope");
      // A step by line, a bad command and the state, each answered by its id.
      await page.eval(() => {
        const w = document.querySelector("#w").contentWindow;
        w.postMessage({ loom: 1, cmd: "reset", id: 3 }, "*");
        w.postMessage({ loom: 1, cmd: "step", by: "line", id: 4 }, "*");
        w.postMessage({ loom: 1, cmd: "format_disk", id: 5 }, "*");
        w.postMessage({ loom: 1, cmd: "state", id: 6 }, "*");
      });
      await until("four more replies", async () => (await got(page)).filter((m) => "reply" in m).length === 6);
      const [reset, step, bad, state] = (await got(page)).filter((m) => "reply" in m).slice(2);
      assert.equal(reset.steps, 0);
      assert.ok(step.ok && step.steps > 0, JSON.stringify(step));
      assert.equal(bad.ok, false);
      assert.match(bad.error, /not a command/);
      assert.deepEqual([state.ok, state.steps], [true, step.steps]);
      await page.shot("42-postmessage");
    },
  ],
  [
    "a message from another window is ignored",
    async (page) => {
      await page.eval(() => {
        window.__got = [];
        const other = document.createElement("iframe");
        other.id = "other";
        document.body.append(other);
        const w = document.querySelector("#w").contentWindow;
        // A sibling frame (same origin, not the parent) tries to drive the widget.
        other.contentWindow.eval(
          "parent.document.querySelector('#w').contentWindow.postMessage({loom: 1, cmd: 'load', id: 9, source: 'int z; int main() { z = 1; return 0; }'}, '*')",
        );
        // The widget's own window, too.
        w.eval("postMessage({loom: 1, cmd: 'run', id: 10}, '*')");
      });
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(await got(page), [], "no reply and no event");
      const vars = await page.eval(() => document.querySelector("#w").contentDocument.querySelector('[data-testid="variables"]').innerText);
      assert.doesNotMatch(vars, /\bz\b/);
      // The parent still drives it.
      await page.eval(() => document.querySelector("#w").contentWindow.postMessage({ loom: 1, cmd: "state", id: 11 }, "*"));
      await until("the parent's reply", async () => (await got(page)).some((m) => m.reply === 11));
    },
  ],
  [
    "two custom elements from another origin run independently",
    async (page) => {
      // The host page is on localhost; the module is imported from 127.0.0.1.
      const base = new URL(page.base);
      const module = new URL("loom-playground.js", base).href;
      base.hostname = "localhost";
      await page.open(new URL("editor-demo/demo.html", base).href, { mounted: false });
      await page.eval((src) => {
        document.body.replaceChildren();
        window.__log = [];
        for (const id of ["a", "b"]) {
          const el = document.createElement("loom-playground");
          el.id = id;
          el.setAttribute("panels", "editor,machine");
          el.style.cssText = "display:block;width:600px;height:340px";
          const s = document.createElement("script");
          s.type = "text/x-c";
          s.textContent = id === "a" ? src : "int n;\nint main() { while (1) { n++; } return 0; }\n";
          el.append(s);
          document.body.append(el);
        }
      }, PROGRAM);
      await page.eval(async (m) => {
        const mod = await import(m);
        window.__mount = mod.mount;
        for (const id of ["a", "b"]) {
          const el = document.getElementById(id);
          const w = await el.ready;
          for (const name of ["halted", "paused", "step"]) w.addEventListener(name, (e) => window.__log.push([id, name, e.detail.steps]));
        }
        window.__ready = true;
      }, module);
      await until("both widgets to mount", () => page.eval(() => window.__ready === true));
      // The machine runs in a worker even here: started from a blob: loader of the page's origin that imports the worker's script across origins.
      await until("a's worker", async () => (await inner(page, "#a", "thread")) === "worker");
      // Run a; b stays at step 0. Then step b by instruction twice; a keeps its result.
      const a = await page.eval(async () => (await document.getElementById("a").ready).run());
      await until("a to halt", () => page.eval(() => window.__log.some(([id, n]) => id === "a" && n === "halted")));
      const b = await page.eval(async () => {
        const w = await document.getElementById("b").ready;
        await w.step("instruction");
        return w.step();
      });
      const aState = await page.eval(async () => (await document.getElementById("a").ready).state());
      assert.equal(aState.status, "halted");
      assert.equal(aState.vars.x, 42);
      assert.equal(b.steps, 2);
      assert.equal(a.status, "running");
      assert.ok(!(await page.eval(() => window.__log.some(([id, n]) => id === "b" && n === "halted"))));
      // Keys pressed inside b act on b only.
      await page.eval(() => document.getElementById("b").shadowRoot.querySelector(".loom").focus());
      await page.press("ArrowRight");
      await until("b to take the key", async () => (await inner(page, "#b", "step-count")) === "3");
      assert.equal(await inner(page, "#a", "status"), (await inner(page, "#a", "status")));
      assert.match(await inner(page, "#a", "status"), /halted/);
      await page.shot("43-two-elements");
    },
  ],
  [
    "a read-only widget cannot be edited",
    async (page) => {
      await page.open("index.html?embed&readonly&panels=editor,machine&step=2&theme=dark");
      await page.expectText("step-count", /^2$/);
      const before = await page.text("editor");
      const cm = (await page.count(`${tid("editor")} .cm-content`)) > 0;
      await page.click(cm ? `${tid("editor")} .cm-content` : `${tid("editor")} textarea`);
      await page.type("int oops;");
      await page.press("Backspace");
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(await page.text("editor"), before);
      // It still runs.
      await page.click(tid("run"));
      await page.expectText("status", "halted");
      await page.shot("44-readonly");
      // "Open in playground ↗" carries the program to the full page.
      const href = await page.eval(() => {
        const a = document.querySelector('[data-testid="open-playground"]');
        a.addEventListener("click", (e) => e.preventDefault(), { once: true }); // no new tab
        a.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
        return a.href;
      });
      assert.match(href, /\/index\.html#v2=[A-Za-z0-9_-]+$/);
      await page.open(href.replace(page.base, ""));
      await until("the same program in the full page", async () => (await page.text("editor")) === before);
      await page.expectText("status", "halted");
    },
  ],
];
