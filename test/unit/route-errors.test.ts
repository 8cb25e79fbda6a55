import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ErrorAnalysis } from "../../scripts/route-error-analysis.ts";
import { loadConfig } from "../../src/config/load.ts";
import type { AuthContext } from "../../src/context.ts";
import { API_KEY_SESSION_ERRORS, pipelineErrors } from "../../src/http/route-errors.ts";
import { enabledRoutes } from "../../src/http/routes/index.ts";

// Every route documents every error it can answer: its handler's (read from the call graph of the source)
// in its `errors`, the pipeline's in src/http/route-errors.ts. A route that starts throwing a new refusal
// fails here until its definition declares it, so the API reference cannot fall behind the code.

const ROOT = resolve(import.meta.dirname, "../..");
const analysis = new ErrorAnalysis(ROOT);

describe("route errors", () => {
  it("declares, on every route definition, exactly the errors its handler can throw", () => {
    const routes = analysis.routes();
    expect(routes.length).toBeGreaterThan(80);
    const wrong = routes
      .filter((r) => JSON.stringify(r.declared ?? []) !== JSON.stringify(r.computed))
      .map(
        (r) =>
          `${r.file} ${r.method} ${r.path}: declares ${JSON.stringify(r.declared ?? [])}, can throw ${JSON.stringify(r.computed)}`,
      );
    expect(wrong).toEqual([]);
  });

  it("lists every error the request pipeline can answer with among the pipeline's documented ones", () => {
    const config = loadConfig({ env: { AUTH_TEAMS: "on" } });
    const ctx = { config } as AuthContext;
    const documented = new Set(enabledRoutes(ctx).flatMap((route) => pipelineErrors(route)));
    const pipeline = [
      ...analysis.reachableFrom("src/http/route.ts", "runRoute"),
      ...analysis.reachableFrom("src/http/middleware/rate-limit.ts", "rateLimitMiddleware"),
      // createApp itself (onError, notFound, the body limit), not the routes it mounts.
      ...analysis.reachableFrom("src/http/app.ts", "createApp", false),
    ];
    expect(pipeline.filter((key) => !documented.has(key as never))).toEqual([]);
    const apiKeySession = [...analysis.reachableFrom("src/http/session.ts", "resolveSession")];
    expect(apiKeySession.filter((key) => !API_KEY_SESSION_ERRORS.includes(key as never))).toEqual([]);
  });

  it("finds an error thrown two calls away from the handler, through a namespace import and a table", () => {
    const root = mkdtempSync(join(tmpdir(), "authd-route-errors-"));
    mkdirSync(join(root, "src/http/routes"), { recursive: true });
    mkdirSync(join(root, "src/services"), { recursive: true });
    writeFileSync(
      join(root, "src/services/things.ts"),
      `import { AuthError } from "../errors.ts";
       const REASONS = { gone: "SESSION_NOT_FOUND" } as const;
       function deeper(ctx) { if (ctx.x) throw new AuthError(REASONS.gone); }
       export function findThing(ctx) { deeper(ctx); if (!ctx.y) throw new AuthError("USER_NOT_FOUND"); }
       export function unused() { throw new AuthError("EMAIL_NOT_VERIFIED"); }`,
    );
    writeFileSync(
      join(root, "src/http/routes/things.ts"),
      `import * as things from "../../services/things.ts";
       export const a = defineRoute({ method: "GET", path: "/a", errors: ["USER_NOT_FOUND"],
         refusals: { USER_NOT_FOUND: "TARGET_USER_NOT_FOUND" },
         handler: ({ ctx }) => things.findThing(ctx) });`,
    );
    const [route] = new ErrorAnalysis(root).routes();
    expect(route.computed).toEqual(["SESSION_NOT_FOUND", "TARGET_USER_NOT_FOUND"]);
    expect(route.declared).toEqual(["USER_NOT_FOUND"]);
  });
});
