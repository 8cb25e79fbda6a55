import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exposeHeader, setAnswerHeader } from "../../src/http/answer-headers.ts";
import { createTestContext, signUp, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";

// The headers every answer carries (CORS, no-store, the request id, the exposed token headers) are added
// to the answer itself once it is made (src/http/answer-headers.ts): each answer must still get all of
// them, errors and preflights included, and no answer may carry another request's.

describe("answer headers", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_BEARER: "on" } });
  });
  afterAll(() => t.close());

  const send = (path: string, init: RequestInit = {}) => t.app.request(`http://localhost/api/auth${path}`, init);

  it("a trusted origin's get-session: CORS for it, no-store, a request id and the JWT header exposed", async () => {
    const { agent } = await signUp(t);
    const res = await send("/get-session", { headers: { cookie: agent.cookieHeader(), origin: TEST_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(TEST_ORIGIN);
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    expect(res.headers.get("vary")).toBe("Origin");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("set-auth-jwt")).toBeTruthy();
    expect(res.headers.get("access-control-expose-headers")).toBe("set-auth-jwt");
  });

  it("a sign-in exposes set-auth-token; an error answer carries the same envelope", async () => {
    const { email, password } = await signUp(t);
    const signIn = await send("/sign-in/email", {
      method: "POST",
      headers: { origin: TEST_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get("set-auth-token")).toBeTruthy();
    expect(signIn.headers.get("access-control-expose-headers")).toBe("set-auth-token");

    const refused = await send("/list-sessions", { headers: { origin: TEST_ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(TEST_ORIGIN);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.headers.get("x-request-id")).toBeTruthy();
  });

  it("an untrusted or look-alike origin gets no CORS grant, and the answer stays uncacheable", async () => {
    for (const origin of ["https://evil.example", `${TEST_ORIGIN}.evil.example`, "null"]) {
      const res = await send("/get-session", { headers: { origin } });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("cache-control")).toBe("no-store");
      const preflight = await send("/sign-in/email", { method: "OPTIONS", headers: { origin } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("a preflight answers 204 with the methods, headers, max-age and no-store", async () => {
    const res = await send("/sign-in/email", {
      method: "OPTIONS",
      headers: { origin: TEST_ORIGIN, "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(TEST_ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toBe("GET,POST,OPTIONS");
    expect(res.headers.get("access-control-allow-headers")).toBe("content-type,authorization,x-api-key");
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("vary")).toBe("Origin, Access-Control-Request-Headers");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("never carries one request's headers into another's answer", async () => {
    const first = await send("/ok", { headers: { origin: TEST_ORIGIN, "x-request-id": "first-1" } });
    const second = await send("/ok", { headers: { "x-request-id": "second-2" } });
    expect(first.headers.get("x-request-id")).toBe("first-1");
    expect(second.headers.get("x-request-id")).toBe("second-2");
    expect(second.headers.get("access-control-allow-origin")).toBeNull();
    expect(second.headers.get("vary")).toBe("Origin");
  });
});

describe("setAnswerHeader and exposeHeader", () => {
  it("add to an answer whose headers cannot change by copying it, and keep the exposed names in order", async () => {
    const app = new Hono();
    app.use("*", async (c, next) => {
      await next();
      setAnswerHeader(c, "x-after", "1");
      exposeHeader(c, "x-second");
    });
    app.get("/redirect", (c) => {
      exposeHeader(c, "x-first");
      // Response.redirect's headers are immutable (Fetch spec): setting one in place throws.
      return Response.redirect("http://localhost/elsewhere", 302);
    });
    const res = await app.request("http://localhost/redirect");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://localhost/elsewhere");
    expect(res.headers.get("x-after")).toBe("1");
    expect(res.headers.get("access-control-expose-headers")).toBe("x-first, x-second");
  });
});
