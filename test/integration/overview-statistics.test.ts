import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewAuditEventRow } from "../../src/db/schema.ts";
import { readOverviewStatistics } from "../../src/services/overview-statistics.ts";
import { createAdminData } from "../../ui/data.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// The console's overview: users, active sessions, sign-ups, sign-ins and failed sign-ins per hour over the
// last 24 hours and per day over the last 30 (UTC), and failing webhook deliveries, from grouped queries.

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 27, 15, 30);

describeEachDialect("overview statistics", (dialect) => {
  let t: TestContext;
  let counter = 0;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_WEBHOOKS: "on" } });
    t.clock.now = NOW;
  });
  afterAll(() => t.close());

  async function insertEvent(type: string, outcome: "success" | "failure", createdAt: number): Promise<string> {
    counter += 1;
    const row: NewAuditEventRow = {
      id: `ovw-${counter}`,
      type,
      createdAt,
      actorType: "anonymous",
      outcome,
      data: "{}",
      fannedOut: true,
    };
    await t.ctx.db.insertInto("auditEvent").values(row).execute();
    return row.id;
  }

  it("counts sign-ups, sign-ins and failed sign-ins per hour and per day, and the users and sessions there are", async () => {
    await signUp(t);
    await signUp(t);
    // The current hour (two sign-ups above too), the hour before, the first of the 24 and the hour before it.
    await insertEvent("sign_in", "success", NOW - 10 * 60_000);
    await insertEvent("sign_in", "failure", NOW - HOUR);
    await insertEvent("sign_in", "failure", NOW - HOUR);
    await insertEvent("sign_up", "success", NOW - 23 * HOUR);
    await insertEvent("sign_in", "success", NOW - 24 * HOUR);
    // The first of the 30 days (its first millisecond), and the day before it: not counted.
    const firstDay = Date.UTC(2026, 9, 29);
    await insertEvent("sign_up", "success", firstDay);
    await insertEvent("sign_up", "success", firstDay - 1);
    // Other types, and a failed sign-up (none are recorded today, but only successes are sign-ups).
    await insertEvent("user_banned", "success", NOW);
    await insertEvent("sign_up", "failure", NOW);

    const overview = await createAdminData(t.ctx).readOverview();
    expect(overview.at).toBe(new Date(NOW).toISOString());
    expect(overview.users).toBe(2);
    expect(overview.activeSessions).toBe(2);
    expect(overview.retentionDays).toBe(90);

    expect(overview.hourly).toHaveLength(24);
    expect(overview.hourly[0].start).toBe("2026-11-26T16:00:00.000Z");
    expect(overview.hourly[23]).toEqual({
      start: "2026-11-27T15:00:00.000Z",
      signUps: 2,
      signIns: 1,
      failedSignIns: 0,
    });
    expect(overview.hourly[22]).toMatchObject({ signUps: 0, signIns: 0, failedSignIns: 2 });
    expect(overview.hourly[0]).toMatchObject({ signUps: 1, signIns: 0, failedSignIns: 0 });
    const hourTotal = overview.hourly.reduce((sum, b) => sum + b.signUps + b.signIns + b.failedSignIns, 0);
    expect(hourTotal).toBe(6);

    expect(overview.daily).toHaveLength(30);
    expect(overview.daily[0]).toEqual({ start: "2026-10-29T00:00:00.000Z", signUps: 1, signIns: 0, failedSignIns: 0 });
    expect(overview.daily[29]).toEqual({
      start: "2026-11-27T00:00:00.000Z",
      signUps: 2,
      signIns: 1,
      failedSignIns: 2,
    });
    expect(overview.daily[28]).toEqual({ start: "2026-11-26T00:00:00.000Z", signUps: 1, signIns: 1, failedSignIns: 0 });
    const dayTotal = overview.daily.reduce((sum, b) => sum + b.signUps + b.signIns + b.failedSignIns, 0);
    expect(dayTotal).toBe(8);
  });

  it("leaves expired sessions out of the active ones", async () => {
    const before = (await readOverviewStatistics(t.ctx)).activeSessions;
    const user = await signUp(t);
    await t.ctx.db
      .updateTable("session")
      .set({ expiresAt: NOW - 1 })
      .where("userId", "=", user.user.id)
      .execute();
    expect((await readOverviewStatistics(t.ctx)).activeSessions).toBe(before);
  });

  it("counts the webhook deliveries given up on, the endpoints they failed at, and those still pending", async () => {
    const event = await insertEvent("user_banned", "success", NOW);
    const other = await insertEvent("user_unbanned", "success", NOW);
    for (const id of ["ep-a", "ep-b", "ep-c"])
      await t.ctx.db
        .insertInto("webhookEndpoint")
        .values({
          id,
          url: `https://${id}.example/hook`,
          events: '["*"]',
          secret: "whsec_x",
          origin: "cli",
          createdAt: NOW,
        })
        .execute();
    const deliveries: [string, string, "pending" | "delivered" | "failed"][] = [
      ["ep-a", event, "failed"],
      ["ep-a", other, "failed"],
      ["ep-b", event, "failed"],
      ["ep-b", other, "pending"],
      ["ep-c", event, "delivered"],
    ];
    for (const [endpointId, eventId, status] of deliveries)
      await t.ctx.db
        .insertInto("webhookDelivery")
        .values({ id: `${endpointId}-${eventId}`, endpointId, eventId, status, nextAttemptAt: NOW, createdAt: NOW })
        .execute();
    expect((await readOverviewStatistics(t.ctx)).webhooks).toEqual({
      enabled: true,
      endpoints: 3,
      failedDeliveries: 3,
      failingEndpoints: 2,
      pendingDeliveries: 1,
    });
  });
});

describe("audit log indexes [sqlite]", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect: "sqlite" });
  });
  afterAll(() => t.close());

  it("reads the activity from the type index alone, an actor's events by index, an export's batches by range", async () => {
    const plan = async (query: string) =>
      (await sql.raw<{ detail: string }>(`explain query plan ${query}`).execute(t.ctx.db)).rows
        .map((row) => row.detail)
        .join("; ");
    expect(
      await plan(
        `select type, outcome, ("createdAt" - 0) / 3600000 as bucket from "auditEvent" where type in ('sign_up', 'sign_in') and "createdAt" >= 0 and "createdAt" < 10`,
      ),
    ).toContain("COVERING INDEX audit_event_type_created_at_idx");
    expect(
      await plan(`select * from "auditEvent" where "actorId" = 'x' order by "createdAt" desc, id desc limit 50`),
    ).toContain("audit_event_actor_idx");
    // An export's next batch starts where the last one stopped: a search of the time index, not a scan.
    expect(
      await plan(
        `select * from "auditEvent" where ("createdAt", "id") < (5, 'x') order by "createdAt" desc, id desc limit 500`,
      ),
    ).toMatch(/SEARCH auditEvent USING INDEX audit_event_created_at_idx \(\(createdAt,id\)<\(\?,\?\)\)/);
  });
});
