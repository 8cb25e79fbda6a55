import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { revokeApiKey } from "../../src/cli/commands/api-keys.ts";
import { issueApiKey } from "../../src/cli/commands/issue-api-key.ts";
import { revokeSessions } from "../../src/cli/commands/revoke-sessions.ts";
import { createAdminData } from "../../ui/data.ts";
import type { Agent } from "../helpers/agent.ts";
import { expectAuditMatchesLog } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { captureLog, securityLine as line, sourceFields } from "../helpers/security-log.ts";

// The security log (issue 14, item 15) for what administrators and operators do: bans, roles, passwords
// set for others, impersonation, API keys, revoked sessions, over HTTP (an admin's session or a server
// call), from the command line and from the terminal UI (actor "cli", no address).

const UA = "AdminConsole/2.0";
const ADMIN_FROM = "192.0.2.10";
const PASSWORD = "correct-horse-battery-staple";
const CLI = sourceFields("cli", null, null, null);

describeEachDialect("security log: administrators and operators", (dialect) => {
  const log = captureLog();
  let t: TestContext;
  let admin: Agent;
  let adminId: string;

  async function signUp(from = "198.51.100.20") {
    const agent = t.agent({ from });
    const email = `op.${Math.random().toString(36).slice(2, 10)}@example.com`;
    const res = await agent.post("/sign-up/email", { name: "Op User", email, password: PASSWORD });
    expect(res.status).toBe(200);
    return { agent, email, id: res.body.user.id as string, token: res.body.token as string };
  }

  beforeAll(async () => {
    t = await createTestContext({ dialect, logger: log.logger });
    const signedUp = await signUp(ADMIN_FROM);
    admin = signedUp.agent;
    admin.headers["user-agent"] = UA;
    adminId = signedUp.id;
    expect((await t.server().post("/admin/set-role", { userId: adminId, role: "admin" })).status).toBe(200);
  });
  afterAll(() => t.close());
  beforeEach(() => log.clear());
  // Issue 21: each line logged is also an audit row with the same facts.
  afterEach(() => expectAuditMatchesLog(t.ctx, log.lines));

  const asAdmin = () => sourceFields("admin", adminId, ADMIN_FROM, UA);

  it("logs bans, unbans, role changes and passwords set by an admin or the server, and the banned user's refused sign-in", async () => {
    const target = await signUp();
    expect(
      (await admin.post("/admin/ban-user", { userId: target.id, banReason: "spam", banExpiresIn: 3600 })).status,
    ).toBe(200);
    const refused = await t
      .agent({ from: "198.51.100.21" })
      .post("/sign-in/email", { email: target.email, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect((await t.server().connectFrom("10.0.0.9").post("/admin/unban-user", { userId: target.id })).status).toBe(
      200,
    );
    expect((await admin.post("/admin/set-role", { userId: target.id, role: ["support", "user"] })).status).toBe(200);
    expect(
      (await admin.post("/admin/set-user-password", { userId: target.id, newPassword: "set-by-admin-1" })).status,
    ).toBe(200);

    const banExpires = new Date(t.clock.now + 3600 * 1000).toISOString();
    expect(log.events("user_banned")).toEqual([
      line("user_banned", { outcome: "success", userId: target.id, ...asAdmin(), banExpires }),
    ]);
    expect(log.events("sign_in")).toEqual([
      line("sign_in", {
        outcome: "failure",
        userId: target.id,
        ...sourceFields("anonymous", null, "198.51.100.21", null),
        method: "email",
        reason: "banned",
      }),
    ]);
    expect(log.events("user_unbanned")).toEqual([
      line("user_unbanned", {
        outcome: "success",
        userId: target.id,
        ...sourceFields("server", null, "10.0.0.9", null),
      }),
    ]);
    expect(log.events("role_changed")).toEqual([
      line("role_changed", { outcome: "success", userId: target.id, ...asAdmin(), role: "support,user" }),
    ]);
    expect(log.events("password_changed")).toEqual([
      line("password_changed", { outcome: "success", userId: target.id, ...asAdmin(), method: "admin" }),
    ]);
    log.expectNoSecrets(PASSWORD, "set-by-admin-1", target.token, ...admin.jar.values());
  });

  it("logs impersonation started and stopped, never the admin's parked session or the impersonation's token", async () => {
    const target = await signUp();
    const started = await admin.post("/admin/impersonate-user", { userId: target.id });
    expect(started.status).toBe(200);
    const cookiesWhileImpersonating = [...admin.jar.values()];
    expect((await admin.post("/admin/stop-impersonating")).status).toBe(200);
    const sessionId = started.body.session.id;
    const expiresAt = started.body.session.expiresAt;
    expect(log.events("impersonation_started")).toEqual([
      line("impersonation_started", { outcome: "success", userId: target.id, ...asAdmin(), sessionId, expiresAt }),
    ]);
    // Stopping is a request of the impersonation session: it names both ids.
    const both = { impersonatedBy: adminId, impersonatedUserId: target.id };
    expect(log.events("impersonation_stopped")).toEqual([
      line("impersonation_stopped", { outcome: "success", userId: target.id, ...asAdmin(), sessionId, ...both }),
    ]);
    log.expectNoSecrets(started.body.session.token, ...cookiesWhileImpersonating, ...admin.jar.values());
  });

  it("logs sessions revoked by an admin (by handle, or all of a user's), by the handle's session id", async () => {
    const target = await signUp();
    const second = await t.agent().post("/sign-in/email", { email: target.email, password: PASSWORD });
    const listed = await admin.post("/admin/list-user-sessions", { userId: target.id });
    const [first] = listed.body.sessions as { id: string; token: string }[];
    expect((await admin.post("/admin/revoke-user-session", { sessionToken: first.token })).status).toBe(200);
    expect((await admin.post("/admin/revoke-user-session", { sessionToken: "no-such-session-handle" })).status).toBe(
      200,
    );
    expect((await admin.post("/admin/revoke-user-sessions", { userId: target.id })).status).toBe(200);
    expect(log.events("session_revoked")).toEqual([
      line("session_revoked", {
        outcome: "success",
        userId: target.id,
        ...asAdmin(),
        scope: "session",
        count: 1,
        sessionId: first.id,
      }),
      line("session_revoked", { outcome: "success", userId: null, ...asAdmin(), scope: "session", count: 0 }),
      line("session_revoked", { outcome: "success", userId: target.id, ...asAdmin(), scope: "user", count: 1 }),
    ]);
    log.expectNoSecrets(first.token, target.token, second.body.token);
  });

  it("logs what operators do from the command line and the terminal UI as actor cli, keys never included", async () => {
    const target = await signUp();
    const issued = await issueApiKey(t.ctx, { userIdOrEmail: target.email, name: "cron" });
    await revokeApiKey(t.ctx, issued.id);
    const ui = createAdminData(t.ctx);
    await ui.banUser(target.id, "abuse");
    await ui.unbanUser(target.id);
    await ui.setRole(target.id, "user");
    const fromUi = await ui.issueApiKey(target.id, { name: "ui" });
    await ui.revokeApiKey(fromUi.id);

    const again = await t.agent().post("/sign-in/email", { email: target.email, password: PASSWORD });
    const [session] = (await ui.describeUser(target.id))?.sessions ?? [];
    await ui.revokeSession(session.id);
    await t.agent().post("/sign-in/email", { email: target.email, password: PASSWORD });
    expect(await ui.revokeAllSessions(target.id)).toBe(1);
    await t.agent().post("/sign-in/email", { email: target.email, password: PASSWORD });
    expect(await revokeSessions(t.ctx, { userIdOrEmail: target.email })).toBe(1);
    const everyone = await revokeSessions(t.ctx, { all: true });
    expect(everyone).toBeGreaterThanOrEqual(1);

    const keyIds = [issued.id, fromUi.id];
    expect(log.events("api_key_created")).toEqual(
      keyIds.map((keyId) => line("api_key_created", { outcome: "success", userId: target.id, ...CLI, keyId })),
    );
    expect(log.events("api_key_deleted")).toEqual(
      keyIds.map((keyId) => line("api_key_deleted", { outcome: "success", userId: target.id, ...CLI, keyId })),
    );
    expect(log.events("user_banned")).toEqual([
      line("user_banned", { outcome: "success", userId: target.id, ...CLI, banExpires: null }),
    ]);
    expect(log.events("user_unbanned")).toEqual([
      line("user_unbanned", { outcome: "success", userId: target.id, ...CLI }),
    ]);
    expect(log.events("role_changed")).toEqual([
      line("role_changed", { outcome: "success", userId: target.id, ...CLI, role: "user" }),
    ]);
    expect(log.events("session_revoked")).toEqual([
      line("session_revoked", {
        outcome: "success",
        userId: target.id,
        ...CLI,
        scope: "session",
        count: 1,
        sessionId: session.id,
      }),
      line("session_revoked", { outcome: "success", userId: target.id, ...CLI, scope: "user", count: 1 }),
      line("session_revoked", { outcome: "success", userId: target.id, ...CLI, scope: "user", count: 1 }),
      line("session_revoked", { outcome: "success", userId: null, ...CLI, scope: "all", count: everyone }),
    ]);
    log.expectNoSecrets(issued.key, fromUi.key, again.body.token, PASSWORD);
  });
});
