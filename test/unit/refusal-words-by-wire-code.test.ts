import { describe, expect, it } from "vitest";
import { ERRORS, type ErrorKey } from "../../src/errors.ts";
import { en } from "../../ui/shared/messages/en.ts";
import { errorMessageKey, LOCALES, translator } from "../../ui/shared/messages/index.ts";
import { problemOf } from "../../ui/web/api.ts";
import { RATE_LIMITED_CODE } from "../../ui/web/state.ts";
import { accountTwoFactorProblem, twoFactorProblem } from "../../ui/web/two-factor.ts";

// A page finds a refusal's words by the code the refusal carries on the wire (derived from its message),
// whether the server drew the page after a form post or the pages' script read the API's JSON answer: both
// look up `error.<code>`. Words filed under the catalogue's key instead (TOO_MANY_REQUESTS, whose wire code is
// TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER) are never found, and the page says "That did not work".

const WIRE_CODES = new Set(Object.values(ERRORS).map((entry) => entry.code));
const KEYS = Object.keys(ERRORS) as ErrorKey[];
const hasWords = (name: string) => `error.${name}` in en;

/** The refusals the pages' catalogue has words for, under their key or under their wire code. */
const WORDED_KEYS = KEYS.filter((key) => hasWords(key) || hasWords(ERRORS[key].code));

describe("the pages' words for every refusal, by the code it carries", () => {
  it("has refusals with words to check (the catalogue was read)", () => {
    expect(WORDED_KEYS.length).toBeGreaterThan(60);
    expect(WORDED_KEYS).toContain("TOO_MANY_REQUESTS");
  });

  it("finds words other than the generic ones for each such refusal's wire code, in every language", () => {
    const generic: string[] = [];
    for (const locale of LOCALES) {
      const t = translator(locale);
      for (const key of WORDED_KEYS) {
        const words = t(errorMessageKey(ERRORS[key].code));
        if (words === t("error.generic") || words.trim() === "") generic.push(`${locale} ${key} (${ERRORS[key].code})`);
      }
    }
    expect(generic).toEqual([]);
  });

  it("files no words under a catalogue key that no refusal carries on the wire", () => {
    const unreachable = Object.keys(en)
      .filter((name) => name.startsWith("error."))
      .map((name) => name.slice("error.".length))
      .filter((name) => name in ERRORS && !WIRE_CODES.has(name));
    expect(unreachable).toEqual([]);
  });

  it("names a rate-limited answer by the rate limit's wire code where the script has only a status", () => {
    expect(RATE_LIMITED_CODE).toBe(ERRORS.TOO_MANY_REQUESTS.code);
    const t = translator("en");
    const limited = t(errorMessageKey(ERRORS.TOO_MANY_REQUESTS.code));
    expect(limited).not.toBe(t("error.generic"));
    for (const problem of [
      problemOf(undefined, 429),
      problemOf(ERRORS.TOO_MANY_REQUESTS.code, 429),
      twoFactorProblem(ERRORS.INVALID_CODE.code, 429),
      accountTwoFactorProblem(ERRORS.INVALID_CODE.code, 429),
    ])
      expect(t(errorMessageKey(problem.code))).toBe(limited);
  });
});
