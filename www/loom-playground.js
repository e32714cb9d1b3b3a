// <loom-playground> and mount(): the Loom widget in any page, without an iframe.
//
//   <script type="module" src="https://SITE/loom-playground.js"></script>
//   <loom-playground panels="editor,machine" readonly>
//     <script type="text/x-c">int x; int main() { x = 6 * 7; return 0; }</script>
//   </loom-playground>
//
// or, from a script: `const w = await mount(element, {panels: "heatmap", source: "…"})`,
// then `await w.run()`, `w.addEventListener("halted", (e) => e.detail.vars)`.
// Attributes and options are the embed options (the manual's "Embedding", docs/src/embedding.md); the
// module finds the wasm, the editor and the styles beside itself, so it can be
// imported from another site. Each widget has its own shadow root, machine,
// editor and keyboard shortcuts (keys act while focus is inside it).

const BASE = new URL(".", import.meta.url);
/** The embed options an element reads from its attributes (a contract). */
export const OPTIONS = ["demo", "panels", "readonly", "autoplay", "speed", "step", "theme", "config", "engine", "state"];

let loading = null;

function script(src) {
  return new Promise((resolve) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = s.onerror = () => resolve();
    document.head.append(s);
  });
}

/** Loads the editor (a classic script) and the wasm, once per page. */
function boot() {
  loading ??= (async () => {
    if (!window.LoomEditor) await script(new URL("loom-editor.js", BASE).href);
    if (!window.LoomEditor) await script(new URL("loom-editor-fallback.js", BASE).href);
    const wasm = await import(new URL("loom-app.js", BASE).href);
    await wasm.default({ module_or_path: new URL("loom-app_bg.wasm", BASE) });
    return wasm;
  })();
  return loading;
}

function stylesheet(root, name) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(name, BASE).href;
    link.onload = link.onerror = () => resolve();
    root.append(link);
  });
}

/** Option pairs from an object: `true` is a flag, `false`/null/undefined leave it out, arrays join with commas. */
function pairs(options) {
  const out = [];
  for (const name of OPTIONS) {
    const v = options[name];
    if (v === undefined || v === null || v === false) continue;
    out.push([name, v === true ? "" : Array.isArray(v) ? v.join(",") : String(v)]);
  }
  return out;
}

/**
 * A mounted widget: the session's commands as promise-returning methods, and
 * its events ("compiled", "step", "paused", "halted", "fault", "frame", "file") as
 * CustomEvents whose `detail` is the event's object.
 */
export class LoomWidget extends EventTarget {
  #inner;

  constructor(inner) {
    super();
    this.#inner = inner;
  }

  /** Sends one command object of the session protocol ({cmd: "…", …}); resolves to {status, steps, pc, vars}. */
  command(cmd) {
    return new Promise((resolve) => resolve(this.#inner.command(cmd)));
  }
  load(source, { lang, config, engine } = {}) {
    return this.command({ cmd: "load", source: String(source), lang, config, engine });
  }
  run() {
    return this.command({ cmd: "run" });
  }
  pause() {
    return this.command({ cmd: "pause" });
  }
  step(by = "instruction") {
    return this.command({ cmd: "step", by });
  }
  back() {
    return this.command({ cmd: "back" });
  }
  reset() {
    return this.command({ cmd: "reset" });
  }
  state() {
    return this.command({ cmd: "state" });
  }
  /** Takes the widget off the page. */
  destroy() {
    this.#inner.unmount();
  }
}

/**
 * Mounts a widget in `element` (in its shadow root, made if needed).
 * `options`: the embed options ({panels, readonly, autoplay, speed, step,
 * theme, config, engine, demo, state}) and `source`, a program's text.
 */
export async function mount(element, options = {}) {
  const wasm = await boot();
  const root = element.shadowRoot ?? element.attachShadow({ mode: "open" });
  root.replaceChildren();
  const host = document.createElement("style");
  host.textContent = ":host { display: block; position: relative; height: 420px; } .loom-mount { height: 100%; }";
  root.append(host);
  await Promise.all([stylesheet(root, "style.css"), stylesheet(root, "demo.css")]);
  const div = document.createElement("div");
  div.className = "loom-mount";
  root.append(div);
  let widget = null;
  const deliver = (detail) => widget?.dispatchEvent(new CustomEvent(detail.event, { detail }));
  const inner = wasm.mountWidget(div, pairs(options), options.source ?? undefined, BASE.href, deliver);
  widget = new LoomWidget(inner);
  // "ready" carries the state the first build left (the session may run in a
  // worker: inner.ready() waits for it), in a task of its own so a caller
  // that awaited mount() can listen first.
  inner.ready().then((detail) => setTimeout(() => widget.dispatchEvent(new CustomEvent("ready", { detail }))));
  return widget;
}

/** `<loom-playground>`: attributes are the embed options; the program is `state` or a child `<script type="text/x-c">`. */
export class LoomPlayground extends HTMLElement {
  #widget = null;
  #resolve;
  /** Resolves to the element's LoomWidget once it is mounted. */
  ready = new Promise((resolve) => {
    this.#resolve = resolve;
  });

  async connectedCallback() {
    if (this.#widget) return;
    const options = {};
    for (const name of OPTIONS) {
      if (this.hasAttribute(name)) options[name] = this.getAttribute(name) === "" ? true : this.getAttribute(name);
    }
    const program = this.querySelector('script[type="text/x-c"]');
    if (program) options.source = program.textContent.replace(/^\n/, "");
    this.#widget = await mount(this, options);
    // The element re-dispatches the widget's events (they do not bubble).
    for (const name of ["ready", "compiled", "step", "paused", "halted", "fault", "frame", "file"]) {
      this.#widget.addEventListener(name, (e) => this.dispatchEvent(new CustomEvent(name, { detail: e.detail })));
    }
    this.#resolve(this.#widget);
  }

  disconnectedCallback() {
    this.#widget?.destroy();
    this.#widget = null;
    this.ready = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }
}

if (!customElements.get("loom-playground")) customElements.define("loom-playground", LoomPlayground);
