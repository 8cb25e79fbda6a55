import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signValue } from "../../src/crypto/hmac.ts";
import { hashSessionToken } from "../../src/services/sessions/sessions.ts";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, TEST_SECRET, type TestContext } from "../helpers/context.ts";
import { peerRequest, type RunningAuthd, startAuthd } from "../helpers/live-server.ts";

// Session tokens at rest: the session table holds only a hash of each token, and the `token` a listing
// hands out (list-sessions, admin list-user-sessions) is a handle that revokes the session but opens none.

const LIVE = { query: { disableCookieCache: true } };
const PASSWORD = "correct-horse-battery";

/** The ways a value could be presented as a credential: signed cookie (as if the secret had leaked too), unsigned cookie, bearer. */
function credentialHeaders(value: string): Record<string, string>[] {
  const signed = encodeURIComponent(signValue(TEST_SECRET, value));
  return [
    { cookie: `better-auth.session_token=${signed}` },
    { cookie: `better-auth.session_token=${encodeURIComponent(value)}` },
    { authorization: `Bearer ${value}` },
    { authorization: `Bearer ${signed}` },
  ];
}

/** Whether any credential made from `value` opens a session on get-session or list-sessions. */
async function opensASession(t: TestContext, value: string): Promise<boolean> {
  for (const headers of credentialHeaders(value)) {
    if ((await t.agent().get("/get-session", { ...LIVE, headers })).body !== null) return true;
    if ((await t.agent().get("/list-sessions", { headers })).status !== 401) return true;
  }
  return false;
}

const handles = (list: { token: string }[]) => list.map((s) => s.token).sort();
const isLive = async (agent: Agent) => (await agent.get("/get-session", LIVE)).body !== null;

describeEachDialect("session tokens at rest and session handles", (dialect) => {
  let t: TestContext;
  let admin: Agent;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_SESSION_COOKIE_CACHE: "on" } });
    const root = await signUp(t, { email: `root.${dialect}@example.com` });
    admin = root.agent;
    await t.server().post("/admin/set-role", { userId: root.user.id, role: "admin" });
  });
  afterAll(() => t.close());

  async function signInAgain(email: string, rememberMe?: boolean) {
    const agent = t.agent();
    const res = await agent.post("/sign-in/email", { email, password: PASSWORD, rememberMe });
    expect(res.status).toBe(200);
    return { agent, token: res.body.token as string };
  }

  it("keeps no token a client holds in the session table (nor in the SQLite files)", async () => {
    // Given sessions made every way a session is made: sign-up, sign-in, rememberMe off, a password change
    // that starts a new session, and an impersonation.
    const alice = await signUp(t);
    const held = [alice.token!, (await signInAgain(alice.email)).token, (await signInAgain(alice.email, false)).token];
    const changed = await alice.agent.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "another-password-1",
      revokeOtherSessions: true,
    });
    held.push(changed.body.token);
    const target = await signUp(t);
    held.push(target.token!);
    expect((await admin.post("/admin/impersonate-user", { userId: target.user.id })).status).toBe(200);
    held.push(decodeURIComponent(admin.cookie("session_token")!).split(".")[0]);
    expect((await admin.post("/admin/stop-impersonating")).status).toBe(200);
    held.push(decodeURIComponent(admin.cookie("session_token")!).split(".")[0]);

    // When someone reads the table (or, on SQLite, copies the files).
    const rows = await t.ctx.db.selectFrom("session").selectAll().execute();
    const dump = JSON.stringify(rows);
    const files = dialect === "sqlite" ? [`${t.ctx.config.databaseURL.slice("sqlite://".length)}`] : [];
    const raw = files
      .flatMap((file) => [file, `${file}-wal`])
      .filter(existsSync)
      .map((file) => readFileSync(file).toString("latin1"))
      .join("");

    // Then no token appears, and the live ones are there by their hash.
    expect(held.every((token) => /^[A-Za-z0-9]{32}$/.test(token))).toBe(true);
    for (const token of held) {
      expect(dump.includes(token)).toBe(false);
      expect(raw.includes(token)).toBe(false);
    }
    // (The file check can see what is stored: the hashes are there.)
    if (dialect === "sqlite") expect(raw.includes(hashSessionToken(changed.body.token))).toBe(true);
    const stored = new Set(rows.map((row) => row.tokenHash));
    expect(stored.has(hashSessionToken(changed.body.token))).toBe(true);
    expect(stored.has(hashSessionToken(held.at(-1)!))).toBe(true);
  });

  it("lists handles that are no credential, and revokes a session by its handle", async () => {
    // Given a user signed in three times.
    const alice = await signUp(t);
    const second = await signInAgain(alice.email);
    const third = await signInAgain(alice.email);
    const tokens = [alice.token!, second.token, third.token];
    expect(await opensASession(t, alice.token!)).toBe(true);

    // When the sessions are listed, by the user and by an admin.
    const own = (await alice.agent.get("/list-sessions")).body;
    const byAdmin = (await admin.post("/admin/list-user-sessions", { userId: alice.user.id })).body.sessions;

    // Then both give the same handles, none of them a token, none of them opening a session.
    expect(handles(own)).toHaveLength(3);
    expect(handles(byAdmin)).toEqual(handles(own));
    expect(handles(own)).toEqual(tokens.map(hashSessionToken).sort());
    for (const handle of handles(own)) {
      expect(tokens).not.toContain(handle);
      expect(await opensASession(t, handle)).toBe(false);
    }

    // And the handle revokes exactly its session; the token itself still does too (Better Auth clients).
    const handleOf = (token: string) => own.find((s: { token: string }) => s.token === hashSessionToken(token)).token;
    expect((await alice.agent.post("/revoke-session", { token: handleOf(second.token) })).body).toEqual({
      status: true,
    });
    expect(await isLive(second.agent)).toBe(false);
    expect(await isLive(alice.agent)).toBe(true);
    expect(await isLive(third.agent)).toBe(true);
    expect((await alice.agent.post("/revoke-session", { token: third.token })).body).toEqual({ status: true });
    expect(await isLive(third.agent)).toBe(false);
    expect(handles((await alice.agent.get("/list-sessions")).body)).toEqual([hashSessionToken(alice.token!)]);
  });

  it("lets an admin revoke a session by the handle of the admin listing", async () => {
    const bob = await signUp(t);
    const other = await signInAgain(bob.email);
    const listed = (await admin.post("/admin/list-user-sessions", { userId: bob.user.id })).body.sessions as {
      token: string;
    }[];
    const handle = listed.find((s) => s.token === hashSessionToken(other.token))!.token;
    expect((await admin.post("/admin/revoke-user-session", { sessionToken: handle })).body).toEqual({ success: true });
    expect(await isLive(other.agent)).toBe(false);
    expect(await isLive(bob.agent)).toBe(true);
  });

  it("revokes nothing with another user's handle or token (401) or an unknown one (400), as Better Auth", async () => {
    const alice = await signUp(t);
    const bob = await signUp(t);
    const [bobHandle] = handles((await bob.agent.get("/list-sessions")).body);
    for (const token of [bobHandle, bob.token!]) {
      const refused = await alice.agent.post("/revoke-session", { token });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
    }
    const unknown = await alice.agent.post("/revoke-session", { token: "no-such-session" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ code: "SESSION_NOT_FOUND", message: "Session not found" });
    expect(await isLive(alice.agent)).toBe(true);
    expect(await isLive(bob.agent)).toBe(true);
    expect(handles((await bob.agent.get("/list-sessions")).body)).toEqual([bobHandle]);
  });

  it("gives a database reader nothing to build a cookie or bearer token from", async () => {
    // Given a signed-in user and a reader of the session table who also holds the signing secret.
    const victim = await signUp(t);
    expect(await opensASession(t, victim.token!)).toBe(true);
    const row = await t.ctx.db
      .selectFrom("session")
      .selectAll()
      .where("userId", "=", victim.user.id)
      .executeTakeFirstOrThrow();

    // When every value of the row is tried as a session credential, then none opens a session.
    const values = Object.values(row).filter((value): value is string => typeof value === "string" && value.length > 0);
    expect(values).toContain(row.tokenHash);
    for (const value of values) expect(await opensASession(t, value), value).toBe(false);
    expect(await isLive(victim.agent)).toBe(true);
  });

  it("lists handles, not the key, for a caller signed in by API key", async () => {
    const alice = await signUp(t);
    const created = await alice.agent.post("/api-key/create", { name: "ci" });
    expect(created.status).toBe(200);
    const byKey = await t.agent().get("/list-sessions", { headers: { "x-api-key": created.body.key } });
    expect(handles(byKey.body)).toEqual([hashSessionToken(alice.token!)]);
    expect(await opensASession(t, byKey.body[0].token)).toBe(false);
  });
});

describeEachDialect("session handles over a real socket", (dialect) => {
  let daemon: RunningAuthd;
  beforeAll(async () => {
    daemon = await startAuthd({ dialect });
  });
  afterAll(() => daemon.close());

  it("refuses a listed handle as a cookie and accepts it for revoke-session", async () => {
    const origin = daemon.t.ctx.baseURL;
    const call = (path: string, headers: Record<string, string>, body?: unknown) =>
      peerRequest(daemon.url, `/api/auth${path}`, { headers: { origin, ...headers }, body });
    const signedUp = await call(
      "/sign-up/email",
      {},
      { email: `live.${dialect}@example.com`, password: PASSWORD, name: "Live" },
    );
    const cookie = {
      cookie: String(
        signedUp.headers["set-cookie"]?.find((c) => c.startsWith("better-auth.session_token=")) ?? "",
      ).split(";")[0],
    };
    const other = await call("/sign-in/email", {}, { email: `live.${dialect}@example.com`, password: PASSWORD });
    const otherCookie = {
      cookie: `better-auth.session_token=${encodeURIComponent(signValue(TEST_SECRET, (other.json as { token: string }).token))}`,
    };

    const listed = (await call("/list-sessions", cookie)).json as { token: string }[];
    expect(listed).toHaveLength(2);
    for (const { token } of listed) {
      for (const headers of credentialHeaders(token))
        expect((await call("/get-session?disableCookieCache=true", headers)).json).toBeNull();
    }
    const handle = listed.find((s) => s.token === hashSessionToken((other.json as { token: string }).token))!.token;
    expect((await call("/get-session?disableCookieCache=true", otherCookie)).json).not.toBeNull();
    expect((await call("/revoke-session", cookie, { token: handle })).json).toEqual({ status: true });
    expect((await call("/get-session?disableCookieCache=true", otherCookie)).json).toBeNull();
    expect((await call("/get-session?disableCookieCache=true", cookie)).json).not.toBeNull();
  });
});
