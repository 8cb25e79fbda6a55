import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { followAuditLog, listAuditLog } from "../../src/services/audit-log.ts";
import type { AuditEventWire } from "../../src/wire/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";
import { runCli } from "./run.ts";

// authd audit and authd webhooks, run as an operator runs them, on the database a test context holds.

describeEachDialect("authd audit and authd webhooks", (dialect) => {
  let t: TestContext;
  let env: Record<string, string>;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL, AUTH_WEBHOOK_ALLOWED_PRIVATE: "127.0.0.1" };
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it("audit --json lists events newest first, filtered by type and user", async () => {
    const alice = await signUp(t);
    await t.agent().post("/sign-in/email", { email: alice.email, password: "not-her-password" });
    const result = await runCli(["audit", "--json", "--user", alice.email], { env });
    expect(result.code, result.stderr).toBe(0);
    const page = result.json<{ events: AuditEventWire[]; total: number }>();
    expect(page.total).toBe(2);
    expect(page.events.map((e) => e.type).sort()).toEqual(["sign_in", "sign_up"]);
    const failures = await runCli(["audit", "--json", "--type", "sign_in", "--outcome", "failure"], { env });
    expect(failures.json<{ events: AuditEventWire[] }>().events.every((e) => e.outcome === "failure")).toBe(true);
    const bad = await runCli(["audit", "--since", "yesterday-ish"], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--since");
  });

  it("audit prints each subject's email beside its id, and only the id once the user is gone", async () => {
    const carol = await signUp(t, { email: "carol.audit@example.com" });
    const gone = await signUp(t, { email: "gone.audit@example.com" });
    await t.ctx.db.deleteFrom("user").where("id", "=", gone.user.id).execute();
    const result = await runCli(["audit", "--type", "sign_up"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${carol.user.id} <carol.audit@example.com>`);
    expect(result.stdout).toContain(gone.user.id);
    expect(result.stdout).not.toContain("gone.audit@example.com");
    // --json stays the wire object: the email is not part of the event.
    const json = await runCli(["audit", "--json", "--user", carol.user.id], { env });
    expect(json.stdout).not.toContain("subjectEmail");
    // The terminal UI's search finds events by the subject's email (literally, ignoring case).
    const found = await listAuditLog(t.ctx, { search: "CAROL.AUDIT@" }, { limit: 10, offset: 0 });
    expect(found.items.map((e) => e.subjectId)).toEqual([carol.user.id]);
    expect((await listAuditLog(t.ctx, { search: "carol%audit" }, { limit: 10, offset: 0 })).items).toEqual([]);
  });

  it("follows the log: each new event once, oldest first", async () => {
    const seen: string[] = [];
    const controller = new AbortController();
    const following = followAuditLog(t.ctx, { types: ["sign_up"] }, (event) => seen.push(event.subjectId ?? ""), {
      intervalMs: 20,
      signal: controller.signal,
    });
    try {
      const first = await signUp(t);
      t.clock.advance(1);
      const second = await signUp(t);
      await vi.waitFor(() => expect(seen).toEqual([first.user.id, second.user.id]), { timeout: 10_000 });
    } finally {
      controller.abort();
      await following;
    }
  });

  it("webhooks add prints the secret once; list shows status without it; test sends a signed message; remove", async () => {
    const added = await runCli(["webhooks", "add", receiver.url, "--events", "sign_up,user_banned", "--json"], { env });
    expect(added.code, added.stderr).toBe(0);
    const endpoint = added.json<{ id: string; secret: string; events: string[] }>();
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint.events).toEqual(["sign_up", "user_banned"]);

    const listed = await runCli(["webhooks", "list", "--json"], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(endpoint.secret);
    expect(listed.json<unknown[]>()).toEqual([
      expect.objectContaining({
        id: endpoint.id,
        url: receiver.url,
        deliveries: { pending: 0, delivered: 0, failed: 0 },
      }),
    ]);

    const tested = await runCli(["webhooks", "test", endpoint.id, "--json"], { env });
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.json()).toMatchObject({ ok: true, status: 204 });
    const [hook] = receiver.received;
    const payload = new Webhook(endpoint.secret).verify(hook.body, {
      "webhook-id": hook.id,
      "webhook-timestamp": hook.timestamp,
      "webhook-signature": hook.signature,
    });
    expect(payload).toMatchObject({ type: "webhook.test", data: { endpointId: endpoint.id } });

    expect((await runCli(["webhooks", "remove", endpoint.id], { env })).code).toBe(0);
    expect((await runCli(["webhooks", "list", "--json"], { env })).json()).toEqual([]);
    expect((await runCli(["webhooks", "remove", endpoint.id], { env })).code).toBe(1);
  });

  it("webhooks test exits 1 with one line when the receiver answers non-2xx or cannot be reached", async () => {
    const failing = await startReceiver(() => "fail");
    const refusing = await startReceiver();
    await refusing.close();
    try {
      const add = async (url: string) =>
        (await runCli(["webhooks", "add", url, "--events", "*", "--json"], { env })).json<{ id: string }>().id;
      const [failingId, refusingId] = [await add(failing.url), await add(refusing.url)];

      const answered500 = await runCli(["webhooks", "test", failingId, "--json"], { env });
      expect(answered500.code).toBe(1);
      expect(answered500.json()).toMatchObject({ ok: false, status: 500, error: "HTTP 500" });
      expect(answered500.stderr).toBe(`authd: webhook test to ${failing.url} failed: HTTP 500\n`);
      expect(failing.received).toHaveLength(1);

      const refused = await runCli(["webhooks", "test", refusingId], { env });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toMatch(new RegExp(`^authd: webhook test to ${refusing.url} failed: \\w+`));

      for (const id of [failingId, refusingId]) await runCli(["webhooks", "remove", id], { env });
    } finally {
      await failing.close();
    }
  });

  it("webhooks add refuses an unknown event type with the known ones (exit 2) and registers nothing", async () => {
    const refused = await runCli(["webhooks", "add", receiver.url, "--events", "sign_up,bogus_type"], { env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    const lines = refused.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^authd: --events: unknown event type bogus_type; known types: sign_up, sign_in, /);
    expect(lines[0]).toContain("user_banned");
    expect(lines[0]).toContain("(or * for all)");
    expect((await runCli(["webhooks", "list", "--json"], { env })).json()).toEqual([]);
    const logOnly = await runCli(["webhooks", "add", receiver.url, "--events", "origin_refused"], { env });
    expect(logOnly.code).toBe(2);
  });

  it("webhooks add refuses a loopback URL unless AUTH_WEBHOOK_ALLOWED_PRIVATE allows it", async () => {
    const refused = await runCli(["webhooks", "add", receiver.url, "--events", "*"], {
      env: { AUTH_DATABASE_URL: t.ctx.config.databaseURL },
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("allowedPrivateDestinations");
    const metadata = await runCli(["webhooks", "add", "http://169.254.169.254/latest", "--events", "*"], { env });
    expect(metadata.code).toBe(1);
  });
});
