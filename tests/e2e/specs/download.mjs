// "Download": the model (safetensors, ONNX) of the current configuration and
// the state on display (.npy). The page's Blob and the anchor click are
// intercepted, so the test reads the bytes instead of a download folder. That
// the bytes equal `loom export` / `loom state` is app/tests/download.rs; here
// the files are well formed, sized for the configuration, named by the contract,
// and the state follows the step on display (forward, back, a layer walk).
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";

/** Keeps every file the page hands to the browser in `window.__files` instead of saving it. */
function intercept(page) {
  return page.eval(() => {
    window.__files = [];
    const blobs = new Map();
    const create = URL.createObjectURL;
    URL.createObjectURL = (blob) => {
      const url = create.call(URL, blob);
      blobs.set(url, blob);
      return url;
    };
    HTMLAnchorElement.prototype.click = function () {
      window.__files.push({ name: this.download, blob: blobs.get(this.href) ?? null, attached: this.isConnected });
    };
  });
}

/** Clicks a menu item and reads the file it produced: its name, size, a hash, and what its format says. */
async function download(page, kind) {
  const before = await page.eval(() => window.__files.length);
  await page.click(tid("download"));
  await until("the menu to open", () => page.eval(() => !document.querySelector(".download-menu").hidden));
  await page.click(tid(`download-${kind}`));
  await until(`the ${kind} file`, () => page.eval((n) => window.__files.length > n, before));
  return page.eval(async () => {
    const f = window.__files.at(-1);
    const bytes = new Uint8Array(await f.blob.arrayBuffer());
    // FNV-1a: the same bytes, the same hash (no secure-context API needed).
    let hash = 0x811c9dc5;
    for (const b of bytes) hash = Math.imul(hash ^ b, 0x01000193) >>> 0;
    const latin1 = (a) => String.fromCharCode(...a);
    const out = { name: f.name, size: bytes.length, hash, attached: f.attached, type: f.blob.type };
    if (f.name.endsWith(".safetensors")) {
      const len = Number(new DataView(bytes.buffer).getBigUint64(0, true));
      const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + len)));
      const meta = header.__metadata__;
      delete header.__metadata__;
      const arrays = Object.values(header);
      out.config = JSON.parse(meta.config);
      out.arrays = arrays.length;
      out.dataEnd = Math.max(...arrays.map((a) => a.data_offsets[1]));
      out.headerEnd = 8 + len;
      out.sized = arrays.every((a) => a.dtype === "F32" && 4 * a.shape.reduce((x, y) => x * y, 1) === a.data_offsets[1] - a.data_offsets[0]);
    } else if (f.name.endsWith(".npy")) {
      const len = bytes[8] | (bytes[9] << 8);
      out.magic = latin1(bytes.subarray(0, 6));
      out.header = latin1(bytes.subarray(10, 10 + len)).trim();
      out.dataStart = 10 + len;
      const values = new Float32Array(bytes.slice(10 + len).buffer);
      out.finite = values.every(Number.isFinite);
    } else {
      // A ModelProto: field 1 (ir_version) = 8, then field 2 (producer_name) "loom-core".
      out.head = [...bytes.subarray(0, 4)];
      const text = latin1(bytes.subarray(0, 4096)) + latin1(bytes.subarray(bytes.length - 65536));
      out.names = ["loom-core", "state", "next_state"].filter((s) => text.includes(s));
    }
    return out;
  });
}

let model = null;

export const tests = [
  [
    "the menu offers the model as safetensors and ONNX, named by the configuration, and says how to run it",
    async (page) => {
      await page.select(tid("config"), "small");
      await page.expectText("status", "loaded");
      await intercept(page);
      await page.click(tid("download"));
      const items = await page.eval(() =>
        ["download-safetensors", "download-onnx", "download-state"].map((id) => document.querySelector(`[data-testid="${id}"]`).innerText),
      );
      assert.match(items[0], /loom-small\.safetensors/);
      assert.match(items[1], /loom-small\.onnx/);
      assert.match(items[2], /state-step-0\.npy/);
      const how = await page.text("download-how");
      assert.match(how, /python tools\/loom_step\.py loom-small\.safetensors state-step-0\.npy/);
      assert.match(how, /onnxruntime\.InferenceSession\("loom-small\.onnx"\)/);
      await page.shot("60-download-menu");
      await page.press("Escape");
      await until("the menu to close", () => page.eval(() => document.querySelector(".download-menu").hidden));

      const st = await download(page, "safetensors");
      assert.equal(st.name, "loom-small.safetensors");
      assert.ok(st.attached, "the anchor is in the document when clicked");
      assert.equal(st.config.name, "small");
      assert.equal(st.config.n, 128);
      assert.ok(st.sized, "every array is F32 and its offsets hold its shape");
      assert.equal(st.size, st.headerEnd + st.dataEnd, "the file is the header and the arrays, nothing more or less");
      assert.ok(st.arrays >= 8 && st.size > 100_000, `${st.arrays} arrays, ${st.size} bytes`);
      model = st;

      const onnx = await download(page, "onnx");
      assert.equal(onnx.name, "loom-small.onnx");
      assert.deepEqual(onnx.head, [0x08, 8, 0x12, "loom-core".length]);
      assert.deepEqual(onnx.names, ["loom-core", "state", "next_state"]);
      // The same weights: the ONNX file is the safetensors' size give or take its graph (README: 1.01 vs 0.99 MB).
      assert.ok(Math.abs(onnx.size - st.size) < 0.1 * st.size, `${onnx.size} vs ${st.size}`);
    },
  ],
  [
    "the state follows the step on display: forward, back and in a layer walk",
    async (page) => {
      const { d, n } = model.config;
      const state = async (k) => {
        const f = await download(page, "state");
        assert.equal(f.name, `state-step-${k}.npy`);
        assert.equal(f.magic, "\x93NUMPY");
        assert.equal(f.header, `{'descr': '<f4', 'fortran_order': False, 'shape': (${d}, ${n}), }`);
        assert.equal(f.size, f.dataStart + 4 * d * n, "a d × n float32 array");
        assert.ok(f.finite);
        return f.hash;
      };
      const zero = await state(0);
      for (let i = 0; i < 3; i++) await page.click(tid("step"));
      await page.expectText("step-count", /^3$/);
      const three = await state(3);
      await page.click(tid("step-back"));
      await page.expectText("step-count", /^2$/);
      const two = await state(2);
      assert.equal(new Set([zero, two, three]).size, 3, "three steps, three states");
      await page.click(tid("step"));
      await page.expectText("step-count", /^3$/);
      assert.equal(await state(3), three, "step 3 again: the same bytes");
      // A layer walk shows the 4th instruction executing (counted from L8 on): the file is the
      // state after it, at any layer — the step boundary the walk ends at.
      await page.click(tid("step-layer"));
      // The count does not move at L1, so wait for the layer itself (the worker answers later).
      await until("the walk at L1", async () => /L1/.test((await page.statusBar()).layer ?? ""));
      await page.expectText("step-count", /^3$/);
      const walking = await state(4);
      await page.click(tid("step"));
      await until("the walk to finish", async () => !/L\d/.test((await page.statusBar()).layer ?? ""));
      assert.equal(await state(4), walking, "mid-walk and after it: the same step boundary");
      await page.click(tid("download"));
      await page.shot("61-download-state");
      await page.press("Escape");
    },
  ],
  [
    "the interpreter has no state to download and says so",
    async (page) => {
      await page.select(tid("engine"), "interp");
      await page.expectText("status", "loaded");
      await page.click(tid("download"));
      const item = await page.eval(() => {
        const b = document.querySelector('[data-testid="download-state"]');
        return { disabled: b.disabled, title: b.title };
      });
      assert.equal(item.disabled, true);
      assert.match(item.title, /no state tensor/);
      // The model still downloads.
      await page.press("Escape");
      assert.equal((await download(page, "onnx")).name, "loom-small.onnx");
    },
  ],
];
