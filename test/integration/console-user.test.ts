import { afterAll, beforeAll, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { auditRows } from "../helpers/audit.ts";
import { type ConsoleUser, consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, postForm } from "../helpers/pages.ts";
import { enrol } from "../helpers/two-factor.ts";

// A user's screen in the console (issue 32): what it shows (stored values as text), each form doing what it
// says and recording it as the signed-in admin, and the attacker's side: signed out, a plain user, a
// narrower role, a missing token or a foreign Origin, ids of another user's session or key, a confirmation
// left out, a wrong address typed to delete.

const ROLES = { support: { user: ["list", "get", "ban"], session: ["list", "revoke"] } };
const LIVE = { query: { disableCookieCache: true } };

describeEachDialect("the console's user screen", (dialect) => {
  let t: TestContext;
  let admin: ConsoleUser;
  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { admin: { roles: ROLES }, twoFactor: { enabled: true } } });
    admin = await consoleUser(t);
  });
  afterAll(() => t.close());

  const screen = (id: string) => `/console/users/${encodeURIComponent(id)}`;
  /** Post a form of the user's screen as a browser without JavaScript, with the screen's token. */
  async function act(as: Agent, id: string, verb: string, fields: Record<string, string> = {}, headers = {}) {
    const csrf = await formTokenOf(as, screen(id));
    return postForm(as, `${screen(id)}/${verb}`, { csrf, ...fields }, headers);
  }
  const sessionOf = async (agent: Agent) => (await agent.get("/get-session", LIVE)).body;

  it("shows the user with every stored value as text, and 404 for no such user", async () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const target = await signUp(t, { name: hostile });
    expect(
      (await act(admin.agent, target.user.id, "ban", { reason: hostile, expires: "3600", confirm: "yes" })).status,
    ).toBe(303);
    const page = await browse(admin.agent, screen(target.user.id));
    expect(page.status).toBe(200);
    expect(page.text).toContain(target.email);
    expect(page.text).not.toContain("<img src=x");
    expect(page.text).toContain("&lt;img src=x");
    expect(page.text).toContain("user_banned");
    expect((await browse(admin.agent, screen("no-such-user"))).status).toBe(404);
  });

  it("bans with an expiry (the user's session dies at once), then lifts the ban", async () => {
    const target = await signUp(t);
    expect((await sessionOf(target.agent))?.user.id).toBe(target.user.id);
    const banned = await act(admin.agent, target.user.id, "ban", { reason: "spam", expires: "86400", confirm: "yes" });
    expect(banned.status).toBe(303);
    expect(banned.headers.get("location")).toBe(`${screen(target.user.id)}?notice=console.user.notice.banned`);
    expect(await sessionOf(target.agent)).toBeNull();
    const page = await browse(admin.agent, `${screen(target.user.id)}?notice=console.user.notice.banned`);
    expect(page.text).toContain("The user is banned and their sessions ended.");
    expect(page.text).toContain(new Date(t.clock.now + 86_400_000).toISOString().slice(0, 16).replace("T", " "));
    expect((await act(admin.agent, target.user.id, "unban")).status).toBe(303);
    const back = await t.agent().post("/sign-in/email", { email: target.email, password: target.password });
    expect(back.status).toBe(200);
  });

  it("refuses a destructive form without its confirmation, and changes nothing", async () => {
    const target = await signUp(t);
    const refused = await act(admin.agent, target.user.id, "ban", { reason: "spam", expires: "3600" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Tick the box to confirm.");
    expect((await act(admin.agent, target.user.id, "revoke-sessions")).status).toBe(400);
    expect((await sessionOf(target.agent))?.user.id).toBe(target.user.id);
  });

  it("marks the address verified, sets the role and the password, as the signed-in admin", async () => {
    const target = await signUp(t);
    expect((await act(admin.agent, target.user.id, "verify-email")).status).toBe(303);
    expect((await act(admin.agent, target.user.id, "set-role", { role: "support" })).status).toBe(303);
    expect((await act(admin.agent, target.user.id, "set-role", { role: "superuser" })).status).toBe(400);
    expect((await act(admin.agent, target.user.id, "set-password", { password: "short" })).status).toBe(400);
    expect((await act(admin.agent, target.user.id, "set-password", { password: "set in the console 1" })).status).toBe(
      303,
    );
    const signIn = await t.agent().post("/sign-in/email", { email: target.email, password: "set in the console 1" });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ emailVerified: true, role: "support" });
    const rows = (await auditRows(t.ctx)).filter(
      (row) =>
        row.subjectId === target.user.id && ["email_verified", "role_changed", "password_changed"].includes(row.type),
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) expect([row.actorType, row.actorId]).toEqual(["admin", admin.id]);
  });

  it("issues a key shown once, changes its limits, revokes it; another user's key is left alone", async () => {
    const target = await signUp(t);
    const other = await signUp(t);
    const issued = await act(admin.agent, target.user.id, "issue-api-key", {
      name: "billing",
      remaining: "100",
      refillAmount: "100",
      refillDays: "30",
      rateLimitMax: "10",
      rateLimitSeconds: "60",
      expiresDays: "90",
      permissions: "files:read,write; reports:read",
    });
    expect(issued.status).toBe(200);
    const key = issued.text.match(/authd-console-secret">([A-Za-z0-9_-]+)</)?.[1] ?? "";
    expect(key.length).toBeGreaterThan(20);
    expect((await browse(admin.agent, screen(target.user.id))).text).not.toContain(key);
    const verified = await t.server().post("/api-key/verify", { key, permissions: { files: ["write"] } });
    expect(verified.body).toMatchObject({ valid: true, key: { remaining: 99, rateLimitMax: 10 } });
    const keyId = verified.body.key.id as string;

    expect((await act(admin.agent, other.user.id, "update-api-key", { keyId, remaining: "5" })).status).toBe(404);
    expect((await act(admin.agent, target.user.id, "update-api-key", { keyId })).status).toBe(400);
    expect((await act(admin.agent, target.user.id, "update-api-key", { keyId, remaining: "5" })).status).toBe(303);
    expect((await t.server().post("/api-key/verify", { key })).body.key.remaining).toBe(4);
    expect((await act(admin.agent, other.user.id, "revoke-api-key", { keyId, confirm: "yes" })).status).toBe(404);
    expect((await act(admin.agent, target.user.id, "revoke-api-key", { keyId, confirm: "yes" })).status).toBe(303);
    expect((await t.server().post("/api-key/verify", { key })).body.valid).toBe(false);
  });

  it("ends one session of the user only, and resets their second factor", async () => {
    const target = await signUp(t);
    const other = await signUp(t);
    const [otherSession] = (await t.server().post("/admin/list-user-sessions", { userId: other.user.id })).body
      .sessions;
    const stray = await act(admin.agent, target.user.id, "revoke-session", { sessionId: otherSession.id });
    expect(stray.headers.get("location")).toContain("console.user.notice.sessionGone");
    expect((await sessionOf(other.agent))?.user.id).toBe(other.user.id);

    await enrol(target.agent, target.password, t.clock.now);
    expect((await act(admin.agent, target.user.id, "reset-second-factor", { confirm: "yes" })).status).toBe(303);
    const [mine] = (await t.server().post("/admin/list-user-sessions", { userId: target.user.id })).body.sessions;
    expect((await act(admin.agent, target.user.id, "revoke-session", { sessionId: mine.id })).status).toBe(303);
    expect(await sessionOf(target.agent)).toBeNull();
    const again = await t.agent().post("/sign-in/email", { email: target.email, password: target.password });
    expect(again.body.twoFactorRedirect).toBeUndefined();
  });

  it("deletes only when the user's address is typed", async () => {
    const target = await signUp(t);
    const wrong = await act(admin.agent, target.user.id, "delete", { email: "someone@example.com" });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("The address typed is not the user");
    const done = await act(admin.agent, target.user.id, "delete", { email: target.email.toUpperCase() });
    expect(done.headers.get("location")).toBe("/console/users?notice=console.user.notice.deleted");
    expect((await browse(admin.agent, screen(target.user.id))).status).toBe(404);
  });

  it("sends the signed-out to sign-in and refuses a plain user, changing nothing", async () => {
    const target = await signUp(t);
    expect((await browse(t.agent(), screen(target.user.id))).status).toBe(302);
    const plain = await signUp(t);
    expect((await browse(plain.agent, screen(target.user.id))).status).toBe(403);
    const token = await formTokenOf(plain.agent, "/account");
    const post = await postForm(plain.agent, `${screen(target.user.id)}/ban`, {
      csrf: token,
      confirm: "yes",
      expires: "",
    });
    expect(post.status).toBe(403);
    expect((await sessionOf(target.agent))?.user.id).toBe(target.user.id);
  });

  it("lets a support role ban but not delete, set roles or impersonate", async () => {
    const support = await consoleUser(t, "support");
    const target = await signUp(t);
    const page = await browse(support.agent, screen(target.user.id));
    expect(page.text).toContain("/ban");
    expect(page.text).not.toContain("/impersonate");
    expect(page.text).not.toContain("/delete");
    for (const [verb, fields] of [
      ["delete", { email: target.email }],
      ["set-role", { role: "admin" }],
      ["impersonate", { reason: "curious", duration: "3600" }],
    ] as const)
      expect((await act(support.agent, target.user.id, verb, fields)).status, verb).toBe(403);
    expect((await sessionOf(target.agent))?.user.role).toBe("user");
    expect((await act(support.agent, target.user.id, "ban", { reason: "x", expires: "", confirm: "yes" })).status).toBe(
      303,
    );
  });

  it("refuses a form without its token or from another origin, and changes nothing", async () => {
    const target = await signUp(t);
    const fields = { reason: "forged", expires: "", confirm: "yes" };
    const noToken = await postForm(admin.agent, `${screen(target.user.id)}/ban`, fields);
    expect(noToken.status).toBe(403);
    const foreign = await act(admin.agent, target.user.id, "ban", fields, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await sessionOf(target.agent))?.user.id).toBe(target.user.id);
  });
});
