import { afterEach, expect, it, vi } from "vitest";
import { startAuditWorker } from "../../src/services/webhooks/audit-worker.ts";
import { addWebhookEndpoint } from "../../src/services/webhooks/webhooks.ts";
import { createAdminData } from "../../ui/data.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { startMailbox } from "../helpers/mailbox.ts";
import { redisEnv, redisSkipped } from "../helpers/redis.ts";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

// Issue 32: the daemon's worker writes every attempt to the delivery log and prunes it after
// webhooks.logRetention; the settings screen's health reads the worker and the other dependencies.

const WAIT = { timeout: 20_000, interval: 25 };
const DAY_MS = 86_400_000;

describeEachDialect("the webhook delivery log and the dependencies' health", (dialect) => {
  let t: TestContext | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await t?.close();
    await receiver?.close();
    t = undefined;
    receiver = undefined;
  });

  async function context(
    webhooks: Record<string, unknown> = {},
    extra: Record<string, unknown> = {},
    realTime = false,
  ) {
    t = await createTestContext({
      dialect,
      realTime,
      config: {
        webhooks: { allowedPrivateDestinations: ["127.0.0.1"], pollIntervalMs: 20, retryBaseMs: 20, ...webhooks },
        ...extra,
      },
    });
    return t;
  }

  it("logs the worker's attempts (event, size, status, timing) and prunes entries older than the retention", async () => {
    // Real time: the worker's retry is due a few milliseconds after the failure.
    const t = await context({ logRetention: "2d" }, {}, true);
    receiver = await startReceiver((hook) => (hook.attempt === 1 ? "fail" : "ok"));
    const { id } = await addWebhookEndpoint(t.ctx, { url: receiver.url, events: ["sign_up"] });
    const old = {
      endpointId: id,
      deliveryId: null,
      eventId: null,
      eventType: "webhook.test",
      trigger: "test" as const,
    };
    const row = { ...old, requestBytes: 1, durationMs: 1, ok: true, responseStatus: 204, error: null };
    await t.ctx.db
      .insertInto("webhookAttempt")
      .values([
        { ...row, id: "whd_three_days", attemptedAt: Date.now() - 3 * DAY_MS },
        { ...row, id: "whd_one_day", attemptedAt: Date.now() - DAY_MS },
      ])
      .execute();
    const user = await signUp(t);
    const worker = startAuditWorker(t.ctx);
    try {
      const data = createAdminData(t.ctx);
      await vi.waitFor(async () => {
        const page = await data.listWebhookDeliveries(id, { limit: 10, offset: 0 });
        expect(page.items.filter((entry) => entry.trigger === "delivery").map((entry) => entry.ok)).toContain(true);
      }, WAIT);
      const page = await data.listWebhookDeliveries(id, { limit: 10, offset: 0 });
      expect(page.items.map((entry) => entry.id)).not.toContain("whd_three_days");
      expect(page.items.map((entry) => entry.id)).toContain("whd_one_day");
      const attempts = page.items.filter((entry) => entry.trigger === "delivery");
      expect(attempts).toHaveLength(2);
      const [failed] = attempts.filter((entry) => !entry.ok);
      expect(failed).toMatchObject({ eventType: "sign_up", status: 500, error: "HTTP 500" });
      expect(failed.durationMs).toBeGreaterThanOrEqual(0);
      const sent = receiver.received.find((hook) => hook.body.includes(user.user.id));
      expect(failed.requestBytes).toBe(Buffer.byteLength(sent?.body ?? ""));
      const failedOnly = await data.listWebhookDeliveries(id, { failedOnly: true, limit: 10, offset: 0 });
      expect(failedOnly.items.map((entry) => entry.id)).toEqual([failed.id]);

      // Health while the worker runs here.
      const health = await data.checkDependencies();
      expect(health.map((entry) => [entry.name, entry.status])).toEqual([
        ["database", "up"],
        ["redis", "off"],
        ["smtp", "off"],
        ["webhookWorker", "up"],
      ]);
      expect(health[0].target).toMatch(dialect === "sqlite" ? /^sqlite / : /^postgres /);
      expect(health[3].lastPassAt).not.toBeNull();
    } finally {
      await worker.stop();
    }
    const stopped = (await createAdminData(t.ctx).checkDependencies()).find((entry) => entry.name === "webhookWorker");
    expect(stopped).toMatchObject({ status: "down", reason: "not-running" });
  });

  it("checks the SMTP server when configured, reporting it down without its password, and the worker off with webhooks", async () => {
    const mailbox = await startMailbox();
    const up = await context({ enabled: false }, { smtpURL: mailbox.url });
    expect((await createAdminData(up.ctx).checkDependencies()).find((entry) => entry.name === "smtp")).toMatchObject({
      status: "up",
      target: `smtp 127.0.0.1:${mailbox.port}`,
    });
    await up.close();
    await mailbox.close();
    const down = await context(
      { enabled: false },
      { smtpURL: `smtp://user:hunter2-secret@127.0.0.1:${mailbox.port}?tls=off` },
    );
    const health = await createAdminData(down.ctx).checkDependencies();
    const smtp = health.find((entry) => entry.name === "smtp");
    expect(smtp).toMatchObject({ status: "down", target: `smtp 127.0.0.1:${mailbox.port}`, latencyMs: null });
    expect(smtp?.error).toBe("connection refused");
    expect(JSON.stringify(health)).not.toContain("hunter2-secret");
    expect(health.find((entry) => entry.name === "webhookWorker")).toMatchObject({ status: "off" });
  });

  it("counts deliveries overdue to enabled endpoints when no worker delivers", async () => {
    const t = await context();
    receiver = await startReceiver();
    await addWebhookEndpoint(t.ctx, { url: receiver.url, events: ["*"] });
    await signUp(t);
    const { fanOutEvents } = await import("../../src/services/webhooks/delivery.ts");
    while ((await fanOutEvents(t.ctx)) > 0) {}
    t.clock.advance(10 * 60_000);
    const worker = (await createAdminData(t.ctx).checkDependencies()).find((entry) => entry.name === "webhookWorker");
    expect(worker).toMatchObject({ status: "down", reason: "not-running" });
    expect(worker?.overdueDeliveries).toBeGreaterThan(0);
  });

  it.skipIf(redisSkipped)("checks Redis when configured", async () => {
    t = await createTestContext({ dialect, env: redisEnv() });
    const redis = (await createAdminData(t.ctx).checkDependencies()).find((entry) => entry.name === "redis");
    expect(redis).toMatchObject({ status: "up", target: expect.stringMatching(/^redis /), error: null });
    expect(redis?.latencyMs).toBeGreaterThanOrEqual(0);
  });
});
