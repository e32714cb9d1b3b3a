// Issue 13's promise as a teacher meets it: copy the iframe snippet and the
// custom-element snippet from the Share / Embed dialog, paste both into a blank
// HTML page on ANOTHER origin (the server's other name, localhost instead of
// 127.0.0.1) with a small host script, and drive both: the iframe by
// postMessage, the element by its JS API; both must report `halted` with the
// program's variables.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

const PROGRAM = "int x;\nint y;\nint main() {\n    x = 6 * 7;\n    y = x - 2;\n    return 0;\n}\n";

/** The host script a teacher would write: log the iframe's messages, and drive both widgets. */
const HOST = `
window.__got = [];
addEventListener("message", (e) => {
  if (e.source === document.querySelector("iframe").contentWindow) window.__got.push(e.data);
});
window.__element = [];
window.__drive = async () => {
  await customElements.whenDefined("loom-playground");
  const w = await document.querySelector("loom-playground").ready;
  for (const name of ["compiled", "step", "paused", "halted", "fault"]) {
    w.addEventListener(name, (e) => window.__element.push(e.detail));
  }
  return w.run();
};
`;

export const tests = [
  [
    "the dialog's two snippets, pasted into a blank page on another origin, both run and report halted",
    async (page) => {
      await page.setSource(PROGRAM);
      await page.click(tid("compile"));
      // (The example was "loaded" too: wait for this program's variables, the build answered from the worker.)
      await until("the program's build", async () => "x" in (await page.variables()));
      await page.expectText("status", "loaded");
      await page.click(tid("share"));
      await until("the snippets", async () => (await page.value(tid("element-snippet"))).includes("<loom-playground"));
      const iframe = await page.value(tid("iframe-snippet"));
      const element = await page.value(tid("element-snippet"));
      assert.match(iframe, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/[^"]*\?embed[^"]*#v2=/);
      assert.match(element, /<script type="module" src="http:\/\/127\.0\.0\.1:\d+\/loom-playground\.js"><\/script>/);
      await until("the dialog's live preview to load the program", () =>
        page.eval(() => document.querySelector('[data-testid="embed-preview"]')?.contentDocument?.querySelector('[data-testid="status"]')?.textContent === "loaded"),
      );
      await page.shot("62-share-dialog-snippets");

      // A blank page on the other origin: nothing of the playground's is in it but the two snippets.
      const other = new URL(page.base);
      other.hostname = "localhost";
      await page.open(new URL("editor-demo/demo.html", other).href, { mounted: false });
      const html = `<!doctype html>\n<html><head><meta charset="utf-8"><title>Pasted</title>\n<script>${HOST}</script></head>\n<body>\n<h1>My lesson</h1>\n${iframe}\n${element}\n</body></html>\n`;
      await page.eval((doc) => {
        document.open();
        document.write(doc);
        document.close();
      }, html);
      assert.equal(await page.eval(() => location.origin), other.origin.replace(/\/$/, ""));
      assert.notEqual(other.origin, new URL(page.base).origin);

      // The iframe: it says ready, then runs on its parent's message.
      await until("the iframe to say ready", () => page.eval(() => window.__got.some((m) => m.event === "ready")));
      const ready = await page.eval(() => window.__got.find((m) => m.event === "ready"));
      assert.equal(ready.loom, 1);
      assert.equal(ready.status, "loaded", "the snippet carries the program: it is loaded, not empty");
      await page.eval(() => document.querySelector("iframe").contentWindow.postMessage({ loom: 1, cmd: "run", id: "go" }, "*"));
      await until("the iframe's halted event", () => page.eval(() => window.__got.some((m) => m.event === "halted")));
      const got = await page.eval(() => window.__got);
      const halted = got.find((m) => m.event === "halted");
      assert.deepEqual([halted.vars.x, halted.vars.y], [42, 40]);
      assert.deepEqual(got.filter((m) => "reply" in m).map((r) => [r.reply, r.ok]), [["go", true]]);
      // A download through the protocol: the state's file event carries its bytes.
      await page.eval(() => document.querySelector("iframe").contentWindow.postMessage({ loom: 1, cmd: "download", file: "state", id: "file" }, "*"));
      await until("the file event", () => page.eval(() => window.__got.some((m) => m.event === "file")));
      const file = await page.eval(() => {
        const m = window.__got.find((m) => m.event === "file");
        // (Not `instanceof`: Firefox runs WebDriver scripts in a realm of their own.)
        const kind = Object.prototype.toString.call(m.bytes);
        return { name: m.name, size: m.size, kind, length: m.bytes.length, magic: String.fromCharCode(...m.bytes.subarray(1, 6)) };
      });
      assert.equal(file.name, `state-step-${halted.steps}.npy`);
      assert.equal(file.kind, "[object Uint8Array]");
      assert.equal(file.length, file.size);
      assert.equal(file.magic, "NUMPY");

      // The custom element: its module came from the other origin; the host drives it through the JS API.
      const run = await page.eval(() => window.__drive());
      assert.equal(run.status, "running");
      await until("the element's halted event", () => page.eval(() => window.__element.some((d) => d.event === "halted")));
      const done = await page.eval(() => window.__element.find((d) => d.event === "halted"));
      assert.deepEqual([done.vars.x, done.vars.y], [42, 40]);
      const state = await page.eval(async () => (await document.querySelector("loom-playground").ready).state());
      assert.equal(state.status, "halted");
      await page.shot("63-pasted-snippets");
    },
  ],
];
