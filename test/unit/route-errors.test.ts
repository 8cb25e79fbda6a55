import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ErrorAnalysis } from "../../scripts/route-error-analysis.ts";
import { GENERATED_PATH, generatedModule } from "../../scripts/route-error-map.ts";
import { ENV_BINDINGS } from "../../src/config/env-bindings.ts";
import { loadConfig } from "../../src/config/load.ts";
import type { AuthContext } from "../../src/context.ts";
import { buildOpenAPIDocument } from "../../src/http/openapi.ts";
import { defineRoute } from "../../src/http/route.ts";
import { ROUTE_ERRORS } from "../../src/http/route-errors.generated.ts";
import { API_KEY_SESSION_ERRORS, handlerErrors, pipelineErrors } from "../../src/http/route-errors.ts";
import { loadEnabledRoutes } from "../../src/http/routes/index.ts";

// Every route documents every error it can answer: its handler's (read from the call graph of the source
// into src/http/route-errors.generated.ts), the pipeline's in src/http/route-errors.ts. A route that starts
// throwing a new refusal fails here until the map is regenerated, so the API reference cannot fall behind
// the code.

const ROOT = resolve(import.meta.dirname, "../..");
const analysis = new ErrorAnalysis(ROOT);

/** Every feature switched on, so every route the daemon can mount is mounted. */
function everyRoute() {
  const env = Object.fromEntries(ENV_BINDINGS.filter((b) => b.kind === "on-off").map((b) => [b.env, "on"]));
  return loadEnabledRoutes({ config: loadConfig({ env }) } as AuthContext);
}

describe("route errors", () => {
  it("keeps src/http/route-errors.generated.ts current (run `npm run route-errors` when this fails)", () => {
    expect(analysis.routes().length).toBeGreaterThan(80);
    const current = readFileSync(join(ROOT, GENERATED_PATH), "utf8");
    if (current !== generatedModule(analysis.routes()))
      expect.fail(`${GENERATED_PATH} is stale: run \`npm run route-errors\``);
  });

  it("has an entry for every route the daemon can mount, and none for a route it cannot", async () => {
    const mounted = (await everyRoute()).map((route) => `${route.method} ${route.path}`);
    expect(mounted.filter((key) => !(key in ROUTE_ERRORS))).toEqual([]);
    expect(Object.keys(ROUTE_ERRORS).filter((key) => !mounted.includes(key))).toEqual([]);
  });

  it("refuses to document a route missing from the map rather than list no errors for it", () => {
    const unlisted = defineRoute({
      method: "POST",
      path: "/not-in-the-map",
      summary: "x",
      tags: [],
      handler: () => null,
    });
    expect(() => handlerErrors(unlisted)).toThrow(
      "POST /not-in-the-map has no entry in src/http/route-errors.generated.ts: run `npm run route-errors`",
    );
    const ctx = { config: loadConfig({ env: {} }), baseURL: "http://localhost:3000" } as AuthContext;
    expect(() => buildOpenAPIDocument(ctx, [unlisted])).toThrow("run `npm run route-errors`");
  });

  it("lists every error the request pipeline can answer with among the pipeline's documented ones", async () => {
    const config = loadConfig({ env: { AUTH_TEAMS: "on" } });
    const ctx = { config } as AuthContext;
    const documented = new Set((await loadEnabledRoutes(ctx)).flatMap((route) => pipelineErrors(route)));
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
       export const a = defineRoute({ method: "GET", path: "/a",
         refusals: { USER_NOT_FOUND: "TARGET_USER_NOT_FOUND" },
         handler: ({ ctx }) => things.findThing(ctx) });`,
    );
    const [route] = new ErrorAnalysis(root).routes();
    expect(route.computed).toEqual(["SESSION_NOT_FOUND", "TARGET_USER_NOT_FOUND"]);
  });

  it("keys a route made by a factory by the path each call of the factory gives it", () => {
    const root = mkdtempSync(join(tmpdir(), "authd-route-errors-"));
    mkdirSync(join(root, "src/http/routes"), { recursive: true });
    writeFileSync(
      join(root, "src/http/routes/pair.ts"),
      `const make = (path, summary) => defineRoute({ method: "POST", path, summary,
         handler: () => { throw new AuthError("INVALID_TOKEN"); } });
       export const one = make("/one", "One");
       export const two = make("/two", "Two");`,
    );
    const keys = new ErrorAnalysis(root).routes().map((r) => `${r.method} ${r.path} ${r.computed.join(",")}`);
    expect(keys.sort()).toEqual(["POST /one INVALID_TOKEN", "POST /two INVALID_TOKEN"]);
  });
});
