import { afterAll, beforeAll, expect, it } from "vitest";
import type { V1UserInput } from "../../src/services/import/format.ts";
import { type RecordStream, runImport } from "../../src/services/import/run.ts";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { bcryptHash } from "../helpers/foreign-hashes.ts";
import { Browser, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";

// Issue 33: a user imported with a linked provider account signs in through that provider (a real OpenID
// provider, oidc-provider) to the same account: the link the import wrote is what the callback finds, even
// when the address at the provider has changed since. An imported account whose address was never proven is
// claimed by the mailbox's owner at the provider's proof, and what was set up before it (a password) ends.

const CALLBACK = `${TEST_ORIGIN}/api/auth/callback/oidc`;
const at = "2024-01-01T00:00:00.000Z";

const streamOf = (records: V1UserInput[]): RecordStream => ({
  header: { hashConfigs: {} },
  async *records() {
    for (const [index, record] of records.entries()) yield { position: `user ${index + 1}`, record };
  },
});

describeEachDialect("imported social users", (dialect) => {
  let op: TestOpenIdProvider;
  let t: TestContext;
  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: [CALLBACK] });
    t = await createTestContext({
      dialect,
      config: { social: { oidc: { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });

  async function throughProvider(agent: Agent, login: string) {
    const start = await agent.post("/sign-in/social", { provider: "oidc", callbackURL: "/dashboard" });
    const back = await new Browser().authorize(start.body.url, login, `${TEST_ORIGIN}/api/auth/callback/`);
    return agent.get(back.pathname + back.search);
  }

  it("signs an imported user in through their linked provider to the same account", async () => {
    const email = `imported.${dialect}@example.com`;
    const report = await runImport(
      t.ctx,
      streamOf([
        {
          id: `social-${dialect}`,
          email,
          emailVerified: true,
          name: "Imported Social",
          createdAt: at,
          updatedAt: at,
          accounts: [{ provider: "oidc", accountId: `sub-${dialect}` }],
        },
      ]),
      { source: "social-test", commit: true, onConflict: "skip", allowInsecureHashes: false },
    );
    expect(report).toMatchObject({ imported: 1 });
    const users = async () => (await t.ctx.db.selectFrom("user").select("id").execute()).length;
    const before = await users();

    // The provider now knows the person under another address: the link, not the address, decides.
    op.accounts.set(`sub-${dialect}`, { email: `moved.${dialect}@example.com`, email_verified: true, name: "Moved" });
    const agent = t.agent();
    const back = await throughProvider(agent, `sub-${dialect}`);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/dashboard");
    const session = await agent.get("/get-session");
    expect(session.body.user.id).toBe(`social-${dialect}`);
    expect(session.body.user.email).toBe(email);
    expect(await users()).toBe(before);
  });

  it("lets the mailbox's owner claim an imported account whose address was never proven, ending its password", async () => {
    const email = `unproven.${dialect}@example.com`;
    await runImport(
      t.ctx,
      streamOf([
        {
          id: `plain-${dialect}`,
          email,
          emailVerified: false,
          name: "Plain",
          createdAt: at,
          updatedAt: at,
          password: bcryptHash("squatter-password", 4),
        },
      ]),
      { source: "social-test", commit: true, onConflict: "skip", allowInsecureHashes: false },
    );
    const squatter = () => t.agent().post("/sign-in/email", { email, password: "squatter-password" });
    // While the address is unproven the imported password signs in (requireEmailVerification is off).
    const before = (await squatter()).status;
    // The provider proves the address: its owner signs in, and what was set up before the proof is gone.
    op.accounts.set(`owner-${dialect}`, { email, email_verified: true, name: "Owner" });
    const agent = t.agent();
    await throughProvider(agent, `owner-${dialect}`);
    const session = await agent.get("/get-session");
    expect(session.body.user.email).toBe(email);
    expect(session.body.user.emailVerified).toBe(true);
    expect(before).toBe(200);
    expect((await squatter()).status).toBe(401);
  });
});
