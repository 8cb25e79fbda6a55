import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { defineRoute, toHandler } from "../../src/http/route.ts";
import { KeptOutcomes } from "../../src/platform/kept-outcomes.ts";
import { createTestContext, type TestContext } from "../helpers/context.ts";

// Outcomes of pure work kept by their exact input (platform/kept-outcomes.ts): the parsed Cookie header,
// good signatures, token hashes, parsed query strings.

describe("KeptOutcomes", () => {
  it("does the work once per input, and never keeps an undefined outcome or a too long input", () => {
    const kept = new KeptOutcomes<string>(10, 8);
    let calls = 0;
    const upper = (input: string) => {
      calls += 1;
      return input.startsWith("bad") ? undefined : input.toUpperCase();
    };
    expect(kept.get("abc", upper)).toBe("ABC");
    expect(kept.get("abc", upper)).toBe("ABC");
    expect(calls).toBe(1);
    // A refusal (undefined) is worked out again every time
    expect(kept.get("bad", upper)).toBeUndefined();
    expect(kept.get("bad", upper)).toBeUndefined();
    expect(calls).toBe(3);
    // An input over the length bound is never kept
    kept.get("much-too-long", upper);
    kept.get("much-too-long", upper);
    expect(calls).toBe(5);
    expect(kept.size).toBe(1);
  });

  it("holds at most its limit: full, it starts again", () => {
    const kept = new KeptOutcomes<number>(3, 100);
    for (const input of ["a", "b", "c"]) kept.get(input, () => 1);
    expect(kept.size).toBe(3);
    kept.get("d", () => 1);
    expect(kept.size).toBe(1);
  });
});

describe("a route's kept query", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("hands each request its own copy of the parsed fields, and parses again what it cannot copy", async () => {
    const seen: unknown[] = [];
    const route = defineRoute({
      method: "GET",
      path: "/probe",
      summary: "A probe",
      tags: ["Probe"],
      auth: "none",
      query: z.object({
        a: z.string().optional(),
        b: z
          .string()
          .transform((value) => value.split(","))
          .optional(),
      }),
      handler: async ({ query }) => {
        seen.push(structuredClone(query));
        // A handler changing its query changes nothing for the next request
        const fields = query as Record<string, unknown>;
        fields.a = "changed";
        if (Array.isArray(fields.b)) fields.b.push("changed");
        return { ok: true };
      },
    });
    const app = new Hono();
    app.get("/probe", toHandler(t.ctx, route));
    for (let i = 0; i < 3; i += 1) expect((await app.request("/probe?a=x")).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await app.request("/probe?b=1,2")).status).toBe(200);
    expect(seen).toEqual([{ a: "x" }, { a: "x" }, { a: "x" }, { b: ["1", "2"] }, { b: ["1", "2"] }]);
  });
});
