import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signValue } from "../../src/crypto/hmac.ts";
import {
  createTestContext,
  describeEachDialect,
  SERVER_TOKEN,
  signUp,
  TEST_SECRET,
  type TestContext,
} from "../helpers/context.ts";

const PASSWORD = "correct-horse-battery";
const DAY = 86_400_000;

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const exposed = (headers: Headers) => (headers.get("access-control-expose-headers") ?? "").toLowerCase();

/** The same signed token with one signature character changed (still URL-encoded). */
function tamper(token: string): string {
  const decoded = decodeURIComponent(token);
  const i = decoded.lastIndexOf(".") + 5;
  return encodeURIComponent(decoded.slice(0, i) + (decoded[i] === "A" ? "B" : "A") + decoded.slice(i + 1));
}

/** Sign in by password with a fresh caller; returns set-auth-token and the raw token of the answer. */
async function signIn(t: TestContext, email: string) {
  const res = await t.agent().post("/sign-in/email", { email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { header: res.headers.get("set-auth-token") ?? "", raw: res.body.token as string, res };
}

describeEachDialect("Bearer: Authorization: Bearer <session token>", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  it("sends set-auth-token, exposed, equal to the session cookie, on sign-up and sign-in only", async () => {
    const email = `tess.${dialect}@example.com`;
    const up = await t.agent().post("/sign-up/email", { name: "Tess", email, password: PASSWORD });
    const upCookie = /session_token=([^;]*)/.exec(up.setCookies.join("\n"))?.[1];
    expect(up.headers.get("set-auth-token")).toBe(upCookie);
    expect(exposed(up.headers)).toContain("set-auth-token");
    const { header, raw } = await signIn(t, email);
    expect(decodeURIComponent(header).split(".")[0]).toBe(raw);
    const wrong = await t.agent().post("/sign-in/email", { email, password: "wrong-password-1" });
    expect(wrong.headers.get("set-auth-token")).toBeNull();
    const session = await t.agent().get("/get-session", bearer(header));
    expect(session.headers.get("set-auth-token")).toBeNull();
    const out = await t.agent().post("/sign-out", {}, bearer(header));
    expect(out.headers.get("set-auth-token")).toBeNull();
  });

  it("works on every session route, the signed value and the raw token alike, without an Origin", async () => {
    const { email, user } = await signUp(t);
    const { header, raw } = await signIn(t, email);
    for (const token of [header, raw]) {
      const caller = t.agent();
      expect((await caller.get("/get-session", bearer(token))).body.user.id).toBe(user.id);
      expect((await caller.get("/list-sessions", bearer(token))).status).toBe(200);
      expect((await caller.get("/list-accounts", bearer(token))).status).toBe(200);
      expect((await caller.get("/token", bearer(token))).status).toBe(200);
      expect((await caller.get("/api-key/list", bearer(token))).status).toBe(200);
      expect((await caller.get("/organization/list", bearer(token))).status).toBe(200);
    }
    // An API client: JSON POSTs with only the header, no Origin, no cookies.
    const post = (path: string, body: unknown, headers = {}) =>
      t.app.request(`/api/auth${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${header}`, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const updated = await post("/update-user", { name: "Bearer Bea" });
    expect(updated.status).toBe(200);
    expect(updated.headers.get("set-auth-token")).toBe(header);
    expect((await post("/update-user", { name: "Evil Origin" }, { origin: "https://evil.example" })).status).toBe(200);
    const created = await post("/organization/create", { name: "Bearer Org", slug: `bearer-${dialect}` });
    expect(created.status).toBe(200);
    expect((await post("/change-password", { currentPassword: PASSWORD, newPassword: "another-horse-9" })).status).toBe(
      200,
    );
    expect((await t.agent().get("/get-session", bearer(raw))).body.user.name).toBe("Evil Origin");
  });

  it("revoke-other-sessions by bearer signs out the cookie sessions; sign-out ends the bearer session", async () => {
    const { agent, email } = await signUp(t);
    const { header } = await signIn(t, email);
    expect((await t.agent().post("/revoke-other-sessions", {}, bearer(header))).body).toEqual({ status: true });
    expect((await agent.get("/get-session")).body).toBeNull();
    expect((await t.agent().post("/sign-out", {}, bearer(header))).body).toEqual({ success: true });
    expect((await t.agent().get("/get-session", bearer(header))).body).toBeNull();
    expect((await t.agent().get("/list-sessions", bearer(header))).status).toBe(401);
  });

  it("ignores a tampered, decoded, foreign-signed or non-Bearer token, and changes nothing", async () => {
    const { email } = await signUp(t, { name: "Unchanged" });
    const { header, raw } = await signIn(t, email);
    const forgeries = [
      tamper(header),
      decodeURIComponent(header),
      encodeURIComponent(signValue("another-secret-another-secret-0123", raw)),
      `${raw}.`,
    ];
    for (const forged of forgeries) {
      expect((await t.agent().get("/get-session", bearer(forged))).body).toBeNull();
      expect((await t.agent().get("/list-sessions", bearer(forged))).status).toBe(401);
      expect((await t.agent().get("/token", bearer(forged))).status).toBe(401);
      expect((await t.agent().post("/update-user", { name: "Mallory" }, bearer(forged))).status).toBe(401);
    }
    const basic = await t.agent().get("/get-session", { headers: { authorization: `Basic ${raw}` } });
    expect(basic.body).toBeNull();
    expect((await t.agent().get("/get-session", bearer(header))).body.user.name).toBe("Unchanged");
  });

  it("answers null and clears the cookies for a correctly signed token of no session", async () => {
    const unknown = encodeURIComponent(signValue(TEST_SECRET, "abcdefghijklmnopqrstuvwxyzABCDEF"));
    const res = await t.agent().get("/get-session", bearer(unknown));
    expect(res.body).toBeNull();
    expect(res.setCookies.some((line) => /session_token=;.*Max-Age=0/i.test(line))).toBe(true);
  });

  it("prefers the bearer token to the cookie, and falls back to the cookie when the token is bad", async () => {
    const first = await signUp(t, { name: "Cookie Carl" });
    const second = await signUp(t, { name: "Bearer Ben" });
    const { header } = await signIn(t, second.email);
    expect((await first.agent.get("/get-session", bearer(header))).body.user.name).toBe("Bearer Ben");
    const fallback = await first.agent.get("/get-session", bearer(tamper(header)));
    expect(fallback.body.user.name).toBe("Cookie Carl");
    expect(fallback.setCookies.filter((line) => /Max-Age=0/i.test(line))).toEqual([]);
    // Signing out with both ends both sessions.
    const cookieSession = first.agent.cookie("session_token") ?? "";
    expect((await first.agent.post("/sign-out", {}, bearer(header))).body).toEqual({ success: true });
    expect((await t.agent().get("/get-session", bearer(header))).body).toBeNull();
    expect((await t.agent().get("/get-session", bearer(cookieSession))).body).toBeNull();
  });

  it("keeps the server token a server call, never a session, and a session token never a server call", async () => {
    const { email, user } = await signUp(t);
    const { header } = await signIn(t, email);
    expect((await t.server().get("/get-session")).body).toBeNull();
    const listed = await t.server().get("/admin/list-users");
    expect(listed.status).toBe(200);
    expect((await t.agent().get("/admin/list-users", bearer(header))).status).toBe(403);
    const serverOnly = await t.agent().post("/api-key/delete-all-expired-api-keys", {}, bearer(header));
    expect(serverOnly.status).toBe(404);
    expect((await t.server().post("/api-key/delete-all-expired-api-keys", {})).status).toBe(200);
    expect(SERVER_TOKEN).not.toContain(".");
    expect((await t.agent().get("/get-session", bearer(header))).body.user.id).toBe(user.id);
  });

  it("stops working when the user is banned or the session expires", async () => {
    const banned = await signUp(t);
    const bannedToken = (await signIn(t, banned.email)).header;
    expect((await t.server().post("/admin/ban-user", { userId: banned.user.id })).status).toBe(200);
    expect((await t.agent().get("/get-session", bearer(bannedToken))).body).toBeNull();
    expect((await t.agent().get("/token", bearer(bannedToken))).status).toBe(401);

    const expiring = await signUp(t);
    const expiringToken = (await signIn(t, expiring.email)).header;
    t.clock.advance(7 * DAY + 1);
    expect((await t.agent().get("/get-session", bearer(expiringToken))).body).toBeNull();
    expect((await t.agent().get("/list-sessions", bearer(expiringToken))).status).toBe(401);
  });
});

describe("Bearer switched off (AUTH_BEARER=off)", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_BEARER: "off" } });
  });
  afterAll(() => t.close());

  it("ignores the header and sends no set-auth-token; the server token still works", async () => {
    const { email } = await signUp(t);
    const res = await t.agent().post("/sign-in/email", { email, password: PASSWORD });
    expect(res.headers.get("set-auth-token")).toBeNull();
    expect((await t.agent().get("/get-session", bearer(res.body.token))).body).toBeNull();
    expect((await t.server().get("/admin/list-users")).status).toBe(200);
  });
});
