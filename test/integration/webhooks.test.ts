import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { addWebhookEndpoint } from "../../src/services/webhooks/webhooks.ts";
import { auditRows } from "../helpers/audit.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { peerRequest, type RunningAuthd, startAuthd } from "../helpers/live-server.ts";
import { captureLog } from "../helpers/security-log.ts";
import { type Answer, type ReceivedWebhook, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

// Issue 21: webhooks delivered from the outbox by the daemon's worker to a receiver started here, on
// loopback (allowed through webhooks.allowedPrivateDestinations). Backoff is configured short so retries
// happen quickly; nothing asserts on time.

const FAST = {
  allowedPrivateDestinations: ["127.0.0.1"],
  pollIntervalMs: 20,
  retryBaseMs: 20,
  retryMaxMs: 100,
  // A timeout no loaded machine reaches. The receiver shares the daemon's process: on a busy machine its 204
  // came 340 ms after the request went out, which a 300 ms timeout calls a failed attempt and retries (at
  // least once, by design), and the tests that count requests counted one too many. A test about timeouts
  // sets its own.
  timeoutMs: 10_000,
  // As long as the default: a lease outliving a slow pass on a loaded machine keeps each attempt single.
  leaseMs: 60_000,
};
const WAIT = { timeout: 30_000, interval: 50 };

describeEachDialect("webhooks: delivery from the outbox", (dialect) => {
  const daemons: RunningAuthd[] = [];
  let receiver: Receiver | undefined;
  beforeEach(() => {
    daemons.length = 0;
  });
  afterEach(async () => {
    // Later daemons share the first one's database: close them first, the first (which removes it) last.
    for (const daemon of daemons.reverse()) await daemon.close();
    await receiver?.close();
  });

  async function daemon(
    databaseURL?: string,
    webhooks: Record<string, unknown> = {},
    options: Parameters<typeof startAuthd>[0] = {},
  ) {
    const running = await startAuthd({
      dialect,
      databaseURL,
      config: { webhooks: { ...FAST, ...webhooks } },
      ...options,
    });
    daemons.push(running);
    return running;
  }

  async function endpoint(t: TestContext, url: string, events = ["*"]) {
    return addWebhookEndpoint(t.ctx, { url, events });
  }

  /** Every received request verifies with the endpoint's secret, and its body is the event named by webhook-id. */
  function expectSigned(hooks: ReceivedWebhook[], secret: string) {
    const verifier = new Webhook(secret);
    for (const hook of hooks) {
      const payload = verifier.verify(hook.body, {
        "webhook-id": hook.id,
        "webhook-timestamp": hook.timestamp,
        "webhook-signature": hook.signature,
      }) as { type: string; data: { id: string; type: string } };
      expect(payload.data.id).toBe(hook.id);
      expect(payload.type).toBe(payload.data.type);
    }
  }

  async function deliveries(t: TestContext) {
    return t.ctx.db.selectFrom("webhookDelivery").selectAll().execute();
  }

  it("delivers every event once, signed per Standard Webhooks, and shows the counts in /metrics", async () => {
    receiver = await startReceiver();
    const live = await daemon();
    const { secret, id } = await endpoint(live.t, receiver.url);
    for (let i = 0; i < 3; i += 1) await signUp(live.t);
    await live.t.agent().post("/sign-in/email", { email: "nobody@example.com", password: "wrong-password" });
    const events = await auditRows(live.t.ctx);
    expect(events.length).toBeGreaterThanOrEqual(4);
    await vi.waitFor(() => expect(receiver?.ids().size).toBe(events.length), WAIT);
    await vi.waitFor(
      async () => expect((await deliveries(live.t)).every((d) => d.status === "delivered")).toBe(true),
      WAIT,
    );
    expect(receiver.received.length).toBe(events.length);
    expect([...receiver.ids()].sort()).toEqual(events.map((event) => event.id).sort());
    expectSigned(receiver.received, secret);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(receiver?.received[0]?.body ?? "", {
        "webhook-id": receiver?.received[0]?.id ?? "",
        "webhook-timestamp": receiver?.received[0]?.timestamp ?? "",
        "webhook-signature": receiver?.received[0]?.signature ?? "",
      }),
    ).toThrow();
    const metrics = await peerRequest(live.url, "/metrics");
    expect(metrics.text).toContain(`authd_webhook_deliveries{endpoint="${id}",status="delivered"} ${events.length}`);
  });

  it("retries after 500s and timeouts with backoff until the receiver accepts", async () => {
    const script: Answer[] = ["fail", "hang", "fail", "ok"];
    receiver = await startReceiver((hook) => script[hook.attempt - 1] ?? "ok");
    // Short, for the hung attempt to end soon; long enough for a loaded machine to see the last attempt's 204.
    const live = await daemon(undefined, { timeoutMs: 1_000 });
    const { secret } = await endpoint(live.t, receiver.url, ["sign_up"]);
    await signUp(live.t);
    await vi.waitFor(async () => expect((await deliveries(live.t))[0]?.status).toBe("delivered"), WAIT);
    const [delivery] = await deliveries(live.t);
    expect(delivery).toMatchObject({ attempts: 4, lastStatus: 204, lastError: null });
    expect(receiver.received.map((hook) => hook.attempt)).toEqual([1, 2, 3, 4]);
    expect(receiver.ids().size).toBe(1);
    expectSigned(receiver.received, secret);
  });

  it("delivers the backlog recorded while no daemon ran once one starts again", async () => {
    receiver = await startReceiver();
    const first = await daemon(undefined, { enabled: false });
    await endpoint(first.t, receiver.url, ["sign_up"]);
    for (let i = 0; i < 3; i += 1) await signUp(first.t);
    expect(receiver.received).toEqual([]);
    const second = await daemon(first.t.ctx.config.databaseURL);
    await vi.waitFor(() => expect(receiver?.ids().size).toBe(3), WAIT);
    await vi.waitFor(
      async () => expect((await deliveries(second.t)).every((d) => d.status === "delivered")).toBe(true),
      WAIT,
    );
    expect(receiver.received.length).toBe(3);
  });

  it("two daemons on one database deliver each event exactly once", async () => {
    receiver = await startReceiver();
    const one = await daemon();
    const two = await daemon(one.t.ctx.config.databaseURL);
    await endpoint(one.t, receiver.url, ["sign_up"]);
    for (let i = 0; i < 12; i += 1) await signUp(i % 2 === 0 ? one.t : two.t);
    await vi.waitFor(() => expect(receiver?.ids().size).toBe(12), WAIT);
    await vi.waitFor(
      async () => expect((await deliveries(one.t)).every((d) => d.status === "delivered")).toBe(true),
      WAIT,
    );
    expect(receiver.received.length).toBe(12);
    expect((await deliveries(one.t)).map((d) => d.attempts)).toEqual(new Array(12).fill(1));
  });

  it("refuses private and loopback destinations unless allowed, and never follows a redirect", async () => {
    const target = await startReceiver();
    receiver = await startReceiver(() => ({ redirect: target.url }));
    try {
      // This daemon only registers (its worker is off): the allowed one below delivers.
      const live = await daemon(undefined, { allowedPrivateDestinations: [], enabled: false });
      for (const url of [
        receiver.url,
        "http://10.1.2.3/hook",
        "http://169.254.169.254/latest",
        "http://[::1]:9/hook",
        "http://[::ffff:127.0.0.1]:9/hook",
        "http://localhost:9/hook",
        "file:///etc/passwd",
      ])
        await expect(endpoint(live.t, url), url).rejects.toMatchObject({ code: "WEBHOOK_DESTINATION_REFUSED" });

      const allowed = await daemon(live.t.ctx.config.databaseURL);
      await endpoint(allowed.t, receiver.url, ["sign_up"]);
      await signUp(allowed.t);
      await vi.waitFor(
        async () => expect((await deliveries(allowed.t))[0]?.lastError).toBe("redirect not followed"),
        WAIT,
      );
      expect(target.received).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it("delivers to endpoints from the config file with their configured secret", async () => {
    receiver = await startReceiver();
    const secret = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
    const live = await daemon(undefined, {
      endpoints: [{ id: "app", url: receiver.url, events: ["sign_up"], secret }],
    });
    await vi.waitFor(async () => {
      const rows = await live.t.ctx.db.selectFrom("webhookEndpoint").select("id").execute();
      expect(rows.map((row) => row.id)).toEqual(["config_app"]);
    }, WAIT);
    await signUp(live.t);
    await vi.waitFor(() => expect(receiver?.received.length).toBe(1), WAIT);
    expectSigned(receiver.received, secret);
  });

  it("a receiver that never answers holds up only its own endpoint: another gets its events meanwhile", async () => {
    const hung = await startReceiver(() => "hang");
    receiver = await startReceiver();
    try {
      // A long timeout: the hung request stays open while the other endpoint's deliveries go on.
      const live = await daemon(undefined, { timeoutMs: 20_000 });
      await endpoint(live.t, hung.url, ["sign_up"]);
      await endpoint(live.t, receiver.url, ["sign_up"]);
      await signUp(live.t);
      await vi.waitFor(() => expect(hung.waiting()).toBe(1), WAIT);
      await signUp(live.t);
      await vi.waitFor(() => expect(receiver?.ids().size).toBe(2), WAIT);
      // The second event reached the healthy endpoint while the first request to the hung one is still open.
      expect(hung.waiting()).toBe(1);
      expect(hung.received).toHaveLength(1);
    } finally {
      // Closed first: the daemon's stop waits for the attempt in flight.
      await hung.close();
    }
  });

  it("logs a failing endpoint once a minute with the reason, and once when it recovers", async () => {
    let answer: Answer = "fail";
    receiver = await startReceiver(() => answer);
    const gone = await startReceiver();
    await gone.close();
    const log = captureLog();
    // The test's clock: the minute between warnings passes when the test says so.
    const live = await daemon(undefined, {}, { realTime: false, logger: log.logger });
    const failing = await endpoint(live.t, receiver.url, ["sign_up"]);
    const refused = await endpoint(live.t, `${gone.url}?token=not-for-logs`, ["sign_up"]);
    const lines = (message: string, endpointId: string) =>
      log.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.message === message && entry.endpointId === endpointId);
    /** Wait until every delivery has made `attempts` attempts and is not held, then let the backoff pass. */
    const attempted = async (attempts: number, advance: number) => {
      await vi.waitFor(async () => {
        const rows = await deliveries(live.t);
        expect(rows.map((row) => [row.attempts, row.leaseOwner])).toEqual([
          [attempts, null],
          [attempts, null],
        ]);
      }, WAIT);
      live.t.clock.advance(advance);
    };

    await signUp(live.t);
    for (let attempts = 1; attempts <= 3; attempts += 1) await attempted(attempts, FAST.retryMaxMs);
    expect(lines("webhook delivery failing", failing.id)).toEqual([
      expect.objectContaining({ level: "warn", url: receiver.url, reason: "HTTP 500", status: 500, failedAttempts: 1 }),
    ]);
    const [refusal] = lines("webhook delivery failing", refused.id);
    expect(lines("webhook delivery failing", refused.id)).toHaveLength(1);
    expect(refusal).toMatchObject({ level: "warn", url: `${gone.url}?…`, failedAttempts: 1 });
    expect(refusal.reason).toEqual(expect.any(String));
    expect(refusal.status).toBeUndefined();

    live.t.clock.advance(60_000);
    await attempted(4, FAST.retryMaxMs);
    expect(lines("webhook delivery failing", failing.id)).toHaveLength(2);
    expect(lines("webhook delivery failing", failing.id)[1]).toMatchObject({
      failedAttempts: 4,
      unloggedSinceLastWarning: 2,
    });

    answer = "ok";
    await vi.waitFor(
      async () => expect((await deliveries(live.t)).map((row) => row.status)).toContain("delivered"),
      WAIT,
    );
    expect(lines("webhook endpoint recovered", failing.id)).toEqual([
      expect.objectContaining({ level: "info", url: receiver.url, status: 204, failedAttempts: 4 }),
    ]);
    expect(lines("webhook endpoint recovered", refused.id)).toEqual([]);
    expect(lines("webhook delivery failing", failing.id)).toHaveLength(2);
    expect(log.lines.join("\n")).not.toContain("not-for-logs");
  });
});
