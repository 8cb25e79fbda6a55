import { afterAll, beforeAll, expect, it } from "vitest";
import { withTransaction } from "../../src/platform/transaction.ts";
import { setUserRole } from "../../src/services/admin.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import { auditRows, eventsOfType, expectNoSecretsInAudit } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { uniqueSlug } from "../helpers/organization.ts";

// Issue 21: each security-relevant action records one audit event, with who acted (user, admin, server,
// CLI), about whom, from where, and never a password, token, key or code.

const UA = "AuditTest/1.0";
const FROM = "203.0.113.9";
const PASSWORD = "audit-password-123";

describeEachDialect("audit log: events recorded by their actions", (dialect) => {
  let t: TestContext;
  const secrets: string[] = [PASSWORD, "audit-password-456", "admin-password-789"];
  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { organization: { requireEmailVerificationOnInvitation: false } } });
  });
  afterAll(() => t.close());

  function client() {
    const agent = t.agent({ from: FROM });
    agent.headers["user-agent"] = UA;
    return agent;
  }

  async function newUser(name = "Audit User") {
    const agent = client();
    const email = `audit.${Math.random().toString(36).slice(2, 10)}@example.com`;
    const res = await agent.post("/sign-up/email", { name, email, password: PASSWORD });
    expect(res.status, res.text).toBe(200);
    secrets.push(res.body.token, ...agent.jar.values());
    return { agent, email, id: res.body.user.id as string };
  }

  /** The newest event of a type; the test clock then moves on, so the next action's events sort after it. */
  const last = async (type: string) => {
    const rows = await eventsOfType(t.ctx, type);
    t.clock.advance(1);
    return rows.at(-1);
  };

  it("records what users do themselves, as actor user from their address and user agent", async () => {
    const user = await newUser();
    expect(await last("sign_up")).toMatchObject({
      actorType: "user",
      actorId: user.id,
      subjectId: user.id,
      ip: FROM,
      userAgent: UA,
      outcome: "success",
    });
    const signIn = await client().post("/sign-in/email", { email: user.email, password: PASSWORD });
    secrets.push(signIn.body.token);
    const success = await last("sign_in");
    expect(success).toMatchObject({ actorType: "user", subjectId: user.id, outcome: "success" });
    expect(JSON.parse(success?.data ?? "{}")).toEqual({ method: "email" });
    await client().post("/sign-in/email", { email: user.email, password: "wrong-password-000" });
    secrets.push("wrong-password-000");
    expect(await last("sign_in")).toMatchObject({ actorType: "anonymous", subjectId: user.id, outcome: "failure" });

    expect((await user.agent.post("/update-user", { name: "Renamed" })).status).toBe(200);
    expect(await last("user_updated")).toMatchObject({ actorType: "user", subjectId: user.id });
    expect(JSON.parse((await last("user_updated"))?.data ?? "{}")).toEqual({ fields: ["name"] });

    const changed = await user.agent.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "audit-password-456",
    });
    expect(changed.status).toBe(200);
    expect(await last("password_changed")).toMatchObject({ actorType: "user", subjectId: user.id });

    const created = await user.agent.post("/api-key/create", { name: "ci" });
    expect(created.status, created.text).toBe(200);
    secrets.push(created.body.key);
    expect(await last("api_key_created")).toMatchObject({ actorType: "user", subjectId: user.id });
    expect((await user.agent.post("/api-key/update", { keyId: created.body.id, name: "ci2" })).status).toBe(200);
    expect(JSON.parse((await last("api_key_updated"))?.data ?? "{}")).toEqual({
      keyId: created.body.id,
      fields: ["name"],
    });
    expect((await user.agent.post("/api-key/delete", { keyId: created.body.id })).status).toBe(200);
    expect(await last("api_key_deleted")).toMatchObject({ actorType: "user", subjectId: user.id });

    expect((await user.agent.post("/sign-out", {})).status).toBe(200);
    expect(await last("sign_out")).toMatchObject({ actorType: "user", actorId: user.id, subjectId: user.id, ip: FROM });
  });

  it("records organization, member and invitation events with the organization's id", async () => {
    const owner = await newUser("Owner");
    const org = await owner.agent.post("/organization/create", { name: "Audit Org", slug: uniqueSlug() });
    expect(org.status, org.text).toBe(200);
    const organizationId = org.body.id as string;
    expect(await last("organization_created")).toMatchObject({ organizationId, actorId: owner.id });

    const invitee = await newUser("Invitee");
    const invite = await owner.agent.post("/organization/invite-member", { email: invitee.email, role: "member" });
    expect(invite.status, invite.text).toBe(200);
    expect(await last("invitation_sent")).toMatchObject({ organizationId, actorId: owner.id });
    const accepted = await invitee.agent.post("/organization/accept-invitation", { invitationId: invite.body.id });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await last("invitation_accepted")).toMatchObject({
      organizationId,
      actorId: invitee.id,
      subjectId: invitee.id,
    });
    expect(await last("member_added")).toMatchObject({ organizationId, subjectId: invitee.id });
    const memberId = accepted.body.member.id as string;

    const role = await owner.agent.post("/organization/update-member-role", {
      memberId,
      role: "admin",
      organizationId,
    });
    expect(role.status, role.text).toBe(200);
    expect(JSON.parse((await last("member_role_changed"))?.data ?? "{}")).toEqual({ memberId, role: "admin" });

    const rejecter = await newUser("Rejecter");
    const second = await owner.agent.post("/organization/invite-member", { email: rejecter.email, role: "member" });
    expect(
      (await rejecter.agent.post("/organization/reject-invitation", { invitationId: second.body.id })).status,
    ).toBe(200);
    expect(await last("invitation_rejected")).toMatchObject({ organizationId, actorId: rejecter.id });
    const third = await owner.agent.post("/organization/invite-member", {
      email: "nobody@example.com",
      role: "member",
    });
    expect((await owner.agent.post("/organization/cancel-invitation", { invitationId: third.body.id })).status).toBe(
      200,
    );
    expect(await last("invitation_canceled")).toMatchObject({ organizationId, actorId: owner.id });

    const removed = await owner.agent.post("/organization/remove-member", {
      memberIdOrEmail: memberId,
      organizationId,
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await last("member_removed")).toMatchObject({ organizationId, subjectId: invitee.id });
    expect((await owner.agent.post("/organization/delete", { organizationId })).status).toBe(200);
    expect(await last("organization_deleted")).toMatchObject({ organizationId, actorId: owner.id });
  });

  it("records admin and server actions with actor admin or server, and impersonation", async () => {
    const server = t.server();
    const made = await server.post("/admin/create-user", {
      email: `made.${Math.random().toString(36).slice(2, 8)}@example.com`,
      password: "admin-password-789",
      name: "Made",
    });
    expect(made.status, made.text).toBe(200);
    const userId = made.body.user.id as string;
    expect(await last("user_created")).toMatchObject({ actorType: "server", subjectId: userId });
    expect((await server.post("/admin/set-role", { userId, role: "admin" })).status).toBe(200);
    expect(await last("role_changed")).toMatchObject({ actorType: "server", subjectId: userId });

    const admin = client();
    const signIn = await admin.post("/sign-in/email", { email: made.body.user.email, password: "admin-password-789" });
    secrets.push(signIn.body.token, ...admin.jar.values());
    const target = await newUser("Target");
    expect((await admin.post("/admin/ban-user", { userId: target.id })).status).toBe(200);
    expect(await last("user_banned")).toMatchObject({ actorType: "admin", actorId: userId, subjectId: target.id });
    expect((await admin.post("/admin/unban-user", { userId: target.id })).status).toBe(200);
    expect(await last("user_unbanned")).toMatchObject({ actorType: "admin", subjectId: target.id });
    const started = await admin.post("/admin/impersonate-user", { userId: target.id });
    expect(started.status, started.text).toBe(200);
    secrets.push(...admin.jar.values());
    expect(await last("impersonation_started")).toMatchObject({
      actorType: "admin",
      actorId: userId,
      subjectId: target.id,
    });
    expect((await admin.post("/admin/stop-impersonating", {})).status).toBe(200);
    expect(await last("impersonation_stopped")).toMatchObject({ actorType: "admin", subjectId: target.id });
    expect((await admin.post("/admin/revoke-user-sessions", { userId: target.id })).status).toBe(200);
    expect(await last("session_revoked")).toMatchObject({ actorType: "admin", subjectId: target.id });
    expect(
      (await server.post("/admin/set-user-password", { userId: target.id, newPassword: "audit-password-456" })).status,
    ).toBe(200);
    expect(await last("password_changed")).toMatchObject({ actorType: "server", subjectId: target.id });
    expect((await server.post("/admin/remove-user", { userId: target.id })).status).toBe(200);
    expect(await last("user_deleted")).toMatchObject({ actorType: "server", subjectId: target.id });
  });

  it("records the command line's actions as actor cli", async () => {
    const user = await newUser();
    await setUserRole(t.ctx, user.id, "user", CLI_SOURCE);
    expect(await last("role_changed")).toMatchObject({ actorType: "cli", actorId: null, subjectId: user.id, ip: null });
  });

  it("keeps no password, token, key or cookie in any event", async () => {
    expect((await auditRows(t.ctx)).length).toBeGreaterThan(30);
    await expectNoSecretsInAudit(t.ctx, secrets);
  });

  it("a failed transaction leaves neither the change nor its event", async () => {
    const user = await newUser();
    const before = (await auditRows(t.ctx)).length;
    await expect(
      withTransaction(t.ctx, async (tx) => {
        await setUserRole(tx, user.id, "admin", CLI_SOURCE);
        throw new Error("a later step fails");
      }),
    ).rejects.toThrow("a later step fails");
    expect((await auditRows(t.ctx)).length).toBe(before);
    const row = await t.ctx.db.selectFrom("user").select("role").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.role).not.toBe("admin");
  });

  it("a change whose event cannot be written does not happen (no change without its event)", async () => {
    const user = await newUser();
    const broken = await createTestContext({ dialect, databaseURL: t.ctx.config.databaseURL });
    // Rename the table the event goes to: the insert fails inside the ban's transaction.
    await broken.ctx.db.schema.alterTable("auditEvent").renameTo("auditEventAway").execute();
    try {
      const res = await broken.server().post("/admin/ban-user", { userId: user.id });
      expect(res.status).toBe(500);
    } finally {
      await broken.ctx.db.schema.alterTable("auditEventAway").renameTo("auditEvent").execute();
      await broken.ctx.close();
    }
    const row = await t.ctx.db.selectFrom("user").select("banned").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(Boolean(row.banned)).toBe(false);
    expect((await eventsOfType(t.ctx, "user_banned")).some((event) => event.subjectId === user.id)).toBe(false);
  });
});
