// The helper library every spec uses: one `Page` per browser session, with
// what a person does (click, type, insert text, press keys, tap, hover) and what the
// tests read (test ids, the status bar, the variables), all through WebDriver,
// the same way in every browser. Elements are looked up afresh by CSS
// selector at each call: the page re-renders, and old element handles go stale.

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { By, Key, Origin } from "selenium-webdriver";
import { Pointer } from "selenium-webdriver/lib/input.js";

/** How long `until` waits by default (E2E_TIMEOUT_MS overrides; the machine may be busy). */
export const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 20_000);

/** The CSS selector of a test id (a contract: other checks rely on these ids). */
export const tid = (id) => `[data-testid="${id}"]`;

/** Playwright-style key names for `press`, e.g. "Control+Enter", "Alt+ArrowRight", "?". */
const KEYS = {
  Control: Key.CONTROL,
  Alt: Key.ALT,
  Shift: Key.SHIFT,
  Meta: Key.META,
  Enter: Key.ENTER,
  Escape: Key.ESCAPE,
  Tab: Key.TAB,
  Home: Key.HOME,
  End: Key.END,
  Backspace: Key.BACK_SPACE,
  ArrowLeft: Key.ARROW_LEFT,
  ArrowRight: Key.ARROW_RIGHT,
  ArrowUp: Key.ARROW_UP,
  ArrowDown: Key.ARROW_DOWN,
  Space: " ",
  F10: Key.F10,
  F11: Key.F11,
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a truthy value; fails with `what` and the last value seen. */
export async function until(what, probe, timeout = TIMEOUT_MS) {
  const end = Date.now() + timeout;
  let last;
  let error;
  while (Date.now() < end) {
    try {
      last = await probe();
      error = undefined;
      if (last) return last;
    } catch (e) {
      // An element between renders: try again until the deadline.
      error = e;
    }
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what} (last: ${error ? error.message : JSON.stringify(last)})`);
}

// Installed in the page after every navigation: page errors and console.error
// calls are collected, and the runner fails the test that caused them.
function installErrorHook() {
  if (window.__e2eErrors) return;
  const errors = (window.__e2eErrors = []);
  addEventListener("error", (e) => errors.push(`page error: ${e.message}`));
  addEventListener("unhandledrejection", (e) => errors.push(`unhandled rejection: ${e.reason}`));
  const original = console.error;
  console.error = (...args) => {
    errors.push(`console error: ${args.join(" ")}`);
    original.apply(console, args);
  };
}

/** E2E_TRACE=1: each helper call is logged as it starts, to find the one that hangs. */
function traced(page) {
  return new Proxy(page, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function" || typeof key !== "string") return value;
      return (...args) => {
        const shown = args.map((a) => (typeof a === "function" ? "fn" : JSON.stringify(a)?.slice(0, 60))).join(", ");
        console.log(`     · ${key}(${shown})`);
        return value.apply(receiver, args);
      };
    },
  });
}

/**
 * Starts recording the page's longest task in window.__longest (ms). Chromium
 * has the Long Tasks API; Firefox and WebKit lack it, so there the longest gap
 * between turns of a timer loop is measured instead: a task holds the loop up,
 * but so do rendering (which the API leaves out) and, on a busy machine, the
 * scheduler, so that figure gets a looser bound.
 */
export function watchLongTasks() {
  window.__longest = 0;
  if (PerformanceObserver.supportedEntryTypes.includes("longtask")) {
    window.__longTaskProbe = "Long Tasks API";
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: "longtask" });
    return;
  }
  window.__longTaskProbe = "timer gaps";
  let last = performance.now();
  const beat = () => {
    const now = performance.now();
    // A timer loop turns every ~4 ms when nothing else runs: the rest of a gap is someone's task.
    window.__longest = Math.max(window.__longest, now - last - 4);
    last = now;
    if (!window.__stopProbe) setTimeout(beat, 0);
  };
  window.__stopProbe = false;
  setTimeout(beat, 0);
}

/** The value of the example whose label starts with `prefix`, once the demo (built in the worker) offers it. */
export const example = (page, prefix) =>
  until(`a demo example "${prefix}"`, () =>
    page.eval(
      (s, p) => [...document.querySelectorAll(`${s} option`)].find((o) => o.textContent.startsWith(p))?.value ?? null,
      tid("demo-example"),
      prefix,
    ),
  );

/**
 * In the page: clicks the element `selector` and resolves to the milliseconds
 * until the status bar's step count shows another number (the session may
 * answer from its worker).
 */
export function clickAndTime(selector) {
  const count = document.querySelector('[data-testid="step-count"]');
  const before = count.textContent;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      if (count.textContent !== before) {
        seen.disconnect();
        resolve(performance.now() - t0);
      }
    });
    seen.observe(count, { subtree: true, childList: true, characterData: true });
    document.querySelector(selector).click();
  });
}

export class Page {
  /**
   * @param driver a selenium-webdriver session
   * @param browser "chromium" | "firefox" | "webkit"
   * @param base the test server's URL
   * @param out where screenshots go (tests/e2e/out/BROWSER)
   */
  constructor(driver, { browser, base, out, phone = false }) {
    this.driver = driver;
    this.browser = browser;
    this.base = base;
    this.out = out;
    this.phone = phone;
    if (process.env.E2E_TRACE) return traced(this);
  }

  /** Navigates to `path` (relative to the server) and waits for the playground's wasm to mount. */
  async open(path = "", { mounted = true } = {}) {
    await this.driver.get(new URL(path, this.base).href);
    await this.driver.executeScript(installErrorHook);
    if (mounted) await this.mounted();
  }

  /** Reloads the page and waits for the wasm to mount again. */
  async reload() {
    await this.driver.navigate().refresh();
    await this.driver.executeScript(installErrorHook);
    await this.mounted();
  }

  /** Waits until the Rust page has rendered its status bar (the wasm is running). */
  async mounted() {
    await until("the playground (wasm) to mount", () =>
      this.eval(() => !!document.querySelector('[data-testid="status"]') && !!window.wasmBindings),
    );
  }

  /** Errors the page reported since the last call (and forgets them). */
  async takeErrors() {
    return (await this.eval(() => (window.__e2eErrors ?? []).splice(0))) ?? [];
  }

  /** Runs `fn(...args)` in the page and returns its (JSON-able) result. */
  eval(fn, ...args) {
    return this.driver.executeScript(`return (${fn}).apply(null, arguments)`, ...args);
  }

  /** The element matching a CSS selector (fails if there is none). */
  find(selector) {
    return this.driver.findElement(By.css(selector));
  }

  /** How many elements match a CSS selector. */
  async count(selector) {
    return (await this.driver.findElements(By.css(selector))).length;
  }

  /** The rendered text (innerText) of the first element matching `selector`. */
  textOf(selector) {
    return this.eval((s) => {
      const e = document.querySelector(s);
      if (!e) throw new Error(`no element ${s}`);
      return e.innerText;
    }, selector);
  }

  /** The text of a test id. */
  text(id) {
    return this.textOf(tid(id));
  }

  /** Waits until test id `id` shows `wanted` (a substring or a RegExp). */
  async expectText(id, wanted) {
    const ok = (t) => (wanted instanceof RegExp ? wanted.test(t) : t.includes(wanted));
    let seen;
    await until(`[data-testid=${id}] to show ${wanted}`, async () => ok((seen = await this.text(id)))).catch((e) => {
      throw new Error(`${e.message}; it shows ${JSON.stringify(seen)}`);
    });
  }

  /** The status bar as {status, steps, pc, layer, agree}. */
  async statusBar() {
    return this.eval(() => {
      const t = (id) => document.querySelector(`[data-testid="${id}"]`)?.innerText ?? null;
      return { status: t("status"), steps: t("step-count"), pc: t("pc"), layer: t("layer"), agree: t("agree") };
    });
  }

  /** The number of steps the status bar shows. */
  async steps() {
    return Number(await this.text("step-count"));
  }

  /** Clicks Step and waits until the step shows (the machine answers from its
   * worker: a second click before that would be a step the test did not see). */
  async stepOnce() {
    const steps = await this.steps();
    await this.click(tid("step"));
    await until("the step", async () => (await this.steps()) > steps);
  }

  /** The variables table as {name: value-text}. */
  variables() {
    return this.eval(() => {
      const vars = {};
      for (const row of document.querySelectorAll('[data-testid="variables"] tbody tr')) {
        const [name, value] = [...row.querySelectorAll("td")].map((td) => td.innerText);
        vars[name] = value;
      }
      return vars;
    });
  }

  /** Clicks the element matching `selector` (a test id: use `tid(id)`), as a mouse or, on the phone, a finger. */
  async click(selector) {
    if (this.phone) return this.tap(selector);
    const el = await until(`${selector} to be there`, () => this.find(selector));
    await el.click();
  }

  /** Taps the element with a touch pointer (touchstart/touchend, then the click the browser derives). */
  async tap(selector) {
    const el = await until(`${selector} to be there`, () => this.find(selector));
    await this.eval((e) => e.scrollIntoView({ block: "center" }), el);
    const finger = new Pointer("finger", Pointer.Type.TOUCH);
    await this.driver
      .actions({ async: true })
      .insert(finger, finger.move({ origin: el }), finger.press(), finger.release())
      .perform();
  }

  /** Moves the mouse over the element (tooltips, hover styles). */
  async hover(selector) {
    const el = await until(`${selector} to be there`, () => this.find(selector));
    await this.driver.actions({ async: true }).move({ origin: el }).perform();
  }

  /** Moves the mouse to a viewport position. */
  async mouseTo(x, y) {
    await this.driver.actions({ async: true }).move({ origin: Origin.VIEWPORT, x, y }).perform();
  }

  /** Chooses an option of a <select> by value, as a person would (a change event follows). */
  async select(selector, value) {
    const css = `${selector} option[value=${JSON.stringify(value)}]`;
    const option = await until(`${selector} to offer ${value}`, () => this.find(css));
    await option.click();
    // WebKit sometimes drops an option's click that lands while the page
    // re-renders (CI saw the configuration stay put): click again, as a
    // person would, until the choice shows.
    let tries = 0;
    await until(`${selector} to be ${value}`, async () => {
      if ((await this.value(selector)) === value) return true;
      if (++tries % 10 === 0) await this.find(css).click();
      return false;
    });
  }

  /** The value of an <input>, <select> or <textarea>. */
  value(selector) {
    return this.eval((s) => document.querySelector(s)?.value ?? null, selector);
  }

  /** Presses a key chord on the focused element: "ArrowRight", "Alt+ArrowRight", "Control+A", "?". */
  async press(chord) {
    const parts = chord === "+" ? ["+"] : chord.split("+");
    const key = parts.pop();
    const mods = parts.map((m) => KEYS[m] ?? m);
    const k = KEYS[key] ?? key;
    let a = this.driver.actions({ async: true });
    for (const m of mods) a = a.keyDown(m);
    a = a.keyDown(k).keyUp(k);
    for (const m of mods.reverse()) a = a.keyUp(m);
    await a.perform();
  }

  /** Types `text` key by key into the focused element. */
  async type(text) {
    await this.driver.actions({ async: true }).sendKeys(text).perform();
  }

  /**
   * Inserts `text` at the caret of the focused field or editor in one edit, as
   * a paste or an input method does (an input event, no key events). Every
   * engine implements the "insertText" editing command; a synthetic paste
   * event would not do: Firefox drops the data a script puts in one. (Not in
   * an EditContext, which CodeMirror uses in Chromium's phone emulation: type there.)
   */
  async insertText(text) {
    const done = await this.eval((t) => document.execCommand("insertText", false, t), text);
    if (!done) throw new Error("the focused element took no text");
  }

  /** Replaces the playground editor's text (CodeMirror or its textarea fallback) as a user would: select all, paste. */
  async setSource(src) {
    // The editor opens with the session's first build (the text the page opened).
    await until("the editor to open", async () => (await this.count(`${tid("editor")} :is(.cm-content, textarea)`)) > 0);
    const cm = (await this.count(`${tid("editor")} .cm-content`)) > 0;
    await this.click(cm ? `${tid("editor")} .cm-content` : `${tid("editor")} textarea`);
    await this.press("Control+a");
    await this.insertText(src);
  }

  /** Moves focus out of the editor (to the status bar), so the page's shortcuts apply. */
  async blur() {
    await this.click(".statusbar");
  }

  /** Sets the viewport (not the window) to width × height CSS pixels. */
  async setViewport(width, height) {
    // WebKitDriver refuses a fractional or non-positive size ("Invalid width
    // value"; CI saw it once in a few runs), and the window's rect can be read
    // mid-resize: the size asked for is rounded and kept positive, and a refusal
    // is retried after the window settles rather than failing the test.
    const win = this.driver.manage().window();
    let refused;
    for (let i = 0; i < 5; i++) {
      const inner = await this.eval(() => [innerWidth, innerHeight]);
      if (inner[0] === width && inner[1] === height) return;
      const rect = await win.getRect();
      const size = {
        width: Math.max(width, Math.round(rect.width + width - inner[0])),
        height: Math.max(height, Math.round(rect.height + height - inner[1])),
      };
      try {
        await win.setRect(size);
        refused = undefined;
      } catch (e) {
        refused = new Error(`${e.message}: asked ${size.width}×${size.height} (window ${rect.width}×${rect.height}, viewport ${inner})`);
        await sleep(250);
      }
    }
    if (refused) throw refused;
  }

  /** The element's box in viewport coordinates. */
  box(selector) {
    return this.eval((s) => {
      const r = document.querySelector(s)?.getBoundingClientRect();
      return r && { x: r.x, y: r.y, width: r.width, height: r.height };
    }, selector);
  }

  /**
   * Saves a screenshot of the viewport as tests/e2e/out/BROWSER/NAME.png. A
   * driver may capture at the next presented frame, and a still page presents
   * none in WebKitGTK under Xvfb (harness/browsers.mjs): a 1-pixel, 1 %-opaque
   * dot in the corner changes every frame while the capture runs.
   */
  async shot(name) {
    await mkdir(this.out, { recursive: true });
    await this.eval(() => {
      const dot = document.createElement("div");
      dot.id = "e2e-frames";
      dot.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;z-index:2147483647";
      document.body.append(dot);
      let odd = false;
      const frame = () => {
        if (!dot.isConnected) return;
        odd = !odd;
        dot.style.background = odd ? "rgb(0 0 0 / 1%)" : "rgb(0 0 0 / 2%)";
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    try {
      await writeFile(join(this.out, `${name}.png`), await this.driver.takeScreenshot(), "base64");
    } finally {
      await this.eval(() => document.getElementById("e2e-frames")?.remove());
    }
  }
}
