import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { seriousAxeViolations, shoot } from "./browser.ts";

// The front door's pages in every combination issue 28 asks a picture of: light and dark, phone and desktop,
// English and German, eight in all. A page is loaded once per language (the language is the browser's
// Accept-Language, so a context each); the four looks of that language are then the same live page with
// its colour scheme and width switched, which draws what a fresh load in that look draws (the styles follow
// `prefers-color-scheme` and the width; nothing is decided by script at load) at a fraction of the time.

export const LANGUAGES = [
  { code: "en", locale: "en-US" },
  { code: "de", locale: "de-DE" },
] as const;

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

export const LOOKS = [
  { name: "light-desktop", colorScheme: "light", viewport: DESKTOP },
  { name: "dark-desktop", colorScheme: "dark", viewport: DESKTOP },
  { name: "light-phone", colorScheme: "light", viewport: PHONE },
  { name: "dark-phone", colorScheme: "dark", viewport: PHONE },
] as const;

/**
 * Where axe runs: one light desktop and one dark phone variant, so every colour scheme and every width is
 * checked; its findings do not change with the language.
 */
const AXE_VARIANTS: ReadonlySet<string> = new Set(["light-desktop-en", "dark-phone-de"]);

export interface PageView {
  /** The picture's name: `${prefix}-${name}-${look}-${language}.png` (no prefix: `${name}-…`). */
  name: string;
  /** The page's URL, or `open` when reaching it takes more than a load (a form sent first). */
  url?: string;
  open?: (page: Page) => Promise<void>;
}

/**
 * Open each view in both languages and photograph it in the four looks, full page, into `shots`; axe-core
 * where the variant runs it. `prepare` readies each language's context first (signs in, starts a challenge).
 * Answers the problems found, as "variant view: rule" (axe's serious and critical findings, or a page whose
 * `lang` is not the language asked for).
 */
export async function photographEveryVariant(options: {
  browser: Browser;
  shots: string;
  prefix: string;
  views: readonly PageView[];
  prepare?: (context: BrowserContext) => Promise<void>;
}): Promise<string[]> {
  const found: string[] = [];
  for (const language of LANGUAGES) {
    // axe is injected as a script of the test's own: the pages' policy rightly refuses it otherwise.
    const context = await options.browser.newContext({ bypassCSP: true, locale: language.locale });
    await options.prepare?.(context);
    for (const view of options.views) {
      const page = await context.newPage();
      if (view.open) await view.open(page);
      else await page.goto(view.url ?? "about:blank");
      await page.locator("html[data-hydrated]").waitFor();
      const lang = await page.locator("html").getAttribute("lang");
      if (lang !== language.code) found.push(`${language.code} ${view.name}: lang="${lang}"`);
      for (const look of LOOKS) {
        const variant = `${look.name}-${language.code}`;
        await page.setViewportSize(look.viewport);
        await page.emulateMedia({ colorScheme: look.colorScheme });
        if (AXE_VARIANTS.has(variant))
          for (const id of await seriousAxeViolations(page)) found.push(`${variant} ${view.name}: ${id}`);
        const file = `${[options.prefix, view.name, variant].filter(Boolean).join("-")}.png`;
        await shoot(page, { path: join(options.shots, file), fullPage: true });
      }
      await page.close();
    }
    await context.close();
  }
  return found;
}

/** A `prepare` that puts a caller's cookies (a LiveAgent's jar: its session) into each variant's browser. */
export function withCookies(jar: Map<string, string>, url: string): (context: BrowserContext) => Promise<void> {
  return (context) => context.addCookies([...jar].map(([name, value]) => ({ name, value, url })));
}
