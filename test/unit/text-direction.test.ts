import { describe, expect, it } from "vitest";
import { directionOf, LOCALES } from "../../ui/shared/messages/index.ts";

// The direction the renderer writes on <html dir> for a page's language (ui/web/server/render.tsx).

describe("text direction of a language", () => {
  it("is right to left for the right-to-left scripts' languages", () => {
    for (const language of ["ar", "fa", "he", "ur"]) expect(directionOf(language), language).toBe("rtl");
  });

  it("is left to right for every language authd ships", () => {
    expect(LOCALES.length).toBeGreaterThanOrEqual(2);
    for (const locale of LOCALES) expect(directionOf(locale), locale).toBe("ltr");
  });
});
