import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../src/config/pages-schema.ts";
import { isUserLanguage } from "../../src/services/user-language.ts";
import { LOCALES, translator } from "../../ui/shared/messages/index.ts";

// The languages a user may choose (src/services/user-language.ts, which may not import ui/) are the
// configuration's list; that list must be the catalogue's, or a user could choose a language no page or
// mail has words for, or miss one that has.

describe("the languages a user may choose", () => {
  it("are exactly those the message catalogue ships", () => {
    expect([...LANGUAGES].sort()).toEqual([...LOCALES].sort());
    for (const locale of LOCALES) expect(isUserLanguage(locale), locale).toBe(true);
    for (const other of ["", "fr", "DE", "de-DE", "en-US", "__proto__", "constructor", null, 7])
      expect(isUserLanguage(other), String(other)).toBe(false);
  });

  it("are each named in their own language, and differently", () => {
    const names = LOCALES.map((locale) => translator(locale)("language.name"));
    expect(new Set(names).size).toBe(LOCALES.length);
    expect(names).toContain("Deutsch");
  });
});
