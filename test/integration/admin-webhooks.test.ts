import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { fanOutEvents, startDueDeliveries } from "../../src/services/webhooks/delivery.ts";
import { syncConfiguredEndpoints } from "../../src/services/webhooks/webhooks.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { type Answer, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

// Issue 32: the admin API over webhook endpoints and their delivery log, from an administrator's and an
// attacker's side. Deliveries are driven by the worker's own functions (fan out, claim and send), so every
// request the receiver gets is one the daemon's worker would have sent.

const ENDPOINT = "https://192.0.32.10/hooks";

describeEachDialect("admin webhooks API", (dialect) => {
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signUp>>;
  let receiver: Receiver;
  let answer: Answer = "ok";
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      config: {
        webhooks: { allowedPrivateDestinations: ["127.0.0.1"], timeoutMs: 2000 },
        admin: { roles: { support: { user: ["list", "ban"] }, watcher: { webhook: ["list"] } } },
      },
    });
    admin = await signUp(t);
    await t.server().post("/admin/set-role", { userId: admin.user.id, role: "admin" });
    receiver = await startReceiver(() => answer);
  });
  afterEach(async () => {
    answer = "ok";
    // Each case starts without endpoints: none of ENDPOINT's (a public address) is ever sent to.
    await t.ctx.db.deleteFrom("webhookEndpoint").execute();
    // And with no events left to fan out: an endpoint receives only what is recorded after it is made.
    while ((await fanOutEvents(t.ctx)) > 0) {}
    t.clock.advance(1000);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  async function create(url = receiver.url, events = ["*"]) {
    const res = await admin.agent.post("/admin/webhooks/create", { url, events });
    expect(res.status, res.text).toBe(200);
    return res.body as { endpoint: { id: string; disabled: boolean }; secret: string };
  }

  /** One pass of the worker: fan out new events, send what is due, wait for the answers. */
  async function deliverNow() {
    while ((await fanOutEvents(t.ctx)) > 0) {}
    for (const started of await startDueDeliveries(t.ctx, "test-worker")) await started.done;
  }

  async function signUpEventId(userId: string) {
    const row = await t.ctx.db
      .selectFrom("auditEvent")
      .select("id")
      .where("type", "=", "sign_up")
      .where("subjectId", "=", userId)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function log(endpointId: string, query = "") {
    const res = await admin.agent.get(`/admin/webhooks/deliveries?endpointId=${endpointId}${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as {
      attempts: { id: string; ok: boolean; trigger: string; eventId: string | null }[];
      total: number;
    };
  }

  it("creates an endpoint (its secret once), lists it without the secret, and records who did it", async () => {
    const created = await create(ENDPOINT, ["sign_up", "user_banned"]);
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await admin.agent.get("/admin/webhooks");
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(created.secret);
    expect(listed.body.endpoints).toContainEqual(
      expect.objectContaining({
        id: created.endpoint.id,
        url: ENDPOINT,
        events: ["sign_up", "user_banned"],
        origin: "cli",
      }),
    );
    const [event] = (await eventsOfType(t.ctx, "webhook_endpoint_changed")).filter((e) =>
      e.data.includes(created.endpoint.id),
    );
    expect(event).toMatchObject({ actorType: "admin", actorId: admin.user.id, subjectId: null });
    expect(JSON.parse(event.data)).toEqual({ endpointId: created.endpoint.id, change: "created" });
  });

  it("refuses private destinations on create and edit (SSRF), unknown and missing event types", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data",
      "http://10.0.0.1/hooks",
      "http://[::1]:8080/",
      "file:///etc/passwd",
    ]) {
      const res = await admin.agent.post("/admin/webhooks/create", { url, events: ["*"] });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe("WEBHOOK_DESTINATION_REFUSED");
    }
    const unknown = await admin.agent.post("/admin/webhooks/create", { url: ENDPOINT, events: ["sign_in", "bogus"] });
    expect(unknown.body.code).toBe("UNKNOWN_WEBHOOK_EVENT_TYPE");
    const none = await admin.agent.post("/admin/webhooks/create", { url: ENDPOINT, events: [] });
    expect(none.body.code).toBe("AT_LEAST_ONE_EVENT_TYPE_IS_REQUIRED");

    const { endpoint } = await create(ENDPOINT);
    const moved = await admin.agent.post("/admin/webhooks/update", { id: endpoint.id, url: "http://169.254.169.254/" });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe("WEBHOOK_DESTINATION_REFUSED");
    const retyped = await admin.agent.post("/admin/webhooks/update", { id: endpoint.id, events: ["nope"] });
    expect(retyped.body.code).toBe("UNKNOWN_WEBHOOK_EVENT_TYPE");
    const unchanged = (await admin.agent.get("/admin/webhooks")).body.endpoints.find(
      (e: { id: string }) => e.id === endpoint.id,
    );
    expect(unchanged).toMatchObject({ url: ENDPOINT, events: ["*"] });

    const edited = await admin.agent.post("/admin/webhooks/update", {
      id: endpoint.id,
      url: `${ENDPOINT}/v2`,
      events: ["sign_in"],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.endpoint).toMatchObject({ url: `${ENDPOINT}/v2`, events: ["sign_in"] });
    const changes = (await eventsOfType(t.ctx, "webhook_endpoint_changed")).map((e) => JSON.parse(e.data));
    expect(changes).toContainEqual({ endpointId: endpoint.id, change: "updated", fields: ["url", "events"] });
  });

  it("refuses a non-admin (403), a signed-out caller (401) and a role without the webhook action", async () => {
    const { endpoint } = await create(ENDPOINT);
    const plain = await signUp(t);
    const support = await signUp(t);
    await t.server().post("/admin/set-role", { userId: support.user.id, role: "support" });
    const watcher = await signUp(t);
    await t.server().post("/admin/set-role", { userId: watcher.user.id, role: "watcher" });
    const calls: [string, string, unknown?][] = [
      ["GET", "/admin/webhooks"],
      ["GET", `/admin/webhooks/deliveries?endpointId=${endpoint.id}`],
      ["POST", "/admin/webhooks/create", { url: ENDPOINT, events: ["*"] }],
      ["POST", "/admin/webhooks/update", { id: endpoint.id, events: ["sign_in"] }],
      ["POST", "/admin/webhooks/disable", { id: endpoint.id }],
      ["POST", "/admin/webhooks/enable", { id: endpoint.id }],
      ["POST", "/admin/webhooks/rotate-secret", { id: endpoint.id }],
      ["POST", "/admin/webhooks/test", { id: endpoint.id }],
      ["POST", "/admin/webhooks/remove", { id: endpoint.id }],
      ["POST", "/admin/webhooks/resend", { deliveryId: "whd_unknown" }],
    ];
    const call = (agent: typeof plain.agent, [method, path, body]: (typeof calls)[number]) =>
      method === "GET" ? agent.get(path) : agent.post(path, body);
    for (const request of calls) {
      expect((await call(plain.agent, request)).status, `${request[1]} as a user`).toBe(403);
      expect((await call(support.agent, request)).status, `${request[1]} as support`).toBe(403);
      expect((await call(t.agent(), request)).status, `${request[1]} signed out`).toBe(401);
    }
    // A role holding webhook:list reads, and does nothing else.
    for (const request of calls.slice(0, 2)) expect((await call(watcher.agent, request)).status).toBe(200);
    for (const request of calls.slice(2)) expect((await call(watcher.agent, request)).status).toBe(403);
    // Nothing changed.
    const after = (await admin.agent.get("/admin/webhooks")).body.endpoints.find(
      (e: { id: string }) => e.id === endpoint.id,
    );
    expect(after).toMatchObject({ events: ["*"], disabled: false, previousSecretExpiresAt: null });
    expect(receiver.received.filter((hook) => hook.body.includes(endpoint.id))).toEqual([]);
  });

  it("logs every delivery attempt; failed=true filters; a resend delivers the same event and settles the outbox", async () => {
    const { endpoint } = await create(receiver.url, ["sign_up"]);
    answer = "fail";
    await signUp(t);
    await deliverNow();
    const failed = await log(endpoint.id, "&failed=true");
    expect(failed.total).toBe(1);
    expect(failed.attempts[0]).toMatchObject({ ok: false, trigger: "delivery", status: 500, error: "HTTP 500" });
    expect(failed.attempts[0]).toMatchObject({ eventType: "sign_up", requestBytes: expect.any(Number) });

    answer = "ok";
    t.clock.advance(1);
    const resent = await admin.agent.post("/admin/webhooks/resend", { deliveryId: failed.attempts[0].id });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.attempt).toMatchObject({
      ok: true,
      status: 204,
      trigger: "resend",
      eventId: failed.attempts[0].eventId,
    });
    // The receiver saw the same webhook-id twice (it deduplicates on it), signed both times.
    const hooks = receiver.received.filter((hook) => hook.id === failed.attempts[0].eventId);
    expect(hooks.map((hook) => hook.attempt)).toEqual([1, 2]);
    // The outbox does not retry what the resend delivered.
    const [delivery] = await t.ctx.db
      .selectFrom("webhookDelivery")
      .selectAll()
      .where("endpointId", "=", endpoint.id)
      .execute();
    expect(delivery.status).toBe("delivered");
    const all = await log(endpoint.id);
    expect(all.attempts.map((a) => a.trigger)).toEqual(["resend", "delivery"]);
    expect((await log(endpoint.id, "&failed=true")).total).toBe(1);
  });

  it("answers 404 for an unknown delivery or endpoint, and refuses a resend while the endpoint is disabled", async () => {
    const unknown = await admin.agent.post("/admin/webhooks/resend", { deliveryId: "whd_does_not_exist" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("WEBHOOK_DELIVERY_NOT_FOUND");
    for (const path of [
      "/admin/webhooks/disable",
      "/admin/webhooks/rotate-secret",
      "/admin/webhooks/test",
      "/admin/webhooks/remove",
    ]) {
      const res = await admin.agent.post(path, { id: "wh_nope" });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    }
    expect((await admin.agent.get("/admin/webhooks/deliveries?endpointId=wh_nope")).status).toBe(404);

    const { endpoint } = await create(receiver.url);
    const tested = await admin.agent.post("/admin/webhooks/test", { id: endpoint.id });
    expect(tested.body.attempt).toMatchObject({ ok: true, trigger: "test", eventType: "webhook.test", eventId: null });
    await admin.agent.post("/admin/webhooks/disable", { id: endpoint.id });
    const refused = await admin.agent.post("/admin/webhooks/resend", { deliveryId: tested.body.attempt.id });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("WEBHOOK_ENDPOINT_DISABLED");
  });

  it("sends nothing to a disabled endpoint; what waited is sent once it is enabled, and events meanwhile never are", async () => {
    const { endpoint } = await create(receiver.url, ["sign_up"]);
    const waiting = await signUpEventId((await signUp(t)).user.id);
    while ((await fanOutEvents(t.ctx)) > 0) {}
    const disabled = await admin.agent.post("/admin/webhooks/disable", { id: endpoint.id });
    expect(disabled.body.endpoint.disabled).toBe(true);
    const meanwhile = await signUpEventId((await signUp(t)).user.id);
    await deliverNow();
    expect(receiver.ids().has(waiting)).toBe(false);
    expect((await log(endpoint.id)).total).toBe(0);

    await admin.agent.post("/admin/webhooks/enable", { id: endpoint.id });
    await deliverNow();
    expect(receiver.ids().has(waiting)).toBe(true);
    expect(receiver.ids().has(meanwhile)).toBe(false);
    expect((await log(endpoint.id)).attempts.map((a) => a.eventId)).toEqual([waiting]);
    const changes = (await eventsOfType(t.ctx, "webhook_endpoint_changed")).map((e) => JSON.parse(e.data).change);
    expect(changes).toEqual(expect.arrayContaining(["disabled", "enabled"]));
  });

  it("rotates the secret: the new one once, the old one signing beside it for the grace, or not at all with 0", async () => {
    const { endpoint, secret: first } = await create(receiver.url);
    const rotated = await admin.agent.post("/admin/webhooks/rotate-secret", { id: endpoint.id, graceSeconds: 3600 });
    expect(rotated.status).toBe(200);
    const second = rotated.body.secret as string;
    expect(second).not.toBe(first);
    expect(rotated.body.endpoint.previousSecretExpiresAt).toBe(new Date(t.clock.now + 3_600_000).toISOString());
    expect((await admin.agent.get("/admin/webhooks")).text).not.toContain(second);

    await admin.agent.post("/admin/webhooks/test", { id: endpoint.id });
    const during = receiver.received.at(-1);
    if (!during) throw new Error("nothing received");
    const headers = {
      "webhook-id": during.id,
      "webhook-timestamp": during.timestamp,
      "webhook-signature": during.signature,
    };
    expect(during.signature.split(" ")).toHaveLength(2);
    expect(new Webhook(second).verify(during.body, headers)).toBeTruthy();
    expect(new Webhook(first).verify(during.body, headers)).toBeTruthy();

    const third = (await admin.agent.post("/admin/webhooks/rotate-secret", { id: endpoint.id, graceSeconds: 0 })).body;
    expect(third.endpoint.previousSecretExpiresAt).toBeNull();
    await admin.agent.post("/admin/webhooks/test", { id: endpoint.id });
    const after = receiver.received.at(-1);
    if (!after) throw new Error("nothing received");
    const afterHeaders = {
      "webhook-id": after.id,
      "webhook-timestamp": after.timestamp,
      "webhook-signature": after.signature,
    };
    expect(new Webhook(third.secret).verify(after.body, afterHeaders)).toBeTruthy();
    expect(() => new Webhook(second).verify(after.body, afterHeaders)).toThrow();

    const tooLong = await admin.agent.post("/admin/webhooks/rotate-secret", {
      id: endpoint.id,
      graceSeconds: 31 * 86400,
    });
    expect(tooLong.status).toBe(400);
  });

  it("removes an endpoint with its log; events name the removal", async () => {
    const { endpoint } = await create(receiver.url);
    await admin.agent.post("/admin/webhooks/test", { id: endpoint.id });
    expect((await admin.agent.post("/admin/webhooks/remove", { id: endpoint.id })).body).toEqual({ success: true });
    expect(
      await t.ctx.db.selectFrom("webhookAttempt").selectAll().where("endpointId", "=", endpoint.id).execute(),
    ).toEqual([]);
    const changes = (await eventsOfType(t.ctx, "webhook_endpoint_changed")).map((e) => JSON.parse(e.data));
    expect(changes).toContainEqual({ endpointId: endpoint.id, change: "removed" });
  });
});

describeEachDialect("admin webhooks API: config endpoints and the destination rules at resend", (dialect) => {
  let t: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    // No private destination allowed: the receiver on loopback is refused unless the file's endpoint is.
    t = await createTestContext({
      dialect,
      config: {
        webhooks: {
          endpoints: [{ id: "app", url: ENDPOINT, events: ["*"], secret: `whsec_${"A".repeat(43)}=` }],
        },
      },
    });
    await syncConfiguredEndpoints(t.ctx);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it("keeps a config file's endpoint read-only but lets it be paused", async () => {
    const server = t.server();
    for (const [path, body] of [
      ["/admin/webhooks/update", { id: "config_app", events: ["sign_in"] }],
      ["/admin/webhooks/rotate-secret", { id: "config_app" }],
      ["/admin/webhooks/remove", { id: "config_app" }],
    ] as const) {
      const res = await server.post(path, body);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe("WEBHOOK_ENDPOINT_READ_ONLY");
    }
    const paused = await server.post("/admin/webhooks/disable", { id: "config_app" });
    expect(paused.body.endpoint).toMatchObject({ origin: "config", disabled: true, events: ["*"] });
    await server.post("/admin/webhooks/enable", { id: "config_app" });
  });

  it("checks the destination again at resend: an endpoint no longer allowed gets nothing", async () => {
    // Made while loopback was allowed (another configuration); this daemon allows no private destination.
    const now = t.ctx.now();
    await t.ctx.db
      .insertInto("webhookEndpoint")
      .values({
        id: "wh_loopback",
        url: receiver.url,
        events: '["*"]',
        secret: `whsec_${"B".repeat(43)}=`,
        origin: "cli",
        createdAt: now,
      })
      .execute();
    const user = await signUp(t);
    const event = await t.ctx.db
      .selectFrom("auditEvent")
      .select(["id", "type"])
      .where("subjectId", "=", user.user.id)
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto("webhookAttempt")
      .values({
        id: "whd_loopback",
        endpointId: "wh_loopback",
        deliveryId: null,
        eventId: event.id,
        eventType: event.type,
        trigger: "delivery",
        requestBytes: 10,
        attemptedAt: now,
        durationMs: 1,
        ok: false,
        responseStatus: 500,
        error: "HTTP 500",
      })
      .execute();
    const refused = await t.server().post("/admin/webhooks/resend", { deliveryId: "whd_loopback" });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("WEBHOOK_DESTINATION_REFUSED");
    expect(refused.body.message).toContain("allowedPrivateDestinations");
    const tested = await t.server().post("/admin/webhooks/test", { id: "wh_loopback" });
    expect(tested.body.attempt).toMatchObject({ ok: false, status: null });
    expect(tested.body.attempt.error).toMatch(/^refused: /);
    expect(receiver.received).toEqual([]);

    // An event the audit log no longer keeps cannot be sent again.
    await t.ctx.db.deleteFrom("auditEvent").where("id", "=", event.id).execute();
    await t.ctx.db.updateTable("webhookEndpoint").set({ url: ENDPOINT }).where("id", "=", "wh_loopback").execute();
    const gone = await t.server().post("/admin/webhooks/resend", { deliveryId: "whd_loopback" });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("WEBHOOK_EVENT_NO_LONGER_KEPT");
  });
});
