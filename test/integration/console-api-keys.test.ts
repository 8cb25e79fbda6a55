import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import type { Agent } from "../helpers/agent.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { consoleUser } from "../helpers/console.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, postForm } from "../helpers/pages.ts";

// Issue 32: the console's API keys (/console/api-keys): every user's keys, searched and filtered, revoked by
// an admin holding apiKey:revoke after ticking the box, back on the same page of the same search. Never the
// key itself. The attacker's side: signed out, a plain user, a role that lists but may not revoke, forms
// without the token or from another origin, HTML in a key's name.

const ROLES = { keyreader: { apiKey: ["list"] } };

describeEachDialect("the console's API keys", (dialect) => {
  let t: TestContext;
  let admin: Agent;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { admin: { roles: ROLES } } });
    ({ agent: admin, id: adminId } = await consoleUser(t));
  });
  afterAll(() => t.close());

  async function keyOf(name: string, email?: string) {
    const owner = await signUp(t, email ? { email } : {});
    const created = await createApiKey(t.ctx, { userId: owner.user.id, name }, { isServer: true }, CLI_SOURCE);
    return { owner, id: created.id, key: created.key };
  }
  const exists = async (id: string) =>
    (await t.ctx.db.selectFrom("apikey").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
  const revoke = async (agent: Agent, fields: Record<string, string>) =>
    postForm(agent, "/console/api-keys/revoke", { csrf: await formTokenOf(agent, "/console/api-keys"), ...fields });

  it("lists every user's keys by name or owner, never the key, every name as text", async () => {
    const hostile = await keyOf('<script>alert("k")</script>', `keys.${dialect}@example.com`);
    const page = await browse(admin, `/console/api-keys?search=keys.${dialect}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("&lt;script&gt;alert(&quot;k&quot;)&lt;/script&gt;");
    expect(page.text).not.toContain('<script>alert("k")');
    expect(page.text).toContain(`keys.${dialect}@example.com`);
    expect(page.text).not.toContain(hostile.key);
    expect(page.text).toContain("1–1 of 1");
    const disabled = await browse(admin, `/console/api-keys?search=keys.${dialect}&enabled=no`);
    expect(disabled.text).toContain("Nothing found");
    const hostileFilter = await browse(admin, "/console/api-keys?enabled=%27;drop&expired=maybe&offset=-1");
    expect(hostileFilter.status).toBe(200);
  });

  it("revokes a key only with the box ticked, back on the same search; the event names the admin", async () => {
    const { id, owner } = await keyOf("deploy", `revoke.${dialect}@example.com`);
    const listing = { search: `revoke.${dialect}`, enabled: "yes", expired: "", offset: "0" };
    const unticked = await revoke(admin, { keyId: id, ...listing });
    expect(unticked.status).toBe(400);
    expect(unticked.text).toContain("Tick the box to confirm");
    expect(unticked.text).toContain(`revoke.${dialect}@example.com`); // the same listing, drawn again
    expect(await exists(id)).toBe(true);
    const revoked = await revoke(admin, { keyId: id, confirm: "yes", ...listing });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(
      `/console/api-keys?search=revoke.${dialect}&enabled=yes&notice=console.apiKeys.notice.revoked`,
    );
    expect(await exists(id)).toBe(false);
    const [event] = (await eventsOfType(t.ctx, "api_key_deleted")).filter((row) => row.data.includes(id));
    expect(event).toMatchObject({ actorType: "admin", actorId: adminId, subjectId: owner.user.id });
    const again = await revoke(admin, { keyId: id, confirm: "yes" });
    expect(again.status).toBe(400);
    expect(again.text).toContain("This key no longer exists.");
  });

  it("refuses the signed out, plain users, and a role that lists but may not revoke", async () => {
    const { id } = await keyOf("kept");
    expect((await browse(t.agent(), "/console/api-keys")).status).toBe(302);
    const plain = await signUp(t);
    expect((await browse(plain.agent, "/console/api-keys")).status).toBe(403);
    const reader = (await consoleUser(t, "keyreader")).agent;
    const listed = await browse(reader, "/console/api-keys");
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain("/console/api-keys/revoke");
    expect((await revoke(reader, { keyId: id, confirm: "yes" })).status).toBe(403);
    const stranger = await signUp(t);
    const foreignToken = await formTokenOf(stranger.agent, "/account");
    const forged = [
      await postForm(admin, "/console/api-keys/revoke", { keyId: id, confirm: "yes" }),
      await postForm(admin, "/console/api-keys/revoke", { keyId: id, confirm: "yes", csrf: foreignToken }),
      await postForm(
        admin,
        "/console/api-keys/revoke",
        { keyId: id, confirm: "yes", csrf: await formTokenOf(admin, "/console/api-keys") },
        { origin: "https://evil.example" },
      ),
    ];
    for (const attempt of forged) expect(attempt.status).toBe(403);
    expect(await exists(id)).toBe(true);
  });
});

describe("the console's API keys, with API keys off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { apiKey: { enabled: false } } });
  });
  afterAll(() => t.close());

  it("are not there, nor in the navigation", async () => {
    const admin = await consoleUser(t);
    expect((await browse(admin.agent, "/console/api-keys")).status).toBe(404);
    expect((await browse(admin.agent, "/console/users")).text).not.toContain('href="/console/api-keys"');
  });
});
