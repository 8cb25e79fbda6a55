import { afterAll, beforeAll, expect, it } from "vitest";
import { pruneAuditLog } from "../../src/services/audit-log.ts";
import { auditRows } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// GET /admin/audit-log (admins with audit:list, and server calls) and GET /list-security-events (the
// caller's own), with the attacker's side: other users' events, no session, forged server tokens.

describeEachDialect("audit log: read routes and retention", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  async function adminAgent() {
    const admin = await signUp(t);
    expect((await t.server().post("/admin/set-role", { userId: admin.user.id, role: "admin" })).status).toBe(200);
    return admin;
  }

  it("lists events newest first with filters and paging for the server and admins only", async () => {
    const alice = await signUp(t);
    t.clock.advance(10);
    await t.agent().post("/sign-in/email", { email: alice.email, password: "wrong-password-1" });
    t.clock.advance(10);
    const admin = await adminAgent();

    const all = await t.server().get("/admin/audit-log", { query: { userId: alice.user.id } });
    expect(all.status, all.text).toBe(200);
    expect(all.body.total).toBe(2);
    expect(all.body.events.map((e: { type: string; outcome: string }) => `${e.type}:${e.outcome}`)).toEqual([
      "sign_in:failure",
      "sign_up:success",
    ]);
    expect(all.body.events[1]).toMatchObject({ subjectId: alice.user.id, actor: { type: "user", id: alice.user.id } });

    const failures = await admin.agent.get("/admin/audit-log", { query: { outcome: "failure", type: "sign_in" } });
    expect(failures.status, failures.text).toBe(200);
    expect(failures.body.events.every((e: { outcome: string }) => e.outcome === "failure")).toBe(true);

    const paged = await t.server().get("/admin/audit-log", { query: { limit: "1", offset: "1" } });
    expect(paged.body.events).toHaveLength(1);
    expect(paged.body.total).toBe((await auditRows(t.ctx)).length);

    const since = new Date(t.clock.now + 1).toISOString();
    expect((await t.server().get("/admin/audit-log", { query: { since } })).body.total).toBe(0);
  });

  it("refuses the log to users without audit:list, to anonymous callers and to a forged server token", async () => {
    const mallory = await signUp(t);
    const refused = await mallory.agent.get("/admin/audit-log");
    expect(refused.status).toBe(403);
    expect((await t.agent().get("/admin/audit-log")).status).toBe(401);
    const forged = t.agent();
    forged.headers.authorization = "Bearer not-the-server-token-0000000000";
    expect((await forged.get("/admin/audit-log")).status).toBe(401);
    expect((await t.server().get("/admin/audit-log", { query: { limit: "-1" } })).status).toBe(400);
  });

  it("shows users their own security events only", async () => {
    const bob = await signUp(t);
    const eve = await signUp(t);
    await t.agent().post("/sign-in/email", { email: bob.email, password: "wrong-password-2" });
    const own = await bob.agent.get("/list-security-events");
    expect(own.status, own.text).toBe(200);
    expect(own.body.events.map((e: { type: string }) => e.type).sort()).toEqual(["sign_in", "sign_up"]);
    expect(own.body.events.every((e: { subjectId: string }) => e.subjectId === bob.user.id)).toBe(true);
    const theirs = await eve.agent.get("/list-security-events", { query: { userId: bob.user.id } });
    expect(theirs.body.events.every((e: { subjectId: string }) => e.subjectId === eve.user.id)).toBe(true);
    expect((await t.agent().get("/list-security-events")).status).toBe(401);
  });

  it("prunes events older than the retention period", async () => {
    const before = (await auditRows(t.ctx)).length;
    expect(before).toBeGreaterThan(0);
    t.clock.advance(89 * 86_400_000);
    expect(await pruneAuditLog(t.ctx)).toBe(0);
    await signUp(t);
    t.clock.advance(2 * 86_400_000);
    expect(await pruneAuditLog(t.ctx)).toBe(before);
    expect((await auditRows(t.ctx)).map((row) => row.type)).toEqual(["sign_up"]);
  });

  it("keeps AUTH_AUDIT_RETENTION days", async () => {
    const short = await createTestContext({ dialect, env: { AUTH_AUDIT_RETENTION: "7" } });
    try {
      expect(short.ctx.config.audit.retentionDays).toBe(7);
      await signUp(short);
      short.clock.advance(8 * 86_400_000);
      expect(await pruneAuditLog(short.ctx)).toBe(1);
    } finally {
      await short.close();
    }
  });
});
