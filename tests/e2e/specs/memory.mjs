// The memory view (issue 32): frames and globals as cells, a pointer into an array and a
// linked list in a pool of structures drawn as arrows that end on their targets' cells,
// the cell the last move changed marked; and the widget's panels=memory.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

// `first` comes first, in slot 1 (slot 0 is NULL's), before the array the pointer walks.
const POOL = `int first;
int a[4];
struct node { int v; struct node *next; } pool[4];
char c = 'a';

int main() {
    int *p = a;
    struct node *head = 0;
    for (int i = 0; i < 4; i++) {
        pool[i].v = i * 10;
        pool[i].next = head;
        head = &pool[i];
    }
    p = &a[2];
    *p = 7;
    c = c + 1;
    return head->v + *p + c;
}
`;

/** Line 15 is `*p = 7;`. */
const STOP = 15;

const WANTED = ["p → a[2]", "head → pool[3].v", "pool[3].next → pool[2].v", "pool[2].next → pool[1].v", "pool[1].next → pool[0].v"];

/**
 * The arrows in the memory view (of the page, or with `inFrame` of the widget's iframe)
 * as `from → to`, each checked to start on its pointer's cell and end on its target's
 * (within 2 px), and the changed cells. Runs in the page.
 */
function drawn(inFrame) {
  const doc = inFrame ? document.querySelector("#w").contentDocument : document;
  const view = doc.querySelector('[data-testid="memory-view"]');
  if (!view) return null;
  const o = view.getBoundingClientRect();
  const cell = (name) => view.querySelector(`[data-testid="memory-cell"][data-name="${name}"]`);
  const inside = (r, x, y) => x >= r.left - o.left - 2 && x <= r.right - o.left + 2 && y >= r.top - o.top - 2 && y <= r.bottom - o.top + 2;
  const arrows = [...view.querySelectorAll('[data-testid="pointer-arrow"]')].map((g) => {
    const n = g.querySelector(".arrow-line").getAttribute("d").match(/-?\d+(\.\d+)?/g).map(Number);
    const [from, to] = [cell(g.dataset.from), cell(g.dataset.to)];
    const ok =
      !!from && !!to && inside(from.getBoundingClientRect(), n[0], n[1]) && inside(to.getBoundingClientRect(), n[n.length - 2], n[n.length - 1]);
    return `${g.dataset.from} → ${g.dataset.to}${ok ? "" : " (misplaced)"}`;
  });
  const changed = [...view.querySelectorAll('[data-testid="memory-cell"].changed')].map((c) => `${c.dataset.name} = ${c.querySelector(".mem-value").innerText}`);
  const value = (name) => cell(name)?.querySelector(".mem-value").innerText;
  return { arrows, changed, nullEnd: value("pool[0].next"), c: value("c") };
}

/** Waits until the memory view draws every wanted arrow on its cells; returns what it shows. */
async function expectArrows(read) {
  let seen;
  await until("the memory view's arrows", async () => {
    seen = await read();
    return seen && WANTED.every((w) => seen.arrows.includes(w));
  }).catch((e) => {
    throw new Error(`${e.message}; it shows ${JSON.stringify(seen)}`);
  });
  return seen;
}

const gutter = (line) => `${tid("editor")} .cm-loom-breakpoints .cm-gutterElement:nth-child(${line + 1})`;

export const tests = [
  [
    "stopped before *p = 7: p and the list in the pool are arrows to their targets",
    async (page) => {
      await page.setSource(POOL);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      await page.select(tid("speed"), "0");
      await page.click(gutter(STOP));
      await page.click(tid("run"));
      await page.expectText("pc", `(line ${STOP})`);
      const seen = await expectArrows(() => page.eval(drawn, false));
      assert.equal(seen.arrows.length, WANTED.length, JSON.stringify(seen.arrows));
      assert.equal(seen.nullEnd, "NULL");
      assert.equal(seen.c, "'a'");
      await page.eval(() => document.querySelector('[data-testid="memory-view"]').scrollIntoView({ block: "center" }));
      await page.shot("60-memory-pointers");
    },
  ],
  [
    "a line step marks the cell it changed: a[2] = 7",
    async (page) => {
      await page.click(tid("step-line"));
      await page.expectText("pc", `(line ${STOP + 1})`);
      let seen;
      await until("a[2] marked changed", async () => {
        seen = await page.eval(drawn, false);
        return seen?.changed.length === 1;
      }).catch((e) => {
        throw new Error(`${e.message}; it shows ${JSON.stringify(seen)}`);
      });
      assert.deepEqual(seen.changed, ["a[2] = 7"]);
      await page.eval(() => document.querySelector('[data-testid="memory-view"]').scrollIntoView({ block: "center" }));
      await page.shot("61-memory-changed");
    },
  ],
  [
    "a widget with panels=memory draws the same arrows",
    async (page) => {
      await page.open("editor-demo/demo.html", { mounted: false });
      await page.eval(() => {
        document.body.replaceChildren();
        window.__got = [];
        addEventListener("message", (e) => window.__got.push(e.data));
        const f = document.createElement("iframe");
        f.id = "w";
        f.src = "/index.html?embed&panels=memory,editor";
        f.style.cssText = "width:1000px;height:640px";
        document.body.append(f);
      });
      await until("the widget to say ready", async () => page.eval(() => window.__got.some((m) => m.event === "ready")));
      await page.eval((src, line) => {
        const w = document.querySelector("#w").contentWindow;
        w.postMessage({ loom: 1, cmd: "load", id: 1, source: src }, "*");
        w.postMessage({ loom: 1, cmd: "breakpoints", lines: [line], id: 2 }, "*");
        w.postMessage({ loom: 1, cmd: "speed", steps_per_second: 0, id: 3 }, "*");
        w.postMessage({ loom: 1, cmd: "run", id: 4 }, "*");
      }, POOL, STOP);
      await until("the breakpoint", async () => page.eval(() => window.__got.some((m) => m.event === "paused")));
      await expectArrows(() => page.eval(drawn, true));
      await page.shot("62-embed-memory");
    },
  ],
];
