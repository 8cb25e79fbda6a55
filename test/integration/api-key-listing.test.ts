import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey, updateApiKey } from "../../src/services/api-keys/api-keys.ts";
import { CLI_SOURCE, type EventSource } from "../../src/services/security-events.ts";
import { type AdminData, createAdminData } from "../../ui/data.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// Issue 32: API keys across users as the web console lists them: a text found in the key's name, prefix or
// first characters or in its owner's email, keys switched on or off, expired or not; revoking one names the
// operator who did it. Never the key itself.

const DAY_SECONDS = 86_400;

describeEachDialect("API keys across users", (dialect) => {
  let t: TestContext;
  let data: AdminData;
  let source: EventSource;
  const ids: Record<string, string> = {};
  let owners: { first: string; second: string };

  beforeAll(async () => {
    t = await createTestContext({ dialect });
    const admin = await signUp(t);
    source = { actorType: "admin", actorId: admin.user.id, ip: "198.51.100.4", userAgent: "console test" };
    data = createAdminData(t.ctx, source);
    const first = await signUp(t, { email: `billing.${dialect}@example.com` });
    const second = await signUp(t, { email: `ops_team.${dialect}@example.com` });
    owners = { first: first.user.id, second: second.user.id };
    const issue = async (label: string, userId: string, fields: { prefix?: string; expiresIn?: number } = {}) => {
      t.clock.advance(1);
      ids[label] = (await createApiKey(t.ctx, { userId, name: label, ...fields }, { isServer: true }, CLI_SOURCE)).id;
    };
    await issue("deploy bot", first.user.id, { prefix: "dpl_" });
    await issue("reporting", first.user.id, { expiresIn: DAY_SECONDS });
    await issue("backup", second.user.id);
    await issue("old 100% sync", second.user.id, { expiresIn: DAY_SECONDS });
    await issue("fresh", second.user.id, { expiresIn: DAY_SECONDS });
    await updateApiKey(t.ctx, second.user.id, ids.backup, { enabled: false }, { isServer: true });
    await t.ctx.settle();
    // Two keys expired a moment ago: listed until the next sweep of expired keys deletes them.
    await t.ctx.db
      .updateTable("apikey")
      .set({ expiresAt: t.clock.now - 1 })
      .where("id", "in", [ids.reporting, ids["old 100% sync"]])
      .execute();
  });
  afterAll(() => t.close());

  const names = async (request: Partial<Parameters<AdminData["listApiKeys"]>[0]>) => {
    const page = await data.listApiKeys({ limit: 50, offset: 0, ...request });
    expect(page.total).toBe(page.items.length);
    return page.items.map((key) => key.name);
  };

  it("finds keys by name, prefix, first characters or owner email, ignoring case and wildcards", async () => {
    expect(await names({ search: "DEPLOY" })).toEqual(["deploy bot"]);
    expect(await names({ search: "dpl_" })).toEqual(["deploy bot"]);
    const [fresh] = (await data.listApiKeys({ limit: 50, offset: 0, search: "fresh" })).items;
    expect(await names({ search: fresh.start ?? "" })).toContain("fresh");
    expect(await names({ search: `billing.${dialect}@` })).toEqual(["reporting", "deploy bot"]);
    expect(await names({ search: "%" })).toEqual(["old 100% sync"]);
    expect(await names({ search: "_" })).toEqual(["fresh", "old 100% sync", "backup", "deploy bot"]);
    expect(await names({ search: "OPS_TEAM" })).toEqual(["fresh", "old 100% sync", "backup"]);
    expect(await names({ search: "nothing like it" })).toEqual([]);
  });

  it("filters keys switched on or off, and expired or not, with the search and one owner", async () => {
    expect(await names({ enabled: false })).toEqual(["backup"]);
    expect(await names({ expired: true })).toEqual(["old 100% sync", "reporting"]);
    expect(await names({ expired: false, enabled: true })).toEqual(["fresh", "deploy bot"]);
    expect(await names({ expired: true, search: "billing" })).toEqual(["reporting"]);
    expect(await names({ userId: owners.second, enabled: true })).toEqual(["fresh", "old 100% sync"]);
    const page = await data.listApiKeys({ limit: 1, offset: 1, expired: false });
    expect(page).toMatchObject({ total: 3 });
    expect(page.items.map((key) => key.name)).toEqual(["backup"]);
    expect(JSON.stringify(await data.listApiKeys({ limit: 50, offset: 0 }))).not.toMatch(/"key":/);
  });

  it("revokes a key as the operator and records it; a second revoke finds nothing", async () => {
    await data.revokeApiKey(ids["old 100% sync"]);
    expect(await names({ search: "old 100% sync" })).toEqual([]);
    const [event] = (await eventsOfType(t.ctx, "api_key_deleted")).filter((e) => e.data.includes(ids["old 100% sync"]));
    expect(event).toMatchObject({ actorType: "admin", actorId: source.actorId, subjectId: owners.second });
    await expect(data.revokeApiKey(ids["old 100% sync"])).rejects.toMatchObject({ key: "KEY_NOT_FOUND" });
  });
});
