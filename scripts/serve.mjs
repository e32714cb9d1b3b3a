// A small static file server for the built page, on loopback. It serves a
// file's precompressed twin (FILE.br, FILE.gz, written by scripts/compress.mjs)
// when the browser accepts that encoding, so the page downloads what a
// production server would send.
//
//   node scripts/serve.mjs DIR [PORT]      (scripts/serve.sh uses it)
//
// The end-to-end suite imports `serve` and mounts more folders; a path
// `/_block/NAME/rest` serves `/rest` but answers 404 for every file called
// NAME under it, so a test can see the page without one of its scripts.

import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  // The manual's (mdBook) fonts.
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
  // Needed for WebAssembly.instantiateStreaming.
  ".wasm": "application/wasm",
  ".ts": "text/plain; charset=utf-8",
};

/** Encodings with a precompressed twin, best first: [token, file suffix]. */
const ENCODINGS = [
  ["br", ".br"],
  ["gzip", ".gz"],
];

async function isFile(path) {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Resolves a URL path against the mounts ({prefix: folder}, longest prefix first). */
function locate(mounts, pathname) {
  const path = normalize(pathname).replace(/^(\.\.[/\\])+/, "");
  const prefix = Object.keys(mounts)
    .sort((a, b) => b.length - a.length)
    .find((p) => path.startsWith(p));
  if (prefix === undefined) return null;
  const rest = path.slice(prefix.length);
  return join(mounts[prefix], rest === "" || rest.endsWith("/") ? `${rest}index.html` : rest);
}

/**
 * Serves `mounts` (a folder, or {"/url/prefix/": folder}) on 127.0.0.1
 * (port 0 = any free port); resolves to the server and its base URL.
 */
export function serve(mounts, port = 0) {
  if (typeof mounts === "string") mounts = { "/": mounts };
  const server = createServer(async (req, res) => {
    let pathname = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const blocked = /^\/_block\/([^/]+)(\/.*)$/.exec(pathname);
    if (blocked) pathname = blocked[2];
    const file = locate(mounts, pathname);
    if (!file || (blocked && file.endsWith(`/${blocked[1]}`)) || !(await isFile(file))) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const accepted = String(req.headers["accept-encoding"] ?? "")
      .split(",")
      .map((e) => e.trim().split(";")[0]);
    let body = null;
    const headers = {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": "no-cache",
      vary: "accept-encoding",
      // loom-playground.js, the wasm and the styles are imported by other sites' pages.
      "access-control-allow-origin": "*",
    };
    for (const [token, suffix] of ENCODINGS) {
      if (accepted.includes(token) && (await isFile(file + suffix))) {
        body = await readFile(file + suffix);
        headers["content-encoding"] = token;
        break;
      }
    }
    body ??= await readFile(file);
    headers["content-length"] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : body);
  });
  return new Promise((done) =>
    server.listen(port, "127.0.0.1", () => done({ server, url: `http://127.0.0.1:${server.address().port}/` })),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir = "dist", port = "8080"] = process.argv.slice(2);
  const { url } = await serve(resolve(dir), Number(port));
  console.log(`serve: ${resolve(dir)} at ${url}, the manual at ${url}book/ (precompressed .br/.gz when present; Ctrl+C stops)`);
}
