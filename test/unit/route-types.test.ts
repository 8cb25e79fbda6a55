import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { defineRoute } from "../../src/http/route.ts";
import type { ResolvedSession } from "../../src/http/session.ts";

// A route's handler sees what its definition promises: typechecked (tsc), never called here.

const common = { summary: "types only", tags: ["Test"] };

describe("route definitions keep their handler's types", () => {
  it("hands a route that requires a session its session, and the others a session or null", () => {
    const required = defineRoute({
      ...common,
      method: "GET",
      path: "/a",
      auth: "session",
      handler: ({ session }) => session.user.id,
    });
    defineRoute({
      ...common,
      method: "GET",
      path: "/b",
      auth: "optional-session",
      handler: ({ session }) => expectTypeOf(session).toEqualTypeOf<ResolvedSession | null>(),
    });
    defineRoute({
      ...common,
      method: "GET",
      path: "/c",
      auth: "session-or-server",
      // @ts-expect-error a session-or-server route may run without a session
      handler: ({ session }) => session.user.id,
    });
    expectTypeOf(required.auth).toEqualTypeOf<"none" | "session" | "optional-session" | "session-or-server">();
  });

  it("types the body and the query from their schemas", () => {
    defineRoute({
      ...common,
      method: "POST",
      path: "/d",
      body: z.object({ email: z.string(), remember: z.boolean().optional() }),
      query: z.object({ page: z.coerce.number() }),
      handler: ({ body, query }) => {
        expectTypeOf(body).toEqualTypeOf<{ email: string; remember?: boolean | undefined }>();
        expectTypeOf(query).toEqualTypeOf<{ page: number }>();
      },
    });
    defineRoute({
      ...common,
      method: "POST",
      path: "/e",
      body: z.object({ email: z.string() }),
      // @ts-expect-error the body has no such field
      handler: ({ body }) => body.password,
    });
    defineRoute({ ...common, method: "POST", path: "/f", handler: ({ body }) => expectTypeOf(body).toBeUnknown() });
  });
});
