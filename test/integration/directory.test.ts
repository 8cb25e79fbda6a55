import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { listApiKeyPage, listOrganizationPage, listSessionPage, listUserPage } from "../../src/services/directory.ts";
import { CLI_SOURCE } from "../../src/services/security-events.ts";
import { describeOrganization } from "../../src/services/user-overview.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { ownerWithOrganization } from "../helpers/organization.ts";

// The directory service: what the CLI and the terminal UI list (issue 16). Both front ends read these
// pages, so their totals, order and wire shapes are checked here once, on both dialects.

const DAY_MS = 86_400_000;

describeEachDialect("operators' directory", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  it("pages through every user's API keys newest first, with the total, without overlap", async () => {
    // Given two users holding five keys made one after another
    const first = await signUp(t);
    const second = await signUp(t);
    const issued: string[] = [];
    for (const [i, owner] of [first, first, second, first, second].entries()) {
      t.clock.advance(1);
      issued.push(
        (await createApiKey(t.ctx, { userId: owner.user.id, name: `key-${i}` }, { isServer: true }, CLI_SOURCE)).id,
      );
    }

    // When an operator reads them two at a time
    const pages = [0, 2, 4].map((offset) => listApiKeyPage(t.ctx, { limit: 2, offset }));
    const [one, two, three] = await Promise.all(pages);

    // Then every page knows the total and together they hold each key once, newest first
    expect([one.total, two.total, three.total]).toEqual([5, 5, 5]);
    expect([...one.items, ...two.items, ...three.items].map((k) => k.id)).toEqual([...issued].reverse());
    const own = await listApiKeyPage(t.ctx, { userId: second.user.id, limit: 1, offset: 0 });
    expect(own.total).toBe(2);
    expect(own.items.map((k) => [k.id, k.userEmail, k.ownerBanned])).toEqual([[issued[4], second.email, false]]);
    expect(JSON.stringify([one, two, three])).not.toMatch(/"key":/);
  });

  it("shows an organization as the API does, even when its stored metadata is not an object", async () => {
    // Given an organization whose metadata column holds text that is not a JSON object
    const { agent, organization } = await ownerWithOrganization(t, "Metadata Mess");
    for (const stored of ["not json", "[1,2]"]) {
      await t.ctx.db.updateTable("organization").set({ metadata: stored }).where("id", "=", organization.id).execute();

      // When the API, the listing and the overview show it
      const api = await agent.get("/organization/get-full-organization", {
        query: { organizationId: organization.id },
      });
      const listed = await listOrganizationPage(t.ctx, { search: "metadata mess", limit: 10, offset: 0 });
      const overview = await describeOrganization(t.ctx, organization.slug);

      // Then all three answer the same organization, metadata null
      const { members: _members, invitations: _invitations, teams: _teams, ...fields } = api.body;
      expect(fields.metadata).toBeNull();
      expect(listed).toEqual({ items: [{ ...fields, memberCount: 1 }], total: 1 });
      expect(overview?.organization).toEqual(fields);
    }
  });

  it("lists sessions without their token or handle, expired ones only when asked", async () => {
    // Given a user with a session that has expired and one that has not
    const { email, user } = await signUp(t, { email: "sessions.directory@example.com" });
    t.clock.advance(8 * DAY_MS);
    const { token } = await signUp(t, { email: "other.directory@example.com" });
    const again = await t.agent().post("/sign-in/email", { email, password: "correct-horse-battery" });
    expect(again.status).toBe(200);

    // When an operator lists that user's sessions
    const active = await listSessionPage(t.ctx, { userId: user.id, limit: 10, offset: 0 });
    const all = await listSessionPage(t.ctx, { userId: user.id, includeExpired: true, limit: 10, offset: 0 });

    // Then the active listing leaves the expired one out, and neither shows a token or handle
    expect(active.total).toBe(1);
    expect(all.total).toBe(2);
    expect(all.items.map((s) => s.userEmail)).toEqual([email, email]);
    for (const session of all.items) expect(session).not.toHaveProperty("token");
    const stored = await t.ctx.db.selectFrom("session").select("tokenHash").where("userId", "=", user.id).execute();
    const text = JSON.stringify([active, all]);
    for (const { tokenHash } of stored) expect(text).not.toContain(tokenHash);
    expect(text).not.toContain(token as string);
  });

  it("finds users by email, name or username, whatever the case, with the total of all matches", async () => {
    await signUp(t, { email: "needle.one@example.com", name: "First" });
    await signUp(t, { email: "plain@example.com", name: "Second NEEDLE" });
    const found = await listUserPage(t.ctx, { search: "NeEdLe", limit: 1, offset: 0 });
    expect(found.total).toBe(2);
    expect(found.items).toHaveLength(1);
    expect((await listUserPage(t.ctx, { search: "needle", limit: 5, offset: 1 })).items).toHaveLength(1);
  });
});
