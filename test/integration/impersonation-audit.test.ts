import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { AuditEventRow } from "../../src/db/schema.ts";
import type { Agent } from "../helpers/agent.ts";
import { auditRows } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// Issue 32: while an administrator impersonates a user, every event the impersonation session causes names
// the administrator as its actor and carries both ids (impersonatedBy, impersonatedUserId), whichever route
// caused it, sign-out included; the user's own events from their own browser carry neither. The reason
// given to /admin/impersonate-user (an authd addition) is kept on impersonation_started.

const ADMIN_FROM = "192.0.2.80";

describeEachDialect("the audit log of an impersonation", (dialect) => {
  let t: TestContext;
  let admin: Agent;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { organization: { enabled: true } } });
  });
  // Each case its own administrator: a case may end the browser's impersonation by signing out.
  beforeEach(async () => {
    const signedUp = await signUp(t);
    admin = signedUp.agent.connectFrom(ADMIN_FROM);
    adminId = signedUp.user.id;
    expect((await t.server().post("/admin/set-role", { userId: adminId, role: "admin" })).status).toBe(200);
  });
  afterAll(() => t.close());

  const seen = async () => new Set((await auditRows(t.ctx)).map((row) => row.id));
  const since = async (before: Set<string>) => (await auditRows(t.ctx)).filter((row) => !before.has(row.id));
  const ids = (row: AuditEventRow) => {
    const data = JSON.parse(row.data) as Record<string, unknown>;
    return {
      actor: [row.actorType, row.actorId],
      impersonatedBy: data.impersonatedBy,
      impersonatedUserId: data.impersonatedUserId,
    };
  };

  it("names the administrator and the user on everything the impersonation does, and keeps the reason", async () => {
    const target = await signUp(t);
    const userId = target.user.id as string;
    const before = await seen();
    const started = await admin.post("/admin/impersonate-user", { userId, reason: "ticket 7: cannot see invoices" });
    expect(started.status, started.text).toBe(200);
    expect(started.body.session.impersonatedBy).toBe(adminId);

    expect((await admin.post("/update-user", { name: "Changed While Impersonated" })).status).toBe(200);
    expect((await admin.post("/api-key/create", { name: "made-as-user" })).status).toBe(200);
    expect((await admin.post("/organization/create", { name: "Acting Org", slug: `acting-${userId}` })).status).toBe(
      200,
    );
    expect((await admin.post("/revoke-other-sessions")).status).toBe(200);
    expect((await admin.post("/admin/stop-impersonating")).status).toBe(200);

    const rows = await since(before);
    const [start] = rows.filter((row) => row.type === "impersonation_started");
    expect(start).toMatchObject({ actorType: "admin", actorId: adminId, subjectId: userId, ip: ADMIN_FROM });
    expect(JSON.parse(start.data)).toMatchObject({ reason: "ticket 7: cannot see invoices" });

    const caused = rows.filter((row) => row.type !== "impersonation_started");
    expect(caused.map((row) => row.type).sort()).toEqual(
      ["user_updated", "api_key_created", "organization_created", "session_revoked", "impersonation_stopped"].sort(),
    );
    for (const row of caused) {
      expect(ids(row), row.type).toEqual({
        actor: ["admin", adminId],
        impersonatedBy: adminId,
        impersonatedUserId: userId,
      });
      expect(row.ip, row.type).toBe(ADMIN_FROM);
    }

    // The user's own session from their own browser (the impersonation ended the other ones): theirs alone.
    const browser = t.agent();
    expect((await browser.post("/sign-in/email", { email: target.email, password: target.password })).status).toBe(200);
    const own = await seen();
    expect((await browser.post("/update-user", { name: "Mine Again" })).status).toBe(200);
    const [mine] = await since(own);
    expect(ids(mine)).toEqual({ actor: ["user", userId], impersonatedBy: undefined, impersonatedUserId: undefined });

    // And the user's security activity shows what the impersonation did as an operator's.
    const activity = await browser.get("/list-security-events", { query: { limit: 100 } });
    const updates = (activity.body.events as { type: string; actor: { type: string } }[]).filter(
      (event) => event.type === "user_updated",
    );
    expect(updates.map((event) => event.actor.type).sort()).toEqual(["admin", "user"]);
  });

  it("names both on the sign-out of an impersonation session", async () => {
    const target = await signUp(t);
    expect((await admin.post("/admin/impersonate-user", { userId: target.user.id })).status).toBe(200);
    const before = await seen();
    expect((await admin.post("/sign-out")).status).toBe(200);
    const [signOut] = await since(before);
    expect(signOut.type).toBe("sign_out");
    expect(signOut.subjectId).toBe(target.user.id);
    expect(ids(signOut)).toEqual({
      actor: ["admin", adminId],
      impersonatedBy: adminId,
      impersonatedUserId: target.user.id,
    });
  });

  it("refuses a reason that is not one line or is too long, and starts nothing", async () => {
    const target = await signUp(t);
    const before = await seen();
    for (const reason of ["two\nlines", "x".repeat(501), 42]) {
      const res = await admin.post("/admin/impersonate-user", { userId: target.user.id, reason });
      expect(res.status, String(reason)).toBe(400);
    }
    expect(await since(before)).toEqual([]);
    expect((await admin.get("/get-session")).body.user.id).toBe(adminId);
  });
});
