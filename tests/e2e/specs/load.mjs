// The first load: the C example on the sparse transformer, the editor, and the
// JavaScript API the page exposes.
import { COUNTDOWN } from "../harness/programs.mjs";

export const tests = [
  [
    "the page loads the C example on the sparse transformer with CodeMirror",
    async (page) => {
      await page.expectText("status", "loaded");
      await page.expectText("agree", "✓");
      if ((await page.count("[data-loom-editor=codemirror]")) !== 1) throw new Error("CodeMirror is not the editor");
      if (!(await page.value('[data-testid="engine"]')).includes("sparse")) throw new Error("engine is not sparse");
      await page.shot("01-loaded");
    },
  ],
  [
    "the page exposes loom-core's JavaScript API",
    async (page) => {
      const out = await page.eval((src) => {
        const api = window.wasmBindings;
        const report = JSON.parse(api.runProgram("asm", src, "default", "interp", 1000));
        let thrown = "";
        try {
          api.runProgram("asm", "FROB x", "default", "interp", 1000);
        } catch (e) {
          thrown = e instanceof Error ? e.message : `not an Error: ${e}`;
        }
        const diags = JSON.parse(api.check("asm", "JMP nowhere", "tiny"));
        return { report, thrown, diags, configs: JSON.parse(api.configs()).length };
      }, COUNTDOWN);
      if (out.report.status !== "halted" || out.report.vars.sum !== 55) throw new Error(JSON.stringify(out.report));
      if (!out.thrown.includes("program:1:1")) throw new Error(`thrown: ${out.thrown}`);
      if (out.diags[0]?.span?.line !== 1) throw new Error(`check: ${JSON.stringify(out.diags)}`);
      if (out.configs < 1) throw new Error("configs() is empty");
    },
  ],
];
