// What survives a reload: the draft and the configuration.
import { tid, until } from "../harness/page.mjs";
import { SUM_BROKEN } from "../harness/programs.mjs";

export const tests = [
  [
    "the draft and the configuration survive a reload",
    async (page) => {
      await page.expectText("status", "loaded");
      await page.setSource(SUM_BROKEN);
      await page.select(tid("config"), "small");
      await page.expectText("status", "error");
      await page.reload();
      await until("the draft to come back", async () => (await page.text("editor")).includes("sum + ;"));
      await until("the configuration to come back", async () => (await page.value(tid("config"))) === "small");
      await page.shot("09-reloaded");
    },
  ],
];
