// A measurement, not a test: what a first visit downloads and how long until
// the page is interactive, for one or more builds of the page, measured in the
// same run (alternating, so a busy machine weighs on each alike).
//
//   node tests/e2e/first_load.mjs [--runs N] [--browsers chromium,firefox,webkit] LABEL=DIR ...
//
// Sizes: every file the page loads (everything in DIR but .br/.gz twins), raw,
// gzip -9 and brotli 11 (scripts/compress.mjs). Time to interactive: the
// page's `loom-interactive` performance mark (app/src/lib.rs: the first frame
// after it mounted with the example compiled), in a fresh browser each run (no
// cache), served by scripts/serve.mjs on loopback (precompressed where DIR has
// the twins), and in Chromium also over an emulated 20 Mbit/s, 40 ms link.

import { readdir, readFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { compress } from "../../scripts/compress.mjs";
import { serve } from "../../scripts/serve.mjs";
import { DESKTOP, startDriver } from "./harness/browsers.mjs";
import { Page, until } from "./harness/page.mjs";

const args = process.argv.slice(2);
let runs = 5;
let browsers = ["chromium", "firefox", "webkit"];
const builds = [];
while (args.length) {
  const a = args.shift();
  if (a === "--runs") runs = Number(args.shift());
  else if (a === "--browsers") browsers = args.shift().split(",");
  else {
    const [label, dir] = a.split("=");
    builds.push({ label, dir: resolve(dir) });
  }
}
if (!builds.length) {
  console.error("usage: node tests/e2e/first_load.mjs [--runs N] [--browsers LIST] LABEL=DIR ...");
  process.exit(2);
}

const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log("| build | wasm raw | wasm gzip | wasm brotli | page raw | page gzip | page brotli |");
console.log("|---|---|---|---|---|---|---|");
for (const b of builds) {
  const files = (await readdir(b.dir)).filter((f) => ![".br", ".gz"].includes(extname(f)));
  const total = { raw: 0, gzip: 0, br: 0 };
  const wasm = { raw: 0, gzip: 0, br: 0 };
  for (const f of files) {
    const body = await readFile(join(b.dir, f));
    const { gzip, br } = compress(body);
    for (const t of f.endsWith(".wasm") ? [total, wasm] : [total]) {
      t.raw += body.length;
      t.gzip += gzip.length;
      t.br += br.length;
    }
  }
  console.log(
    `| ${b.label} | ${kb(wasm.raw)} | ${kb(wasm.gzip)} | ${kb(wasm.br)} | ${kb(total.raw)} | ${kb(total.gzip)} | ${kb(total.br)} |`,
  );
}

/** One cold first load: [ms to the loom-interactive mark, bytes the browser reports it transferred]. */
async function firstLoad(driver, name, url, network) {
  const session = await driver.session();
  try {
    const page = new Page(session, { browser: name, base: url, out: "/tmp" });
    await page.setViewport(DESKTOP.width, DESKTOP.height);
    if (network) await session.setNetworkConditions(network);
    await page.open("", { mounted: false });
    return await until(
      "the loom-interactive mark",
      () =>
        page.eval(() => {
          const mark = performance.getEntriesByName("loom-interactive")[0];
          const bytes = performance
            .getEntriesByType("navigation")
            .concat(performance.getEntriesByType("resource"))
            .reduce((n, e) => n + (e.transferSize ?? 0), 0);
          return mark && [mark.startTime, bytes];
        }),
      60_000,
    );
  } finally {
    await session.quit();
  }
}

const servers = await Promise.all(builds.map((b) => serve(b.dir)));
const SLOW = { offline: false, latency: 40, download_throughput: 2_500_000, upload_throughput: 2_500_000 };
try {
  console.log(`\ntime to interactive, median of ${runs} cold loads (ms; bytes transferred as the browser reports them)`);
  console.log(`| browser | ${builds.map((b) => b.label).join(" | ")} |`);
  console.log(`|---|${builds.map(() => "---|").join("")}`);
  for (const name of browsers) {
    const driver = await startDriver(name);
    try {
      const networks = name === "chromium" ? [["loopback", null], ["20 Mbit/s, 40 ms", SLOW]] : [["loopback", null]];
      for (const [net, conditions] of networks) {
        const times = builds.map(() => []);
        let bytes = builds.map(() => 0);
        for (let r = 0; r < runs; r++) {
          for (let i = 0; i < builds.length; i++) {
            const [ms, transferred] = await firstLoad(driver, name, servers[i].url, conditions);
            times[i].push(ms);
            bytes[i] = transferred;
          }
        }
        const cells = times.map((t, i) => `${median(t).toFixed(0)} (${bytes[i] ? kb(bytes[i]) : "n/a"})`);
        console.log(`| ${name}, ${net} | ${cells.join(" | ")} |`);
      }
    } finally {
      await driver.stop();
    }
  }
} finally {
  for (const s of servers) s.server.close();
}
