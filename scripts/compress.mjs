// Writes FILE.br and FILE.gz beside each text or wasm file of a built page,
// at the highest levels (built once, served many times), so scripts/serve.mjs
// can send them as they are. Trunk runs it after every release build
// (Trunk.toml's post_build hook, in the staging folder); by hand:
//
//   node scripts/compress.mjs [DIR]      (default: $TRUNK_STAGING_DIR, else dist)

import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { constants, brotliCompressSync, gzipSync } from "node:zlib";

const COMPRESSIBLE = new Set([".wasm", ".js", ".css", ".html", ".json", ".svg"]);

/** The gzip and brotli forms of `body` (what a browser would download). */
export function compress(body) {
  return {
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  };
}

if (process.argv[1]?.endsWith("compress.mjs")) {
  if (process.env.TRUNK_PROFILE === "debug") process.exit(0); // trunk serve: rebuilt every edit, served by Trunk
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? "dist";
  let before = 0;
  let after = 0;
  for (const name of await readdir(dir)) {
    if (!COMPRESSIBLE.has(extname(name))) continue;
    const body = await readFile(join(dir, name));
    const { gzip, br } = compress(body);
    await writeFile(join(dir, `${name}.gz`), gzip);
    await writeFile(join(dir, `${name}.br`), br);
    before += body.length;
    after += br.length;
  }
  console.log(`compress: ${dir}: ${(before / 1024).toFixed(0)} KiB -> ${(after / 1024).toFixed(0)} KiB as brotli`);
}
