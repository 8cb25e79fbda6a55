import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateUser } from "../../src/services/users.ts";
import type { AgentResponse } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

const PROXY = "10.0.0.7";
const APP = "https://app.example.com";
const SIGN_IN = "https://app.example.com/sign-in";
const HTML = { accept: "text/html,application/xhtml+xml" };
const forwarded = (uri: string, host = "app.example.com") => ({
  ...HTML,
  "x-forwarded-proto": "https",
  "x-forwarded-host": host,
  "x-forwarded-uri": uri,
});

function userHeaders(res: AgentResponse) {
  const h = res.headers;
  return {
    id: h.get("x-auth-user-id"),
    email: h.get("x-auth-user-email"),
    name: h.get("x-auth-user-name"),
    role: h.get("x-auth-user-role"),
    session: h.get("x-auth-session-id"),
  };
}

describeEachDialect("Forward-auth: GET /forward-auth", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      env: { AUTH_TRUSTED_PROXIES: PROXY, AUTH_TRUSTED_ORIGINS: APP, AUTH_FORWARD_AUTH_SIGN_IN_URL: SIGN_IN },
    });
  });
  afterAll(() => t.close());

  it("answers 200 with the user in headers for the cookie, a bearer token and an API key", async () => {
    const { agent, user, email } = await signUp(t, { name: "Forward Fran" });
    const session = (await agent.get("/get-session")).body.session;
    const byCookie = await agent.get("/forward-auth");
    expect(byCookie.status).toBe(200);
    expect(byCookie.text).toBe("");
    expect(userHeaders(byCookie)).toEqual({
      id: user.id,
      email,
      name: "Forward Fran",
      role: "user",
      session: session.id,
    });
    const token = (await t.agent().post("/sign-in/email", { email, password: "correct-horse-battery" })).headers.get(
      "set-auth-token",
    );
    const byBearer = await t.agent().get("/forward-auth", { headers: { authorization: `Bearer ${token}` } });
    expect(userHeaders(byBearer).id).toBe(user.id);
    const key = (await agent.post("/api-key/create", {})).body.key as string;
    const byKey = await t.agent().get("/forward-auth", { headers: { "x-api-key": key } });
    expect(byKey.status).toBe(200);
    expect(userHeaders(byKey)).toEqual({ id: user.id, email, name: "Forward Fran", role: "user", session: "" });
  });

  it("answers 401 without a session, with a forged or unknown token, and for a bad API key", async () => {
    const { agent } = await signUp(t);
    const cookie = agent.cookie("session_token") ?? "";
    const attempts: Record<string, string>[] = [
      {},
      { cookie: `better-auth.session_token=${cookie.slice(0, -6)}AAAA%3D` },
      { authorization: "Bearer abcdefghijklmnopqrstuvwxyzABCDEF" },
      { "x-api-key": "Z".repeat(64) },
      { "x-auth-user-id": "someone", "x-auth-user-email": "admin@example.com" },
    ];
    for (const headers of attempts) {
      const res = await t.agent().get("/forward-auth", { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
      expect(res.headers.get("x-auth-user-id")).toBeNull();
    }
  });

  it("sends browsers to the sign-in page, back to the page asked for only via a trusted proxy", async () => {
    const viaProxy = await t.agent({ from: PROXY }).get("/forward-auth", { headers: forwarded("/orders/7?tab=items") });
    expect(viaProxy.status).toBe(302);
    const location = new URL(viaProxy.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(SIGN_IN);
    expect(location.searchParams.get("callbackURL")).toBe(`${APP}/orders/7?tab=items`);

    const direct = await t.agent({ from: "203.0.113.9" }).get("/forward-auth", { headers: forwarded("/orders/7") });
    expect(direct.status).toBe(302);
    expect(direct.headers.get("location")).toBe(SIGN_IN);

    for (const headers of [
      forwarded("/x", "evil.example"),
      forwarded("//evil.example/x"),
      forwarded("/x", "app.example.com@evil.example"),
      { ...forwarded("/x"), "x-forwarded-proto": "javascript" },
    ]) {
      const hostile = await t.agent({ from: PROXY }).get("/forward-auth", { headers });
      expect(hostile.headers.get("location")).toBe(SIGN_IN);
    }

    const api = await t.agent({ from: PROXY }).get("/forward-auth", { headers: { accept: "application/json" } });
    expect(api.status).toBe(401);
    expect(api.headers.get("location")).toBeNull();
  });

  it("never returns a browser to a path a browser reads as another host: backslashes, tabs, encoded slashes", async () => {
    for (const uri of [
      "/\\evil.example/x",
      "/\\\\evil.example",
      "\\/evil.example",
      "/\t/evil.example",
      "/%5Cevil.example",
      "/%2fevil.example",
    ]) {
      const res = await t.agent({ from: PROXY }).get("/forward-auth", { headers: forwarded(uri) });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(SIGN_IN);
    }
    // Backslashes further along are slashes too, as a browser reads them; the page stays on the app.
    const inner = await t.agent({ from: PROXY }).get("/forward-auth", { headers: forwarded("/docs\\guide?q=1") });
    const back = new URL(inner.headers.get("location") ?? "").searchParams.get("callbackURL");
    expect(back).toBe(`${APP}/docs/guide?q=1`);
  });

  it("answers nginx (mode=auth-request) 401 with the sign-in URL in Location", async () => {
    const res = await t
      .agent({ from: PROXY })
      .get("/forward-auth", { query: { mode: "auth-request" }, headers: forwarded("/") });
    expect(res.status).toBe(401);
    expect(res.headers.get("location")).toBe(`${SIGN_IN}?callbackURL=${encodeURIComponent(`${APP}/`)}`);
  });

  it("requires the role asked for (any of a list), 403 otherwise", async () => {
    const { agent, user } = await signUp(t);
    expect((await agent.get("/forward-auth", { query: { role: "admin" } })).status).toBe(403);
    expect((await agent.get("/forward-auth", { query: { role: "admin" } })).body.code).toBe("ACCESS_DENIED");
    await updateUser(t.ctx, user.id, { role: "editor,support" });
    expect((await agent.get("/forward-auth", { query: { role: "admin,support" } })).status).toBe(200);
    const admin = await agent.get("/forward-auth", { query: { role: "support" } });
    expect(userHeaders(admin).role).toBe("editor,support");
  });

  it("requires membership of the organization asked for (id or slug), and a role in it when asked", async () => {
    const owner = await signUp(t);
    const outsider = await signUp(t);
    const slug = `fa-${dialect}`;
    const org = (await owner.agent.post("/organization/create", { name: "Forward Org", slug })).body;
    for (const organization of [org.id, slug]) {
      expect((await owner.agent.get("/forward-auth", { query: { organization } })).status).toBe(200);
      expect((await outsider.agent.get("/forward-auth", { query: { organization } })).status).toBe(403);
    }
    const asOwner = { organization: slug, organizationRole: "owner" };
    expect((await owner.agent.get("/forward-auth", { query: asOwner })).status).toBe(200);
    const asAdmin = { organization: slug, organizationRole: "admin" };
    expect((await owner.agent.get("/forward-auth", { query: asAdmin })).status).toBe(403);
    expect((await owner.agent.get("/forward-auth", { query: { organization: "no-such-org" } })).status).toBe(403);
  });

  it("refuses a banned user and an expired session", async () => {
    const banned = await signUp(t);
    const key = (await banned.agent.post("/api-key/create", {})).body.key as string;
    await updateUser(t.ctx, banned.user.id, { banned: true, banReason: "abuse" });
    expect((await banned.agent.get("/forward-auth")).status).toBe(401);
    expect((await t.agent().get("/forward-auth", { headers: { "x-api-key": key } })).status).toBe(401);
    const expiring = await signUp(t);
    t.clock.advance(7 * 86_400_000 + 1);
    expect((await expiring.agent.get("/forward-auth")).status).toBe(401);
  });

  it("percent-encodes header values beyond printable ASCII, so nothing can split a header", async () => {
    const { agent } = await signUp(t, { name: "José 100% Ünïcode" });
    const res = await agent.get("/forward-auth");
    expect(res.headers.get("x-auth-user-name")).toBe("Jos%C3%A9 100%25 %C3%9Cn%C3%AFcode");
    expect(decodeURIComponent(res.headers.get("x-auth-user-name") ?? "")).toBe("José 100% Ünïcode");
  });
});

describe("Forward-auth configuration", () => {
  it("uses the configured header names, and is not rate limited by default", async () => {
    const t = await createTestContext({
      env: { AUTH_RATE_LIMIT: "on" },
      config: { forwardAuth: { headers: { userId: "Remote-User", email: "Remote-Email" } } },
    });
    try {
      const { agent, user } = await signUp(t);
      for (let i = 0; i < 120; i += 1) expect((await agent.get("/forward-auth")).status).toBe(200);
      const res = await agent.get("/forward-auth");
      expect(res.headers.get("remote-user")).toBe(user.id);
      expect(res.headers.get("remote-email")).toBe(user.email);
      expect(res.headers.get("x-auth-user-id")).toBeNull();
    } finally {
      await t.close();
    }
  });

  it("sends browsers to authd's own sign-in page when no sign-in URL is configured, and back after", async () => {
    const t = await createTestContext({ env: { AUTH_TRUSTED_PROXIES: PROXY, AUTH_TRUSTED_ORIGINS: APP } });
    try {
      const res = await t.agent({ from: PROXY }).get("/forward-auth", { headers: forwarded("/private?a=1") });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("location") as string);
      expect(`${location.origin}${location.pathname}`).toBe("http://localhost:3000/account/sign-in");
      expect(location.searchParams.get("redirect")).toBe("https://app.example.com/private?a=1");
      // A page on an origin that is not trusted is not carried (the sign-in page would check it again).
      const foreign = await t.agent({ from: PROXY }).get("/forward-auth", { headers: forwarded("/x", "evil.example") });
      expect(new URL(foreign.headers.get("location") as string).searchParams.has("redirect")).toBe(false);
      // An API client still gets 401.
      expect((await t.agent().get("/forward-auth")).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it("answers 401 to browsers when no sign-in URL is configured and the pages are off, and 404 when switched off", async () => {
    const t = await createTestContext({ env: { AUTH_PAGES: "off" } });
    const off = await createTestContext({ env: { AUTH_FORWARD_AUTH: "off" } });
    try {
      expect((await t.agent().get("/forward-auth", { headers: HTML })).status).toBe(401);
      const { agent } = await signUp(off);
      expect((await agent.get("/forward-auth")).status).toBe(404);
    } finally {
      await t.close();
      await off.close();
    }
  });
});
