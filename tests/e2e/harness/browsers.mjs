// The three browsers the suite runs in, each behind its own WebDriver server:
// how to start the driver and which capabilities open a session. Everything
// browser-specific in the harness lives here; specs never ask which browser
// they run in (see README.md: differences are fixed in the page, not the test).

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { Builder } from "selenium-webdriver";

const env = process.env;
const WEBKIT_LIB = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1";

/** The desktop window every session starts with (CSS pixels). */
export const DESKTOP = { width: 1280, height: 900 };
/** A phone in portrait (iPhone 12–15 class), with touch input. */
export const PHONE = { width: 390, height: 844, pixelRatio: 3 };

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Timers and animation frames must run as in a visible tab.
  "--disable-background-timer-throttling",
  "--disable-renderer-backgrounding",
];

export const BROWSERS = {
  chromium: {
    driver: (port) => [env.CHROMEDRIVER ?? "/usr/bin/chromedriver", [`--port=${port}`]],
    // The phone is Chromium's device emulation: a 390×844 viewport at 3×, touch
    // events instead of a mouse, and a mobile user agent.
    capabilities: ({ profile, phone }) => ({
      browserName: "chrome",
      "goog:chromeOptions": {
        binary: env.CHROMIUM ?? "/usr/bin/chromium",
        args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, `--window-size=${DESKTOP.width},${DESKTOP.height}`],
        ...(phone && {
          mobileEmulation: {
            deviceMetrics: { width: PHONE.width, height: PHONE.height, pixelRatio: PHONE.pixelRatio, touch: true },
            userAgent:
              "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile Safari/537.36",
          },
        }),
      },
    }),
  },
  firefox: {
    driver: (port) => [
      env.GECKODRIVER ?? join(homedir(), ".cargo", "bin", "geckodriver"),
      ["--port", String(port), "--binary", env.FIREFOX ?? "/usr/bin/firefox-esr"],
    ],
    // geckodriver gives every session a fresh temporary profile of its own.
    capabilities: () => ({
      browserName: "firefox",
      "moz:firefoxOptions": {
        args: ["-headless", `-width=${DESKTOP.width}`, `-height=${DESKTOP.height}`],
        prefs: {
          // No first-run pages, updates or telemetry: loopback only.
          "browser.shell.checkDefaultBrowser": false,
          "app.update.enabled": false,
          "datareporting.policy.dataSubmissionEnabled": false,
          "toolkit.telemetry.enabled": false,
        },
      },
    }),
  },
  webkit: {
    // WebKitGTK draws through GTK: the driver and MiniBrowser get a virtual display.
    driver: (port) => [
      "xvfb-run",
      ["-a", "-s", "-screen 0 1920x1200x24", env.WEBKIT_DRIVER ?? "WebKitWebDriver", `--port=${port}`],
    ],
    // Xvfb has no GPU: frames shared as DMA-BUFs then go through a software GL
    // and come 3-5 times further apart (measured while the page ran Sudoku:
    // 176 ms apart, 35 ms with shared-memory buffers). Without DMA-BUF a still
    // page presents no frame, which a screenshot waits for: Page.shot keeps
    // frames coming while it captures.
    driverEnv: { WEBKIT_DISABLE_DMABUF_RENDERER: "1" },
    capabilities: () => ({
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": {
        binary: env.MINIBROWSER ?? join(WEBKIT_LIB, "MiniBrowser"),
        args: ["--automation"],
      },
    }),
  },
};

export const NAMES = Object.keys(BROWSERS);

/** A free loopback port (the driver binds it a moment later). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** What is missing to run `name`, as a hint for scripts/setup.sh, or null. */
export function missing(name) {
  const [cmd] = BROWSERS[name].driver(0);
  if (cmd.includes("/") && !existsSync(cmd)) return `${cmd} (run: source scripts/setup.sh; setup_browser ${name})`;
  return null;
}

/**
 * Starts `name`'s WebDriver server on a free port. Resolves to
 * `{ session(options), stop() }`; `session` opens a fresh browser (own profile).
 */
export async function startDriver(name) {
  const spec = BROWSERS[name];
  if (!spec) throw new Error(`unknown browser ${name}: use one of ${NAMES.join(", ")}`);
  const port = await freePort();
  const [cmd, args] = spec.driver(port);
  // Its own process group, so stop() also ends what the driver started (Xvfb, browsers).
  const proc = spawn(cmd, args, {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...env, ...spec.driverEnv },
  });
  let log = "";
  proc.stderr.on("data", (d) => (log = (log + d).slice(-4000)));
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.once("error", (e) => (log += `\n${e.message}`));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null || log.includes("ENOENT"))
      throw new Error(`${cmd} exited before it was ready:\n${log}`);
    try {
      const res = await fetch(`${url}/status`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${cmd} did not answer on ${url} in 30 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const profiles = [];
  return {
    name,
    /** A new browser session; `phone` asks for the touch phone (Chromium's emulation). */
    async session({ phone = false } = {}) {
      if (phone && name !== "chromium") throw new Error(`${name} has no phone emulation here: run phone specs in chromium`);
      const profile = await mkdtemp(join(tmpdir(), `loom-e2e-${name}-`));
      profiles.push(profile);
      return new Builder().usingServer(url).withCapabilities(spec.capabilities({ profile, phone })).build();
    },
    async stop() {
      try {
        process.kill(-proc.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      await Promise.all(profiles.map((p) => rm(p, { recursive: true, force: true })));
    },
  };
}
