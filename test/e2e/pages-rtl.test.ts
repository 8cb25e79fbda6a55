import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { ARTIFACTS_DIR, launchChromium, shoot } from "../helpers/browser.ts";
import { type Daemon, startDaemon } from "../helpers/daemon.ts";

// The front door right to left, in headless Chromium against the compiled binary. Only left-to-right
// languages ship, so the page's direction is turned over in the browser; what is checked is that the styles
// need nothing more from a right-to-left catalogue than `dir="rtl"` on <html> (which the renderer writes
// from the language, test/unit/text-direction.test.ts): every part of each page lands where its mirror
// image in the left-to-right page is, text starts at the right, and nothing runs off the page.

const SHOTS = join(ARTIFACTS_DIR, "pages");
const TOLERANCE_PX = 2;

let daemon: Daemon;
let browser: Browser;

beforeAll(async () => {
  // Magic links and email codes on: the sign-in page then shows every part it has (method buttons, divider).
  daemon = await startDaemon([buildBinary()], { AUTH_RATE_LIMIT: "off", AUTH_MAGIC_LINK: "on", AUTH_EMAIL_OTP: "on" });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

interface Span {
  left: number;
  right: number;
}
interface Part {
  what: string;
  box: Span;
  /** Where the part's content (its text, inputs, everything in it) is drawn; null when it has none. */
  content: Span | null;
}

/** Every part of the card laid out as a box (inline runs are left out: bidi reorders them, by design). */
function layoutOf(page: Page): Promise<{ card: Span; parts: Part[]; overflow: number }> {
  return page.evaluate(() => {
    const span = (rect: DOMRect) => ({ left: rect.left, right: rect.right });
    const card = document.querySelector(".authd-card") as HTMLElement;
    const parts = [];
    for (const element of card.querySelectorAll("*")) {
      const display = getComputedStyle(element).display;
      if (display === "inline" || display === "contents" || display === "none") continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const range = document.createRange();
      range.selectNodeContents(element);
      const content = range.getBoundingClientRect();
      parts.push({
        what: `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? "").trim().slice(0, 30)}"`,
        box: span(box),
        content: content.width > 0 ? span(content) : null,
      });
    }
    const root = document.documentElement;
    return { card: span(card.getBoundingClientRect()), parts, overflow: root.scrollWidth - root.clientWidth };
  });
}

/** The parts whose place right to left is not the mirror image of their place left to right, in words. */
function unmirrored(ltr: { card: Span; parts: Part[] }, rtl: { card: Span; parts: Part[] }): string[] {
  const axis = ltr.card.left + ltr.card.right;
  const off = (expected: Span, actual: Span) =>
    Math.abs(actual.left - (axis - expected.right)) > TOLERANCE_PX ||
    Math.abs(actual.right - (axis - expected.left)) > TOLERANCE_PX;
  const wrong: string[] = [];
  ltr.parts.forEach((part, index) => {
    const mirrored = rtl.parts[index];
    if (!mirrored || mirrored.what !== part.what) wrong.push(`${part.what}: not found right to left`);
    else if (off(part.box, mirrored.box)) wrong.push(`${part.what}: box ${JSON.stringify(mirrored.box)}`);
    else if (part.content && mirrored.content && off(part.content, mirrored.content))
      wrong.push(`${part.what}: content ${JSON.stringify(mirrored.content)}`);
  });
  return wrong;
}

const VIEWS = [
  "/sign-in",
  "/sign-up",
  "/forgot-password",
  "/check-mail?kind=verify",
  "/reset-password?token=a-token",
  "/magic-link/verify?token=a-token",
  "/verify-email/code",
  "/signed-out",
  "/error?error=INVALID_TOKEN",
];

describe("the front door right to left", () => {
  for (const [width, name] of [
    [1280, "desktop"],
    [390, "phone"],
  ] as const) {
    it(`mirrors every part of every page on a ${name}, text from the right, nothing off the page`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const problems: string[] = [];
      for (const path of VIEWS) {
        const page = await context.newPage();
        await page.goto(`${daemon.url}/account${path}`);
        await page.locator("html[data-hydrated]").waitFor();
        expect(await page.locator("html").getAttribute("dir")).toBe("ltr");
        const ltr = await layoutOf(page);
        expect(ltr.parts.length, path).toBeGreaterThan(5);
        await page.evaluate(() => {
          document.documentElement.dir = "rtl";
        });
        const rtl = await layoutOf(page);
        for (const problem of unmirrored(ltr, rtl)) problems.push(`${path} ${problem}`);
        if (rtl.overflow > 0) problems.push(`${path}: ${rtl.overflow} px wider than the window`);
        const file = `rtl-${path.slice(1).split("?")[0].replace(/\//g, "-")}-${name}.png`;
        await shoot(page, { path: join(SHOTS, file), fullPage: true });
        await page.close();
      }
      await context.close();
      expect(problems).toEqual([]);
    }, 120_000);
  }

  it("notices a style that does not mirror (the check above is no tautology)", async () => {
    // A physical property, as a careless theme or a regression would add: the title kept at the left.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${daemon.url}/account/sign-in`);
    await page.locator("html[data-hydrated]").waitFor();
    await page.addStyleTag({ content: ".authd-title { text-align: left; }" });
    const ltr = await layoutOf(page);
    await page.evaluate(() => {
      document.documentElement.dir = "rtl";
    });
    const found = unmirrored(ltr, await layoutOf(page));
    expect(found.some((problem) => problem.startsWith("h1.authd-title") && problem.includes("content"))).toBe(true);
    await context.close();
  });
});
