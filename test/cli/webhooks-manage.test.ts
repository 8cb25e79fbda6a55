import { afterAll, beforeAll, expect, it } from "vitest";
import type { WebhookAttemptWire, WebhookEndpointWire } from "../../src/wire/webhook.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { type Answer, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";
import { runCli } from "./run.ts";

// authd webhooks update, disable, enable, rotate-secret, deliveries and resend, run as an operator runs them.

describeEachDialect("authd webhooks: changes and the delivery log", (dialect) => {
  let t: TestContext;
  let env: Record<string, string>;
  let receiver: Receiver;
  let answer: Answer = "fail";
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL, AUTH_WEBHOOK_ALLOWED_PRIVATE: "127.0.0.1" };
    receiver = await startReceiver(() => answer);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const cli = (...args: string[]) => runCli(["webhooks", ...args], { env });

  it("updates, pauses and resumes an endpoint, refusing what the rules refuse", async () => {
    const { id } = (await cli("add", receiver.url, "--events", "*", "--json")).json<{ id: string }>();
    const updated = await cli("update", id, "--events", "sign_in,user_banned", "--json");
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.json<WebhookEndpointWire>()).toMatchObject({ id, events: ["sign_in", "user_banned"] });

    const nothing = await cli("update", id);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("name --url or --events");
    const bogus = await cli("update", id, "--events", "bogus");
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/^authd: --events: unknown event type bogus/);
    const inside = await cli("update", id, "--url", "http://10.0.0.1/hooks");
    expect(inside.code).toBe(1);
    expect(inside.stderr).toContain("allowedPrivateDestinations");

    const disabled = await cli("disable", id, "--json");
    expect(disabled.json<WebhookEndpointWire>().disabled).toBe(true);
    const listed = await cli("list");
    expect(listed.stdout).toMatch(new RegExp(`${id}.*disabled`));
    expect((await cli("enable", id)).stdout).toBe(
      `enabled webhook ${id} → ${receiver.url} (sign_in, user_banned), enabled\n`,
    );
    expect((await cli("disable", "wh_missing")).stderr).toBe("authd: Webhook endpoint not found\n");

    const changes = (await eventsOfType(t.ctx, "webhook_endpoint_changed")).filter((e) => e.data.includes(id));
    expect(changes.map((e) => JSON.parse(e.data).change)).toEqual(["created", "updated", "disabled", "enabled"]);
    expect(changes.every((e) => e.actorType === "cli")).toBe(true);
  });

  it("lists an endpoint's deliveries (--failed) and resends one, exiting 1 while it still fails", async () => {
    const { id } = (await cli("add", receiver.url, "--events", "*", "--json")).json<{ id: string }>();
    answer = "fail";
    expect((await cli("test", id)).code).toBe(1);
    const failed = await cli("deliveries", id, "--failed", "--json");
    expect(failed.code, failed.stderr).toBe(0);
    const page = failed.json<{ attempts: WebhookAttemptWire[]; total: number }>();
    expect(page.total).toBe(1);
    expect(page.attempts[0]).toMatchObject({ trigger: "test", ok: false, status: 500, eventType: "webhook.test" });

    const stillFailing = await cli("resend", page.attempts[0].id);
    expect(stillFailing.code).toBe(1);
    expect(stillFailing.stderr).toBe("authd: resend failed: HTTP 500\n");
    answer = "ok";
    const resent = await cli("resend", page.attempts[0].id, "--json");
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.json<WebhookAttemptWire>()).toMatchObject({ ok: true, status: 204, trigger: "resend" });

    const table = await cli("deliveries", id);
    expect(table.stdout).toContain("webhook.test");
    expect(table.stdout.trim().split("\n").at(-1)).toBe("3 of 3");
    expect((await cli("deliveries", id, "--failed", "--json")).json<{ total: number }>().total).toBe(2);

    expect((await cli("resend", "whd_missing")).stderr).toBe("authd: Webhook delivery not found\n");
    expect((await cli("deliveries", "wh_missing")).code).toBe(1);
    await cli("disable", id);
    expect((await cli("resend", page.attempts[0].id)).stderr).toBe("authd: Webhook endpoint disabled\n");
  });

  it("rotates a secret, printing the new one once, with or without a grace for the old one", async () => {
    const added = (await cli("add", receiver.url, "--events", "*", "--json")).json<{ id: string; secret: string }>();
    const rotated = await cli("rotate-secret", added.id, "--grace", "1h", "--json");
    expect(rotated.code, rotated.stderr).toBe(0);
    const body = rotated.json<{ endpoint: WebhookEndpointWire; secret: string }>();
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.secret).not.toBe(added.secret);
    expect(body.endpoint.previousSecretExpiresAt).not.toBeNull();
    expect((await cli("list", "--json")).stdout).not.toContain(body.secret);

    const text = await cli("rotate-secret", added.id, "--grace", "0");
    expect(text.stdout).toMatch(
      /^rotated the secret of webhook \S+\nsecret: whsec_\S+\nthe old secret no longer signs\n/,
    );
    expect((await cli("rotate-secret", added.id, "--grace", "soon")).code).toBe(2);
    expect((await cli("rotate-secret", added.id, "--grace", "31d")).code).toBe(2);
  });
});
