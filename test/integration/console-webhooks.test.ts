import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { fanOutEvents, startDueDeliveries } from "../../src/services/webhooks/delivery.ts";
import { syncConfiguredEndpoints } from "../../src/services/webhooks/webhooks.ts";
import type { Agent } from "../helpers/agent.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, postForm } from "../helpers/pages.ts";
import { type Answer, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

// Issue 32: the console's webhooks screens, as a browser without JavaScript uses them, and from the
// attacker's side: signed out, a plain user, a role without webhook actions, a form without its token or
// from another origin, a delivery of another endpoint, HTML in stored values.

const ROLES = { support: { user: ["list"] }, watcher: { webhook: ["list"] } };
const CONFIGURED = { id: "app", url: "https://192.0.32.10/app", events: ["*"], secret: `whsec_${"D".repeat(43)}=` };

describeEachDialect("the console's webhooks screens", (dialect) => {
  let t: TestContext;
  let receiver: Receiver;
  let answer: Answer = "fail";
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      config: {
        admin: { roles: ROLES },
        webhooks: { allowedPrivateDestinations: ["127.0.0.1"], timeoutMs: 2000, endpoints: [CONFIGURED] },
      },
    });
    await syncConfiguredEndpoints(t.ctx);
    // The config file's endpoint stays disabled: nothing is ever sent to its (public) address.
    await t.ctx.db.updateTable("webhookEndpoint").set({ disabled: true }).execute();
    receiver = await startReceiver(() => answer);
  });
  afterEach(async () => {
    answer = "fail";
    // Each case starts with the config file's endpoint only (it is disabled: nothing goes to its address).
    await t.ctx.db.deleteFrom("webhookEndpoint").where("origin", "!=", "config").execute();
    while ((await fanOutEvents(t.ctx)) > 0) {}
    t.clock.advance(1000);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  /** Add an endpoint through the console's form; answers the page (with the secret) and the endpoint's id. */
  async function add(agent: Agent, url: string, events = ["*"]) {
    const fields: Record<string, string> = { csrf: await formTokenOf(agent, "/console/webhooks"), url };
    for (const type of events) fields[`event:${type}`] = "on";
    const page = await postForm(agent, "/console/webhooks/create", fields);
    const row = await t.ctx.db.selectFrom("webhookEndpoint").selectAll().where("url", "=", url).executeTakeFirst();
    return { page, row };
  }

  async function deliverNow() {
    while ((await fanOutEvents(t.ctx)) > 0) {}
    for (const started of await startDueDeliveries(t.ctx, "test-worker")) await started.done;
  }

  it("adds an endpoint and shows its secret once, on that answer only; the list never shows it again", async () => {
    const admin = await consoleUser(t);
    const { page, row } = await add(admin.agent, receiver.url, ["sign_up", "user_banned"]);
    expect(page.status).toBe(200);
    if (!row) throw new Error("not added");
    expect(page.text).toContain(row.secret);
    expect(page.text).toContain("Copy it now");
    expect(JSON.parse(row.events)).toEqual(["sign_up", "user_banned"]);
    const list = await browse(admin.agent, "/console/webhooks");
    expect(list.status).toBe(200);
    expect(list.text).toContain(receiver.url);
    expect(list.text).not.toContain(row.secret);
    expect(list.text).not.toContain(CONFIGURED.secret);
    const [event] = (await eventsOfType(t.ctx, "webhook_endpoint_changed")).filter((e) => e.data.includes(row.id));
    expect(event).toMatchObject({ actorType: "admin", actorId: admin.id });
  });

  it("refuses a private URL with the reason, keeping what was typed, and adds nothing", async () => {
    const admin = await consoleUser(t);
    const { page, row } = await add(admin.agent, "http://169.254.169.254/latest", ["sign_in"]);
    expect(page.status).toBe(400);
    expect(page.text).toContain("This URL is refused");
    expect(page.text).toContain('value="http://169.254.169.254/latest"');
    expect(page.text).toMatch(/name="event:sign_in" checked=""/);
    expect(row).toBeUndefined();
    const none = await add(admin.agent, receiver.url, []);
    expect(none.page.text).toContain("Choose at least one event.");
  });

  it("logs a failed delivery, resends it from the endpoint's screen, and the log shows both", async () => {
    const admin = await consoleUser(t);
    const { row } = await add(admin.agent, receiver.url, ["sign_up"]);
    if (!row) throw new Error("not added");
    await signUp(t);
    await deliverNow();
    const path = `/console/webhooks/${row.id}`;
    const failed = await browse(admin.agent, `${path}?failed=1`);
    expect(failed.text).toContain("HTTP 500");
    const deliveryId = /name="deliveryId" value="([^"]+)"/.exec(failed.text)?.[1];
    if (!deliveryId) throw new Error("no resend form");

    answer = "ok";
    t.clock.advance(1);
    const csrf = await formTokenOf(admin.agent, path);
    const resent = await postForm(admin.agent, `${path}/resend`, { csrf, deliveryId });
    expect(resent.status).toBe(303);
    expect(resent.headers.get("location")).toBe(`${path}?notice=console.webhooks.notice.resent`);
    const log = await browse(admin.agent, resent.headers.get("location") ?? "");
    expect(log.text).toContain("Sent again and delivered.");
    expect(log.text).toContain("HTTP 204");
    expect(log.text.indexOf("HTTP 204")).toBeLessThan(log.text.indexOf("HTTP 500"));
  });

  it("edits, disables, enables, tests, rotates and removes an endpoint through its forms", async () => {
    const admin = await consoleUser(t);
    const { row } = await add(admin.agent, receiver.url);
    if (!row) throw new Error("not added");
    const path = `/console/webhooks/${row.id}`;
    const post = async (action: string, fields: Record<string, string> = {}) =>
      postForm(admin.agent, `${path}/${action}`, { csrf: await formTokenOf(admin.agent, path), ...fields });

    const edited = await post("update", { url: `${receiver.url}/v2`, "event:sign_in": "on" });
    expect(edited.headers.get("location")).toBe(`${path}?notice=console.webhooks.notice.updated`);
    const disabled = await post("disable");
    expect(disabled.headers.get("location")).toBe("/console/webhooks?notice=console.webhooks.notice.disabled");
    const after = await t.ctx.db
      .selectFrom("webhookEndpoint")
      .selectAll()
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ url: `${receiver.url}/v2`, events: '["sign_in"]' });
    expect(Boolean(after.disabled)).toBe(true);
    await post("enable");

    answer = "ok";
    const tested = await post("test");
    expect(tested.headers.get("location")).toBe(`${path}?notice=console.webhooks.notice.testDelivered`);

    const rotated = await post("rotate-secret", { grace: "1h" });
    expect(rotated.status).toBe(200);
    const now = await t.ctx.db
      .selectFrom("webhookEndpoint")
      .selectAll()
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(now.secret).not.toBe(row.secret);
    expect(rotated.text).toContain(now.secret);
    expect(now.previousSecret).toBe(row.secret);

    const unconfirmed = await post("remove");
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.text).toContain("Tick the box to confirm.");
    const removed = await post("remove", { confirm: "on" });
    expect(removed.headers.get("location")).toBe("/console/webhooks?notice=console.webhooks.notice.removed");
    const changes = (await eventsOfType(t.ctx, "webhook_endpoint_changed"))
      .filter((e) => e.data.includes(row.id))
      .map((e) => JSON.parse(e.data).change);
    expect(changes.sort()).toEqual(["created", "disabled", "enabled", "removed", "secret_rotated", "updated"]);
  });

  it("keeps the config file's endpoint read-only: no edit form, and its changes refused", async () => {
    const admin = await consoleUser(t);
    const path = "/console/webhooks/config_app";
    const page = await browse(admin.agent, path);
    expect(page.text).toContain("This endpoint is kept in the config file");
    expect(page.text).not.toContain(`action="${path}/update"`);
    const csrf = await formTokenOf(admin.agent, path);
    const refused = await postForm(admin.agent, `${path}/rotate-secret`, { csrf });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("This endpoint is kept in the config file: change it there.");
    const stored = await t.ctx.db
      .selectFrom("webhookEndpoint")
      .select("secret")
      .where("id", "=", "config_app")
      .executeTakeFirstOrThrow();
    expect(stored.secret).toBe(CONFIGURED.secret);
  });

  it("refuses the signed-out, a plain user, a support role, a watcher's changes, forged forms and other origins", async () => {
    const admin = await consoleUser(t);
    const { row } = await add(admin.agent, receiver.url);
    if (!row) throw new Error("not added");
    const path = `/console/webhooks/${row.id}`;
    const received = receiver.received.length;
    const signedOut = await browse(t.agent(), path);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toContain("/account/sign-in?redirect=");
    const plain = await signUp(t);
    expect((await browse(plain.agent, "/console/webhooks")).status).toBe(403);
    const support = await consoleUser(t, "support");
    expect((await browse(support.agent, "/console/webhooks")).status).toBe(403);
    expect((await browse(support.agent, path)).status).toBe(403);

    // A watcher reads the screens, without a form to change anything, and is refused when it posts one.
    const watcher = await consoleUser(t, "watcher");
    const seen = await browse(watcher.agent, path);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain(`${path}/update`);
    expect(seen.text).not.toContain(`${path}/resend`);
    const csrf = await formTokenOf(watcher.agent, path);
    for (const action of ["disable", "rotate-secret", "test", "remove", "resend"])
      expect((await postForm(watcher.agent, `${path}/${action}`, { csrf, confirm: "on" })).status, action).toBe(403);
    const create = await postForm(watcher.agent, "/console/webhooks/create", {
      csrf,
      url: receiver.url,
      "event:*": "on",
    });
    expect(create.status).toBe(403);

    // The admin's own forms, without their token or from another site, change nothing.
    const token = await formTokenOf(admin.agent, path);
    expect((await postForm(admin.agent, `${path}/disable`, {})).status).toBe(403);
    expect((await postForm(admin.agent, `${path}/disable`, { csrf: "forged" })).status).toBe(403);
    expect((await postForm(watcher.agent, `${path}/disable`, { csrf: token })).status).toBe(403);
    const foreign = await postForm(admin.agent, `${path}/disable`, { csrf: token }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const still = await t.ctx.db
      .selectFrom("webhookEndpoint")
      .selectAll()
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(still.disabled)).toBe(false);
    expect(still.secret).toBe(row.secret);
    expect(receiver.received).toHaveLength(received);
  });

  it("resends only a delivery of the endpoint in the URL, and answers an unknown endpoint 404", async () => {
    const admin = await consoleUser(t);
    const first = (await add(admin.agent, receiver.url)).row;
    const second = (await add(admin.agent, `${receiver.url}/second`)).row;
    if (!first || !second) throw new Error("not added");
    const received = receiver.received.length;
    await postForm(admin.agent, `/console/webhooks/${first.id}/test`, {
      csrf: await formTokenOf(admin.agent, "/console/webhooks"),
    });
    const [entry] = await t.ctx.db
      .selectFrom("webhookAttempt")
      .select("id")
      .where("endpointId", "=", first.id)
      .execute();
    const path = `/console/webhooks/${second.id}`;
    const csrf = await formTokenOf(admin.agent, path);
    const crossed = await postForm(admin.agent, `${path}/resend`, { csrf, deliveryId: entry.id });
    expect(crossed.status).toBe(404);
    expect(crossed.text).toContain("This request is not in the endpoint");
    expect(receiver.received).toHaveLength(received + 1);
    expect((await browse(admin.agent, "/console/webhooks/wh_missing")).status).toBe(404);
  });

  it("draws stored values as text: a URL and an error carrying markup", async () => {
    const admin = await consoleUser(t);
    const url = `${receiver.url}?q=<script>alert(1)</script>`;
    const { row } = await add(admin.agent, url);
    if (!row) throw new Error("not added");
    await t.ctx.db
      .insertInto("webhookAttempt")
      .values({
        id: "whd_markup",
        endpointId: row.id,
        deliveryId: null,
        eventId: null,
        eventType: "<b>type</b>",
        trigger: "test",
        requestBytes: 1,
        attemptedAt: t.clock.now,
        durationMs: 1,
        ok: false,
        responseStatus: null,
        error: '<img src=x onerror="alert(1)">',
      })
      .execute();
    for (const path of ["/console/webhooks", `/console/webhooks/${row.id}`]) {
      const page = await browse(admin.agent, path);
      expect(page.text).not.toContain("<script>alert(1)");
      expect(page.text).not.toContain("<img src=x");
      expect(page.text).not.toContain("<b>type</b>");
    }
    const detail = await browse(admin.agent, `/console/webhooks/${row.id}`);
    expect(detail.text).toContain("&lt;img src=x");
  });
});
