// A layer walk shows one moment: at every layer L1…L8 the PC in the status
// bar is the `pc` register of the tensor shown, and the listing and the
// Instruction panel show the instruction being executed, not the next one.
import { tid } from "../harness/page.mjs";
import { SUM } from "../harness/programs.mjs";

/** How many instructions are walked layer by layer (the loop's compare, branch, add, store, jump…). */
const INSTRUCTIONS = 6;

/** What the page shows of the moment: status bar PC, the pc register, the highlighted row, the Instruction panel. */
function moment() {
  // Spaces as one: the listing keeps its columns (white-space: pre), the panel does not.
  const text = (id) => document.querySelector(`[data-testid="${id}"]`)?.innerText.replace(/\s+/g, " ").trim() ?? null;
  const current = document.querySelectorAll('[data-testid="listing"] li.current');
  return {
    layer: text("layer"),
    steps: text("step-count"),
    pc: text("pc"),
    register: document.querySelector('[data-testid="register-pc"] .value')?.innerText.trim() ?? null,
    highlighted: [...current].map((li) => li.innerText.replace(/\s+/g, " ").trim()),
    instruction: text("instruction"),
  };
}

/** The instruction column a listing row or the Instruction panel names ("  100  MOV [7], [6]" → 100). */
const column = (text) => Number(/^\s*(\d+)\s/.exec(text)?.[1]);

export const tests = [
  [
    "every layer of a step shows the executing instruction and the PC the tensor holds",
    async (page) => {
      await page.setSource(SUM);
      await page.press("Control+Enter");
      await page.expectText("status", "loaded");
      await page.blur();
      // Into the loop first, where instructions branch and jump.
      for (let i = 0; i < 3; i++) await page.press("ArrowRight");
      await page.expectText("step-count", /^3$/);
      const changesAt = new Set();
      const walked = [];
      const start = await page.eval(moment);
      if (start.layer !== "all layers") throw new Error(`before the walk the layer is ${start.layer}`);
      let executing = Number.parseInt(start.pc, 10);
      if (column(start.instruction) !== executing) throw new Error(`before the walk: PC ${start.pc} but the Instruction panel shows ${start.instruction}`);
      // One walk after another: each L1 starts the instruction the last L8 left the PC at.
      for (let k = 0; k < INSTRUCTIONS; k++) {
        let pc = executing;
        let text = null;
        for (let l = 1; l <= 8; l++) {
          await page.press("Alt+ArrowRight");
          await page.expectText("layer", `L${l}`);
          const m = await page.eval(moment);
          text ??= m.instruction;
          const where = `instruction ${k + 1} (${text}) at ${m.layer}`;
          const shown = Number.parseInt(m.pc, 10);
          if (String(shown) !== m.register) throw new Error(`${where}: the status bar says PC ${m.pc}, the pc register ${m.register}`);
          if (m.highlighted.length !== 1 || column(m.highlighted[0]) !== executing)
            throw new Error(`${where}: the listing highlights ${JSON.stringify(m.highlighted)}, not the instruction at ${executing}`);
          if (m.instruction !== m.highlighted[0]) throw new Error(`${where}: the Instruction panel shows ${m.instruction}, the listing ${m.highlighted[0]}`);
          if (Number(m.steps) !== 3 + k + (l === 8 ? 1 : 0)) throw new Error(`${where}: ${m.steps} steps`);
          if (shown !== pc) {
            // The PC changes once, at the layer that writes it.
            if (pc !== executing) throw new Error(`${where}: the PC changed twice (${executing} → ${pc} → ${shown})`);
            changesAt.add(m.layer);
            pc = shown;
          }
          if (k === 0 && l === 1) await page.shot("62-layers-L1");
        }
        if (pc === executing) throw new Error(`instruction ${k + 1} (${text}): the PC never changed during L1…L8`);
        walked.push(`${text} → PC ${pc}`);
        executing = pc;
      }
      if (changesAt.size !== 1) throw new Error(`the PC changed at ${[...changesAt]}, not at one layer`);
      console.log(`     PC written at ${[...changesAt]}; walked: ${walked.join(" | ")}`);
      await page.shot("63-layers-done");
      await page.click(tid("reset"));
    },
  ],
];
