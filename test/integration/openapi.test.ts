import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context.ts";

function mountedApiRoutes(t: TestContext): Set<string> {
  const base = t.ctx.config.basePath;
  const mounted = new Set<string>();
  for (const route of t.app.routes) {
    if (route.method === "ALL" || !route.path.startsWith(`${base}/`)) continue;
    mounted.add(`${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`);
  }
  return mounted;
}

describe("OpenAPI document and API reference page", () => {
  let t: TestContext;
  let doc: any;
  beforeAll(async () => {
    t = await createTestContext();
    doc = (await t.agent().get("/api/reference/openapi.json")).body;
  });
  afterAll(() => t.close());

  it("is an OpenAPI 3.1 document", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("authd");
    expect(doc.components.schemas.Error.required).toEqual(["code", "message"]);
  });

  it("lists exactly the routes the server mounts, and every one it lists is mounted", () => {
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths as Record<string, object>)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const mounted = mountedApiRoutes(t);
    expect(mounted.size).toBeGreaterThan(5);
    expect([...mounted].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !mounted.has(r))).toEqual([]);
  });

  it("describes request bodies, query parameters and responses from the validating schemas", () => {
    const signUp = doc.paths["/api/auth/sign-up/email"].post;
    const body = signUp.requestBody.content["application/json"].schema;
    expect(body.required).toEqual(expect.arrayContaining(["email", "password"]));
    expect(body.properties.email.type).toBe("string");
    expect(signUp.responses["200"].content["application/json"].schema.properties.user).toBeDefined();
    expect(signUp.responses["400"].content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
    const getSession = doc.paths["/api/auth/get-session"].get;
    expect(getSession.parameters.map((p: { name: string }) => p.name)).toEqual([
      "disableCookieCache",
      "disableRefresh",
    ]);
    const listSessions = doc.paths["/api/auth/list-sessions"].get;
    expect(listSessions.security).toEqual([{ sessionCookie: [] }, { apiKey: [] }]);
    expect(listSessions.responses["401"]).toBeDefined();
  });

  it("documents every error a route can answer with, by status, with the catalogue's code and message", () => {
    const revoke = doc.paths["/api/auth/revoke-session"].post.responses;
    expect(revoke["400"].content["application/json"].examples.SESSION_NOT_FOUND.value).toEqual({
      code: "SESSION_NOT_FOUND",
      message: "Session not found",
    });
    expect(revoke["401"].content["application/json"].examples.UNAUTHORIZED.value.message).toBe("Unauthorized");
    expect(revoke["401"].description).toContain("`UNAUTHORIZED`: Unauthorized");
    expect(revoke["403"].content["application/json"].examples.INVALID_ORIGIN).toBeDefined();
    expect(revoke["429"].content["application/json"].examples.TOO_MANY_REQUESTS_PLEASE_TRY_AGAIN_LATER).toBeDefined();
    // A service refusal the route answers with another status (refusals) is documented as answered.
    const deleteLink = doc.paths["/api/auth/delete-user/callback"].get.responses;
    expect(deleteLink["404"].content["application/json"].examples.INVALID_TOKEN.value.message).toBe("invalid token");
    expect(deleteLink["400"]?.content["application/json"].examples.INVALID_TOKEN).toBeUndefined();
    // A server-only route documents its 404 for callers without the server token.
    expect(doc.paths["/api/auth/api-key/verify"].post.responses["404"].description).toContain("`NOT_FOUND`");
    // The reset link without callbackURL (400) and the sign-in refusals.
    expect(doc.paths["/api/auth/reset-password/{token}"].get.responses["400"].description).toContain(
      "VALIDATION_ERROR",
    );
    expect(doc.paths["/api/auth/sign-in/email"].post.responses["401"].description).toContain(
      "`INVALID_EMAIL_OR_PASSWORD`: Invalid email or password",
    );
  });

  it("orders sections as a reader needs them: sign-up and sign-in first, health last", () => {
    const tags = doc.tags.map((tag: { name: string }) => tag.name);
    expect(tags[0]).toBe("Email");
    expect(tags.at(-1)).toBe("Health");
    expect(tags.indexOf("Session")).toBeLessThan(tags.indexOf("Organization"));
    expect(tags.indexOf("Organization")).toBeLessThan(tags.indexOf("Admin"));
    expect(Object.keys(doc.paths).slice(0, 2).sort()).toEqual(["/api/auth/sign-in/email", "/api/auth/sign-up/email"]);
  });

  it("serves the reference page with its renderer under a strict content security policy", async () => {
    const page = await t.agent().get("/api/reference");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>[^<]/);
    const script = await t.agent().get("/api/reference/swagger-ui-bundle.js");
    expect(script.status).toBe(200);
    expect(script.text.length).toBeGreaterThan(100_000);
    expect((await t.agent().get("/api/reference/swagger-ui.css")).status).toBe(200);
  });
});

describe("API reference switched off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_API_REFERENCE: "off" } });
  });
  afterAll(() => t.close());

  it("answers 404 for the page and the document", async () => {
    expect((await t.agent().get("/api/reference")).status).toBe(404);
    expect((await t.agent().get("/api/reference/openapi.json")).status).toBe(404);
    expect((await t.agent().get("/ok")).status).toBe(200);
  });
});
