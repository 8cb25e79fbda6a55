import { describe, expect, it } from "vitest";
import { ERRORS } from "../../src/errors.ts";
import { CATALOGUES, errorMessageKey } from "../../ui/shared/messages/index.ts";
import { PROBLEM_FIELDS } from "../../ui/web/state.ts";

// A page shows a service's refusal by the code the refusal carries (the wire's code, derived from its
// message), both when a form is posted and when the pages' script reads the API's answer. Words filed under
// the catalogue's key instead are never found where key and code differ ("username is already taken. please
// try another." is USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER), and the page says "That did not work".

const WIRE_CODES = new Set(Object.values(ERRORS).map((entry) => entry.code));

describe("the pages' words for refusals", () => {
  it("ties each field's refusal to its field by the code the wire carries, with words in every language", () => {
    for (const code of Object.keys(PROBLEM_FIELDS)) {
      expect(WIRE_CODES.has(code), code).toBe(true);
      expect(errorMessageKey(code), code).not.toBe("error.generic");
      for (const catalogue of Object.values(CATALOGUES)) expect(catalogue[errorMessageKey(code)], code).toBeTruthy();
    }
  });

  it("has words for every username refusal the profile and sign-up forms get from the services", () => {
    for (const key of [
      "USERNAME_IS_ALREADY_TAKEN",
      "USERNAME_TOO_SHORT",
      "USERNAME_TOO_LONG",
      "INVALID_USERNAME",
    ] as const)
      expect(errorMessageKey(ERRORS[key].code), key).not.toBe("error.generic");
  });
});
