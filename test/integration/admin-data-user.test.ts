import { beforeEach, expect, it } from "vitest";
import type { AuditEventRow } from "../../src/db/schema.ts";
import { isAuthError } from "../../src/errors.ts";
import { type AdminData, createAdminData, type EventSource } from "../../ui/data.ts";
import { auditRows } from "../helpers/audit.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { enrol } from "../helpers/two-factor.ts";

// What the web console's user screen reads and does through AdminData (issue 32): every action records its
// event from the acting administrator (their id, address and browser), acts only on the user it names (a
// session or key of someone else is left alone), and impersonation takes a reason and a time limit.

const FROM = { ip: "192.0.2.44", userAgent: "ConsoleBrowser/1.0" };

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return isAuthError(error) ? error.key : String(error);
  }
  throw new Error("expected a refusal");
};

describeEachDialect("AdminData for the console's user screen", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext(
    {
      dialect,
      config: {
        twoFactor: { enabled: true },
        admin: { roles: { support: { user: ["list", "get", "ban"] } }, impersonationSessionDuration: 7200 },
      },
    },
    (ready) => ({ t, mailbox } = ready),
  );

  let adminId: string;
  let data: AdminData;
  let source: EventSource;
  beforeEach(async () => {
    const admin = await signUp(t);
    adminId = admin.user.id;
    await createAdminData(t.ctx).setRole(adminId, "admin");
    source = { actorType: "admin", actorId: adminId, ...FROM };
    data = createAdminData(t.ctx, source);
  });

  /** The ids of the events recorded so far. */
  const seenRows = async () => new Set((await auditRows(t.ctx)).map((row) => row.id));
  /** The events recorded since `seen`, oldest first (each step below moves the clock, so they sort in order). */
  const newRows = async (seen: Set<string>) => (await auditRows(t.ctx)).filter((row) => !seen.has(row.id));
  const step = async <T>(work: Promise<T>): Promise<T> => {
    const done = await work;
    t.clock.advance(1);
    return done;
  };
  const fromAdmin = (row: AuditEventRow) => ({
    actorType: row.actorType,
    actorId: row.actorId,
    ip: row.ip,
    userAgent: row.userAgent,
  });

  it("records every action on a user with the acting administrator as the source", async () => {
    const target = await signUp(t);
    const userId = target.user.id as string;
    const before = await seenRows();

    expect(await step(data.verifyEmail(userId))).toBe(true);
    expect(await step(data.verifyEmail(userId))).toBe(false);
    await step(data.setPassword(userId, "set-by-the-console-1"));
    await step(data.setRole(userId, "user"));
    await step(data.banUser(userId, "spam", 3600));
    await step(data.unbanUser(userId));
    await step(t.agent().post("/sign-in/email", { email: target.email, password: "set-by-the-console-1" }));
    const [session] = (await data.describeUser(userId))?.sessions ?? [];
    expect(await step(data.revokeUserSession(userId, session.id))).toBe(1);
    await step(data.revokeAllSessions(userId));
    const key = await step(
      data.issueApiKey(userId, {
        name: "console",
        permissions: { files: ["read"] },
        refill: { amount: 10, intervalMs: 86_400_000 },
        expiresInSeconds: 86_400 * 30,
      }),
    );
    expect(key).toMatchObject({ permissions: { files: ["read"] }, refillAmount: 10, remaining: 10 });
    const changes = { remaining: 50, rateLimit: { max: 5, windowMs: 60_000 } };
    const updated = await step(data.updateApiKey(userId, key.id, changes));
    expect(updated).toMatchObject({ remaining: 50, rateLimitMax: 5, rateLimitTimeWindow: 60_000 });
    await step(data.revokeUserApiKey(userId, key.id));
    await step(data.resetTwoFactor(userId));
    await step(data.deleteUser(userId));

    const rows = (await newRows(before)).filter((row) => row.subjectId === userId && row.type !== "sign_in");
    expect(rows.map((row) => row.type)).toEqual([
      "email_verified",
      "password_changed",
      "role_changed",
      "user_banned",
      "user_unbanned",
      "session_revoked",
      "session_revoked",
      "api_key_created",
      "api_key_updated",
      "api_key_deleted",
      "two_factor_disabled",
      "user_deleted",
    ]);
    for (const row of rows) expect(fromAdmin(row), row.type).toEqual({ actorType: "admin", actorId: adminId, ...FROM });
    expect(JSON.parse(rows[0].data)).toEqual({ method: "admin" });
  });

  it("mails a reset link the user can set a new password with, and records it", async () => {
    const target = await signUp(t);
    await t.ctx.settle();
    const seen = mailCount(mailbox, target.email);
    const before = await seenRows();
    await data.sendPasswordReset(target.user.id);
    const link = await mailedLink(mailbox, target.email, "reset", seen);
    const token = pathOf(link).split("/reset-password/")[1].split("?")[0];
    expect((await t.agent().post("/reset-password", { token, newPassword: "from-the-mailed-link" })).status).toBe(200);
    const [requested] = (await newRows(before)).filter((row) => row.type === "password_reset_requested");
    expect(requested).toMatchObject({ type: "password_reset_requested", subjectId: target.user.id });
    expect(fromAdmin(requested)).toEqual({ actorType: "admin", actorId: adminId, ...FROM });
  });

  it("refuses a password outside the length rules and leaves the old one", async () => {
    const target = await signUp(t);
    expect(await refusal(data.setPassword(target.user.id, "short"))).toBe("PASSWORD_TOO_SHORT");
    const signIn = await t.agent().post("/sign-in/email", { email: target.email, password: target.password });
    expect(signIn.status).toBe(200);
  });

  it("acts only on the user it names: another user's session or key is left alone", async () => {
    const target = await signUp(t);
    const other = await signUp(t);
    const key = await data.issueApiKey(target.user.id, { name: "theirs" });
    const [session] = (await data.describeUser(target.user.id))?.sessions ?? [];

    expect(await data.revokeUserSession(other.user.id, session.id)).toBe(0);
    expect(await refusal(data.updateApiKey(other.user.id, key.id, { remaining: 1 }))).toBe("KEY_NOT_FOUND");
    expect(await refusal(data.revokeUserApiKey(other.user.id, key.id))).toBe("KEY_NOT_FOUND");

    expect((await target.agent.get("/get-session", { query: { disableCookieCache: true } })).body?.user.id).toBe(
      target.user.id,
    );
    expect((await data.describeUser(target.user.id))?.apiKeys.map((k) => k.id)).toEqual([key.id]);
  });

  it("lists one user's timeline, newest first, and nobody else's events", async () => {
    const target = await signUp(t);
    const other = await signUp(t);
    t.clock.advance(1000);
    await data.banUser(target.user.id, "spam");
    await data.banUser(other.user.id, "spam");
    t.clock.advance(1000);
    await data.unbanUser(target.user.id);
    const page = await data.listUserAuditEvents(target.user.id, { limit: 2, offset: 0 });
    expect(page.total).toBe(3);
    expect(page.items.map((event) => event.type)).toEqual(["user_unbanned", "user_banned"]);
    expect(page.items.every((event) => event.subjectEmail === target.email)).toBe(true);
    const rest = await data.listUserAuditEvents(target.user.id, { limit: 2, offset: 2 });
    expect(rest.items.map((event) => event.type)).toEqual(["sign_up"]);
  });

  it("describes the user's second factor: on, backup codes left, trusted browsers", async () => {
    const target = await signUp(t);
    expect((await data.describeUser(target.user.id))?.secondFactor).toEqual({
      enabled: false,
      backupCodes: 0,
      trustedBrowsers: 0,
    });
    const { backupCodes } = await enrol(target.agent, target.password, t.clock.now);
    expect((await data.describeUser(target.user.id))?.secondFactor).toEqual({
      enabled: true,
      backupCodes: backupCodes.length,
      trustedBrowsers: 0,
    });
    await data.resetTwoFactor(target.user.id);
    expect((await data.describeUser(target.user.id))?.secondFactor?.enabled).toBe(false);
  });

  it("impersonates with a reason and a time limit no longer than the configured one", async () => {
    const target = await signUp(t);
    const before = await seenRows();
    const short = await data.impersonate(target.user.id, { reason: "ticket #4521", expiresInSeconds: 1800 });
    expect(short.user.id).toBe(target.user.id);
    expect(short.session.impersonatedBy).toBe(adminId);
    expect(Number(short.session.expiresAt)).toBe(t.clock.now + 1800 * 1000);
    t.clock.advance(1);
    const long = await data.impersonate(target.user.id, { reason: "again", expiresInSeconds: 86_400 });
    expect(Number(long.session.expiresAt)).toBe(t.clock.now + 7200 * 1000);

    const started = (await newRows(before)).filter((row) => row.type === "impersonation_started");
    expect(started.map((row) => JSON.parse(row.data))).toEqual([
      {
        sessionId: short.session.id,
        expiresAt: new Date(Number(short.session.expiresAt)).toISOString(),
        reason: "ticket #4521",
      },
      { sessionId: long.session.id, expiresAt: new Date(t.clock.now + 7200 * 1000).toISOString(), reason: "again" },
    ]);
    for (const row of started) expect(fromAdmin(row)).toEqual({ actorType: "admin", actorId: adminId, ...FROM });
  });

  it("refuses to impersonate anyone holding an admin permission, and from the command line", async () => {
    const otherAdmin = await signUp(t);
    await createAdminData(t.ctx).setRole(otherAdmin.user.id, "admin");
    const support = await signUp(t);
    await createAdminData(t.ctx).setRole(support.user.id, "support");
    const asked = { reason: "curious", expiresInSeconds: 600 };
    expect(await refusal(data.impersonate(otherAdmin.user.id, asked))).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
    expect(await refusal(data.impersonate(support.user.id, asked))).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
    expect(await refusal(data.impersonate(adminId, asked))).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
    const plain = await signUp(t);
    expect(await refusal(createAdminData(t.ctx).impersonate(plain.user.id, asked))).toMatch(/administrator/);
    const sessions = await data.describeUser(otherAdmin.user.id);
    expect(sessions?.sessions.every((s) => !s.impersonatedBy)).toBe(true);
  });
});
