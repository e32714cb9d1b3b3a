// Share links: the Share / Embed dialog (copy feedback, v2 link, snippets,
// preview), v1 and v2 links open, and hostile links say they are broken,
// keep the draft one click away and run nothing.
import assert from "node:assert/strict";
import { tid, until } from "../harness/page.mjs";
import { SUM } from "../harness/programs.mjs";
import { deflateRawSync } from "node:zlib";

/** The link the dialog gave (the first test), for a truncated copy of it later. */
let shared = "";

/** A v2 link whose payload unpacks to more than a megabyte. */
const BOMB = `#v2=${deflateRawSync(JSON.stringify({ s: "a".repeat(1_200_000) })).toString("base64url")}`;

const MINE = "// my draft\nint mine = 7;\nint main() { mine = mine + 1; return 0; }\n";

/** Opens `hash` on a fresh load of the page (a hash change alone does not reload). */
async function openLink(page, hash) {
  await page.open("about:blank", { mounted: false });
  await page.open(`index.html${hash}`);
  await page.eval(() => {
    window.__pwned = 0;
  });
}

export const tests = [
  [
    "share copies a v2 link and says so; the link opens the program, breakpoints and step",
    async (page) => {
      await page.expectText("status", "loaded");
      await page.setSource(SUM);
      await page.blur();
      for (let i = 0; i < 3; i++) await page.click(tid("step"));
      await page.expectText("step-count", /^3$/);
      await page.click(tid("share"));
      await until("the dialog", () => page.eval(() => !document.querySelector(".share").hidden));
      const link = await page.value(tid("share-link"));
      assert.match(link, /#v2=[A-Za-z0-9_-]+$/);
      shared = link.slice(link.indexOf("#"));
      await page.click(tid("copy-link"));
      await page.expectText("copied", /Copied ✓|Ctrl\+C/);
      assert.match(await page.text("copied"), /Copied ✓/);
      assert.match(await page.value(tid("iframe-snippet")), /^<iframe src="[^"]*\?embed&amp;panels=editor,machine,heatmap#v2=/);
      await page.click(tid("embed-readonly"));
      assert.match(await page.value(tid("iframe-snippet")), /&amp;readonly#v2=/);
      assert.match(await page.value(tid("element-snippet")), /<loom-playground panels="editor,machine,heatmap" readonly state="[A-Za-z0-9_-]+"/);
      await until("the preview to load", () =>
        page.eval(() => /loaded|paused/.test(document.querySelector('[data-testid="embed-preview"]')?.contentDocument?.querySelector('[data-testid="status"]')?.textContent ?? "")),
      );
      await page.shot("45-share-dialog");
      await page.click(tid("share-close"));
      await page.open("about:blank", { mounted: false });
      await page.open(link.replace(page.base, ""));
      await until("the program", async () => (await page.text("editor")).includes("Sum of the first n numbers"));
      await page.expectText("step-count", /^3$/);
    },
  ],
  [
    "v1 links keep opening",
    async (page) => {
      await openLink(page, `#src=${encodeURIComponent("int v1 = 5;\nint main() { v1 = v1 * 2; return 0; }")}&config=small`);
      await until("the v1 program", async () => (await page.text("editor")).includes("int v1 = 5;"));
      assert.equal(await page.value(tid("config")), "small");
      await page.click(tid("run"));
      await page.expectText("status", "halted");
    },
  ],
  [
    "hostile links say they are broken, keep the draft and run nothing",
    async (page) => {
      await page.setSource(MINE);
      await until("the draft to be saved", () => page.eval(() => (localStorage.getItem("loom.draft") ?? "").includes("my draft")));
      const cases = [
        ["bad percent-encoding", "#src=%E0%A4%A", /percent-encoding/],
        ["unknown configuration", "#src=int%20x%3B&config=huge", /configuration “huge”/],
        ["bad base64", "#v2=!!!<img src=x onerror=window.__pwned=1>", /base64url/],
        ["truncated", shared.slice(0, Math.floor(shared.length / 2)), /cut off|corrupt|not a playground|base64url/],
        ["unpacks to megabytes", BOMB, /unpacks to more than/],
        ["newer format", "#v9=abc", /newer format/],
        ["markup in a name", `#src=x&config=${encodeURIComponent('<img src=x onerror="window.__pwned=1">')}`, /does not have/],
      ];
      for (const [what, hash, why] of cases) {
        await openLink(page, hash);
        await page.expectText("link-problem", why);
        await until(`${what}: the draft to be shown`, async () => (await page.text("editor")).includes("my draft"));
        assert.equal(await page.eval(() => document.querySelectorAll(".banner img, .banner script").length), 0, what);
        await page.click(tid("run"));
        await page.expectText("status", "halted");
        assert.equal(await page.eval(() => window.__pwned), 0, `${what}: nothing ran`);
      }
      await page.shot("46-broken-link");
    },
  ],
  [
    "a link with markup in its program shows it as text, with the draft one click away",
    async (page) => {
      const src = '// <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\nint m;\nint main() { m = 3; return 0; }\n';
      await openLink(page, `#src=${encodeURIComponent(src)}`);
      await until("the program as text", async () => (await page.text("editor")).includes("<script>window.__pwned=2</script>"));
      assert.equal(await page.eval(() => document.querySelectorAll(".cm-content img, .cm-content script").length), 0);
      await page.expectText("link-banner", "shared program");
      await page.click(tid("restore-draft"));
      await until("the draft back", async () => (await page.text("editor")).includes("my draft"));
      assert.equal(await page.eval(() => window.__pwned), 0);
      assert.equal(await page.eval(() => location.hash), "", "the link is out of the address");
    },
  ],
  [
    "a megabyte link is refused without freezing the page",
    async (page) => {
      // Firefox and WebKit refuse URLs this long themselves (about 1 MB); Chromium takes 2 MB.
      if (page.browser !== "chromium") return;
      await openLink(page, `#src=${"a".repeat(1_100_000)}`);
      await page.expectText("link-problem", "too long");
      await until("the draft", async () => (await page.text("editor")).includes("my draft"));
    },
  ],
];
