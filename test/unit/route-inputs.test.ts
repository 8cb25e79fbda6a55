import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as z from "zod";
import type { Route } from "../../src/http/route.ts";
import { loadEnabledRoutes } from "../../src/http/routes/index.ts";
import { createTestContext, type TestContext } from "../helpers/context.ts";

// Guards over every route definition, so a route added later cannot forget a rule: string inputs go
// through the control-character helpers of src/http/fields.ts, and routes that sign in are marked.

interface Leaf {
  path: string;
  schema: z.ZodType;
  kind: "string" | "unknown";
}

type Def = { type: string } & Record<string, unknown>;
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "catch"]);

/** The string and free-form (unknown) leaves of a zod schema, with a readable path. */
function leavesOf(schema: z.ZodType, path: string, out: Leaf[] = []): Leaf[] {
  const def = schema.def as unknown as Def;
  const child = (key: string) => def[key] as z.ZodType;
  if (def.type === "object") {
    for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>))
      leavesOf(value, `${path}.${key}`, out);
    if (def.catchall) leavesOf(child("catchall"), `${path}.*`, out);
  } else if (WRAPPERS.has(def.type)) leavesOf(child("innerType"), path, out);
  else if (def.type === "union") for (const option of def.options as z.ZodType[]) leavesOf(option, path, out);
  else if (def.type === "array") leavesOf(child("element"), `${path}[]`, out);
  else if (def.type === "record") {
    leavesOf(child("keyType"), `${path}{key}`, out);
    leavesOf(child("valueType"), `${path}{value}`, out);
  } else if (def.type === "pipe") leavesOf(child("in"), path, out);
  else if (def.type === "string") out.push({ path, schema, kind: "string" });
  else if (def.type === "unknown" || def.type === "any") out.push({ path, schema, kind: "unknown" });
  return out;
}

// Passwords are only hashed, never stored or looked up as given: any character may be part of one.
const PASSWORD_FIELD = /\.(password|newPassword|currentPassword)$/;

describe("route input guards", () => {
  let t: TestContext;
  let routes: Route[];
  beforeAll(async () => {
    t = await createTestContext({
      config: { organization: { teams: { enabled: true } }, magicLink: { enabled: true }, emailOTP: { enabled: true } },
    });
    routes = await loadEnabledRoutes(t.ctx);
  });
  afterAll(() => t.close());

  it("refuses control characters in every string a route takes (passwords excepted)", () => {
    const unguarded: string[] = [];
    for (const route of routes) {
      for (const [where, schema] of [
        ["body", route.body],
        ["query", route.query],
      ] as const) {
        if (!schema) continue;
        for (const leaf of leavesOf(schema, `${route.path} ${where}`)) {
          if (leaf.kind === "string" && PASSWORD_FIELD.test(leaf.path)) continue;
          const samples =
            leaf.kind === "string" ? ["a\u0000b"] : ["a\u0000b", { note: "a\u0000b" }, ["\u001b"], { "k\u0000": 1 }];
          if (samples.some((sample) => leaf.schema.safeParse(sample).success)) unguarded.push(leaf.path);
        }
      }
    }
    expect(unguarded).toEqual([]);
    expect(routes.length).toBeGreaterThan(60);
  });

  it("marks every sign-in and sign-up route as starting a session (origin checked without cookies)", () => {
    const unmarked = routes
      .filter((route) => /^\/sign-(in|up)\//.test(route.path) && !route.startsSession)
      .map((route) => route.path);
    expect(unmarked).toEqual([]);
    expect(routes.filter((route) => route.startsSession).map((route) => route.path)).toEqual(
      expect.arrayContaining([
        "/sign-in/email",
        "/sign-up/email",
        "/sign-in/username",
        "/sign-in/social",
        "/change-password",
        "/sign-in/magic-link",
        "/sign-in/email-otp",
        "/admin/impersonate-user",
      ]),
    );
  });
});
