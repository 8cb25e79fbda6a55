import { afterAll, beforeAll, expect, it } from "vitest";
import type { EventSource } from "../../src/services/security-events.ts";
import { createAdminData } from "../../ui/data.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// Operators' actions on many users at once (AdminData over services/bulk-user-actions.ts): each user changed
// and logged as by the single action, naming the acting admin; the limits; the operator's own account.

/** Events of one moment come in no set order: compared by subject. */
const bySubject = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));

describeEachDialect("bulk user actions", (dialect) => {
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let source: EventSource;
  const alive = async (agent: Awaited<ReturnType<typeof signUp>>["agent"]) =>
    (await agent.get("/get-session", { query: { disableCookieCache: true } })).body?.session != null;

  beforeAll(async () => {
    t = await createTestContext({ dialect });
    admin = await signUp(t, { email: "bulk.admin@example.com" });
    await t.ctx.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
    source = { actorType: "admin", actorId: admin.user.id, ip: "203.0.113.9", userAgent: "console test" };
  });
  afterAll(() => t.close());

  it("bans each user chosen with the reason and expiry, ends their sessions, and logs one event each", async () => {
    // Given two signed-in users and one who is not chosen
    const [one, two, bystander] = [await signUp(t), await signUp(t), await signUp(t)];
    const data = createAdminData(t.ctx, source);

    // When the admin bans the two, with an id that no longer exists among them
    const outcome = await data.banUsers([one.user.id, two.user.id, "gone-user", one.user.id], "spam wave", 3600);

    // Then both are banned until an hour from now and signed out; the bystander is untouched
    expect(outcome).toEqual({ done: [one.user.id, two.user.id], unchanged: [], missing: ["gone-user"] });
    for (const user of [one, two]) {
      const row = await t.ctx.db
        .selectFrom("user")
        .selectAll()
        .where("id", "=", user.user.id)
        .executeTakeFirstOrThrow();
      expect([Boolean(row.banned), row.banReason, row.banExpires]).toEqual([
        true,
        "spam wave",
        t.ctx.now() + 3_600_000,
      ]);
      expect(await alive(user.agent)).toBe(false);
    }
    expect(await alive(bystander.agent)).toBe(true);
    const events = await eventsOfType(t.ctx, "user_banned");
    expect(events.map((e) => [e.subjectId, e.actorType, e.actorId, e.ip, e.userAgent]).sort(bySubject)).toEqual(
      [
        [one.user.id, "admin", admin.user.id, "203.0.113.9", "console test"],
        [two.user.id, "admin", admin.user.id, "203.0.113.9", "console test"],
      ].sort(bySubject),
    );

    // And unbanning them (with the bystander, who is not banned) lifts both bans and leaves the bystander
    const lifted = await data.unbanUsers([one.user.id, bystander.user.id, two.user.id]);
    expect(lifted).toEqual({ done: [one.user.id, two.user.id], unchanged: [bystander.user.id], missing: [] });
    const unbanned = await eventsOfType(t.ctx, "user_unbanned");
    expect(unbanned.map((e) => [e.subjectId, e.actorId]).sort(bySubject)).toEqual(
      [
        [one.user.id, admin.user.id],
        [two.user.id, admin.user.id],
      ].sort(bySubject),
    );
    const signIn = await t.agent().post("/sign-in/email", { email: one.email, password: one.password });
    expect(signIn.status).toBe(200);
  });

  it("refuses a ban naming the acting admin, changing no one", async () => {
    const victim = await signUp(t);
    const data = createAdminData(t.ctx, source);
    await expect(data.banUsers([victim.user.id, admin.user.id], "oops")).rejects.toMatchObject({
      code: "YOU_CANNOT_BAN_YOURSELF",
    });
    const row = await t.ctx.db.selectFrom("user").select("banned").where("id", "=", victim.user.id).executeTakeFirst();
    expect(Boolean(row?.banned)).toBe(false);
    expect(await alive(victim.agent)).toBe(true);
    expect(await alive(admin.agent)).toBe(true);
  });

  it("refuses no users and more than 100 at once", async () => {
    const data = createAdminData(t.ctx, source);
    const none = { code: "VALIDATION_ERROR", message: "No users chosen" };
    await expect(data.revokeSessionsOfUsers([])).rejects.toMatchObject(none);
    await expect(data.unbanUsers([" ", ""])).rejects.toMatchObject(none);
    const many = Array.from({ length: 101 }, (_, i) => `user-${i}`);
    const tooMany = { code: "VALIDATION_ERROR", message: "At most 100 users at once" };
    await expect(data.banUsers(many, "too many")).rejects.toMatchObject(tooMany);
  });

  it("signs the users chosen out everywhere, one event each with its count", async () => {
    // Given a user signed in twice and one signed in once
    const twice = await signUp(t);
    const again = t.agent();
    expect((await again.post("/sign-in/email", { email: twice.email, password: twice.password })).status).toBe(200);
    const once = await signUp(t);

    // When the admin revokes their sessions
    const outcome = await createAdminData(t.ctx, source).revokeSessionsOfUsers([twice.user.id, once.user.id]);

    // Then all three sessions are gone, and each user has an event naming the admin and the count
    expect(outcome).toMatchObject({ done: [twice.user.id, once.user.id], sessions: 3 });
    for (const agent of [twice.agent, again, once.agent]) expect(await alive(agent)).toBe(false);
    const revoked = (await eventsOfType(t.ctx, "session_revoked")).filter((e) =>
      [twice.user.id, once.user.id].includes(e.subjectId ?? ""),
    );
    expect(revoked.map((e) => [e.subjectId, e.actorId, JSON.parse(e.data).count]).sort(bySubject)).toEqual(
      [
        [twice.user.id, admin.user.id, 2],
        [once.user.id, admin.user.id, 1],
      ].sort(bySubject),
    );
  });
});
