import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS, type ErrorKey } from "../../src/errors.ts";
import { loadEnabledRoutes } from "../../src/http/routes/index.ts";
import { createTestContext, type TestContext } from "../helpers/context.ts";

// The catalogue holds each refusal once per (message, status), and a route that answers a service's
// refusal with another status picks another entry of the same message and code: only the status differs.

describe("error catalogue", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_TEAMS: "on", AUTH_MAGIC_LINK: "on", AUTH_EMAIL_OTP: "on" } });
  });
  afterAll(() => t.close());

  it("lists every (message, status) pair once", () => {
    const pairs = Object.values(ERRORS).map((entry) => `${entry.status} ${entry.message}`);
    expect(pairs.filter((pair, index) => pairs.indexOf(pair) !== index)).toEqual([]);
  });

  it("maps a refusal on a route to an entry with the same message and code and another status", async () => {
    const mapped = (await loadEnabledRoutes(t.ctx)).flatMap(
      (route) => Object.entries(route.refusals ?? {}) as [ErrorKey, ErrorKey][],
    );
    expect(mapped.length).toBeGreaterThan(5);
    for (const [thrown, answered] of mapped) {
      expect({ message: ERRORS[answered].message, code: ERRORS[answered].code }).toEqual({
        message: ERRORS[thrown].message,
        code: ERRORS[thrown].code,
      });
      expect(ERRORS[answered].status).not.toBe(ERRORS[thrown].status);
    }
  });
});
