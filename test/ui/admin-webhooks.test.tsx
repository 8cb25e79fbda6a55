import { render } from "ink-testing-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fanOutEvents, startDueDeliveries } from "../../src/services/webhooks/delivery.ts";
import { addWebhookEndpoint } from "../../src/services/webhooks/webhooks.ts";
import { createAdminData } from "../../ui/data.ts";
import { AdminApp } from "../../ui/terminal/screens/AdminApp.tsx";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { type Answer, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";
import { KEYS, waitForFrame } from "./keys.ts";

// The terminal UI's webhooks screen (issue 32: the delivery log and resend serve the terminal UI too): the
// endpoints with their deliveries, an endpoint's log newest first with its failed requests, a resend asked
// first whose answer is shown and logged, a question answered no changing nothing, a test event, pausing.

type Ui = ReturnType<typeof render>;

const SHIFT_TAB = "\u001B[Z";
const settled = (text: string) => (frame: string) => frame.includes(text) && !frame.includes("loading");

describeEachDialect("authd admin: webhooks screen", (dialect) => {
  let t: TestContext;
  let receiver: Receiver;
  let answer: Answer = "fail";
  let app: Ui | undefined;
  let endpointId = "";
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      config: { webhooks: { allowedPrivateDestinations: ["127.0.0.1"], timeoutMs: 2000 } },
    });
    receiver = await startReceiver(() => answer);
  });
  afterEach(async () => {
    app?.unmount();
    app = undefined;
    answer = "fail";
    await t.ctx.db.deleteFrom("webhookEndpoint").execute();
    while ((await fanOutEvents(t.ctx)) > 0) {}
    t.clock.advance(1000);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  /** An endpoint for sign_up whose one delivery so far the receiver refused (500). */
  async function endpointWithFailedDelivery() {
    endpointId = (await addWebhookEndpoint(t.ctx, { url: receiver.url, events: ["sign_up"] })).id;
    await signUp(t);
    while ((await fanOutEvents(t.ctx)) > 0) {}
    for (const started of await startDueDeliveries(t.ctx, "test-worker")) await started.done;
    const log = await createAdminData(t.ctx).listWebhookDeliveries(endpointId, { limit: 10, offset: 0 });
    expect(log.items.map((entry) => [entry.trigger, entry.status])).toEqual([["delivery", 500]]);
  }
  /** The endpoint's id as far as a 100-column table shows it. */
  const shortId = () => endpointId.slice(0, 20);
  const logOf = async () =>
    (await createAdminData(t.ctx).listWebhookDeliveries(endpointId, { limit: 50, offset: 0 })).items;

  /** The app, on the webhooks screen: shift-tab from the first screen wraps to the last one offered. */
  const openWebhooks = async () => {
    app = render(<AdminApp data={createAdminData(t.ctx)} />);
    const ui = app;
    await waitForFrame(ui, "user(s)");
    ui.stdin.write(SHIFT_TAB);
    await waitForFrame(ui, settled("endpoint(s)"));
    return ui;
  };
  /** The app, on the endpoint's delivery log. */
  const openLog = async () => {
    const ui = await openWebhooks();
    await waitForFrame(ui, shortId());
    ui.stdin.write(KEYS.enter);
    await waitForFrame(ui, settled("request(s)"));
    return ui;
  };

  it("lists an endpoint with its url, events, origin, state and delivery counts", async () => {
    await endpointWithFailedDelivery();
    const ui = await openWebhooks();
    const frame = await waitForFrame(ui, settled("1 endpoint(s)"));
    expect(frame.split("\n")[0]).toMatch(/ api keys +webhooks$/);
    const row = frame.split("\n").find((line) => line.includes(shortId())) ?? "";
    // Not from the config file, enabled, one delivery waiting for its retry.
    expect(row).toMatch(/http:\/\/127\.0\.0\.1:\S+ +sign_up +no +yes +1 +0 +0/);
    expect(frame).toContain("enter delivery log");
  });

  it("shows a failed delivery in the log, newest first, and f keeps the failed requests only", async () => {
    await endpointWithFailedDelivery();
    answer = "ok";
    t.clock.advance(1000);
    await createAdminData(t.ctx).testWebhookEndpoint(endpointId);
    const ui = await openLog();
    const frame = await waitForFrame(ui, settled("2 request(s)"));
    const lines = frame.split("\n");
    const test = lines.findIndex((line) => /webhook\.test +204 +\d+ ms +test/.test(line));
    const failed = lines.findIndex((line) => /sign_up +500 +\d+ ms +delivery/.test(line));
    expect(test).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(test);
    ui.stdin.write("f");
    const only = await waitForFrame(ui, settled("1 failed request(s)"));
    expect(only).toMatch(/sign_up +500/);
    expect(only).not.toContain("webhook.test");
  });

  it("resends the selected delivery after a yes: the answer is shown and a successful attempt logged", async () => {
    await endpointWithFailedDelivery();
    const ui = await openLog();
    answer = "ok";
    t.clock.advance(1000);
    ui.stdin.write("r");
    await waitForFrame(ui, (f) => /Resend the sign_up request of [\d-]+ [\d:]+ \(500\) now\? \[y\/N\]/.test(f));
    ui.stdin.write("y");
    const after = await waitForFrame(ui, (f) => f.includes("✓ resent: 204 in") && settled("2 request(s)")(f));
    expect(after).toMatch(/sign_up +204 +\d+ ms +resend/);
    const [resent, first] = await logOf();
    expect(resent).toMatchObject({ trigger: "resend", ok: true, status: 204, eventType: "sign_up" });
    expect(first).toMatchObject({ trigger: "delivery", ok: false, status: 500 });
    // The same event under the same webhook-id, so the receiver can tell it is the one it missed.
    expect(receiver.received.at(-1)?.attempt).toBe(2);
    const endpoint = await createAdminData(t.ctx).describeWebhookEndpoint(endpointId);
    expect(endpoint?.deliveries).toEqual({ pending: 0, delivered: 1, failed: 0 });
  });

  it("shows a resend the receiver refuses again in red, and logs it", async () => {
    await endpointWithFailedDelivery();
    const ui = await openLog();
    t.clock.advance(1000);
    ui.stdin.write("r");
    await waitForFrame(ui, "[y/N]");
    ui.stdin.write("y");
    await waitForFrame(ui, "✗ resent: 500 in");
    expect((await logOf()).map((entry) => [entry.trigger, entry.ok])).toEqual([
      ["resend", false],
      ["delivery", false],
    ]);
  });

  it("changes nothing when a question is answered no: no request sent, the endpoint stays enabled", async () => {
    await endpointWithFailedDelivery();
    const ui = await openLog();
    const sent = receiver.received.length;
    ui.stdin.write("r");
    await waitForFrame(ui, "[y/N]");
    ui.stdin.write("n");
    await waitForFrame(ui, (f) => !f.includes("[y/N]"));
    ui.stdin.write("x");
    await waitForFrame(ui, `Disable webhook endpoint ${endpointId}`);
    ui.stdin.write(KEYS.escape);
    const frame = await waitForFrame(ui, (f) => !f.includes("[y/N]"));
    expect(frame).toContain("1 request(s)");
    expect(receiver.received.length).toBe(sent);
    expect(await logOf()).toHaveLength(1);
    expect((await createAdminData(t.ctx).describeWebhookEndpoint(endpointId))?.disabled).toBe(false);
    expect(await eventsOfType(t.ctx, "webhook_endpoint_changed")).not.toContainEqual(
      expect.objectContaining({ data: expect.stringContaining('"disabled"') }),
    );
  });

  it("disables and enables an endpoint after a yes, and sends a test event with t", async () => {
    await endpointWithFailedDelivery();
    const ui = await openWebhooks();
    await waitForFrame(ui, shortId());
    ui.stdin.write("x");
    await waitForFrame(ui, `Disable webhook endpoint ${endpointId} (${receiver.url})?`);
    ui.stdin.write("y");
    await waitForFrame(ui, (f) => f.includes(`webhook endpoint ${endpointId} disabled`) && / no +no +1 /.test(f));
    expect((await createAdminData(t.ctx).describeWebhookEndpoint(endpointId))?.disabled).toBe(true);
    ui.stdin.write("x");
    await waitForFrame(ui, `Enable webhook endpoint ${endpointId}`);
    ui.stdin.write("y");
    await waitForFrame(ui, `webhook endpoint ${endpointId} enabled`);
    expect((await createAdminData(t.ctx).describeWebhookEndpoint(endpointId))?.disabled).toBe(false);
    answer = "ok";
    t.clock.advance(1000);
    ui.stdin.write("t");
    await waitForFrame(ui, `✓ test event sent to ${endpointId}: 204 in`);
    expect((await logOf())[0]).toMatchObject({ trigger: "test", ok: true, eventType: "webhook.test" });
  });
});

describe("authd admin with webhooks off", () => {
  it("offers no webhooks screen", async () => {
    const t = await createTestContext({ env: { AUTH_WEBHOOKS: "off" } });
    const ui = render(<AdminApp data={createAdminData(t.ctx)} />);
    try {
      const first = await waitForFrame(ui, "user(s)");
      expect(first.split("\n")[0]).not.toContain("webhooks");
      ui.stdin.write(SHIFT_TAB);
      const last = await waitForFrame(ui, "API key(s)");
      expect(last.split("\n")[0]).toMatch(/ api keys$/);
    } finally {
      ui.unmount();
      await t.close();
    }
  });
});
