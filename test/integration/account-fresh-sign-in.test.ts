import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// account.freshAge on the JSON API: changing the email or the password needs a sign-in at most 10 minutes
// old. A session signed in longer ago is refused (403 SESSION_NOT_FRESH, on the wire SESSION_IS_NOT_FRESH) and changes nothing until the
// user signs in again; a server call is the app's backend, not a browser, and is exempt.

const ELEVEN_MINUTES = 11 * 60 * 1000;

describeEachDialect("fresh sign-in for the email and the password on the API", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  const emailOf = async (userId: string) =>
    (await t.ctx.db.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirstOrThrow()).email;

  it("refuses a stale session's email and password changes, then takes them after a new sign-in", async () => {
    const { agent, email, password, user } = await signUp(t);
    t.clock.advance(ELEVEN_MINUTES);

    const email403 = await agent.post("/change-email", { newEmail: `moved.${user.id}@example.com` });
    expect([email403.status, email403.body.code]).toEqual([403, "SESSION_IS_NOT_FRESH"]);
    const password403 = await agent.post("/change-password", {
      currentPassword: password,
      newPassword: "another-password-1",
    });
    expect([password403.status, password403.body.code]).toEqual([403, "SESSION_IS_NOT_FRESH"]);
    expect(await emailOf(user.id)).toBe(email);
    expect((await t.agent().post("/sign-in/email", { email, password })).status).toBe(200);

    // Signing in again makes the browser's sign-in fresh.
    expect((await agent.post("/sign-in/email", { email, password })).status).toBe(200);
    const changed = await agent.post("/change-password", {
      currentPassword: password,
      newPassword: "another-password-1",
    });
    expect(changed.status).toBe(200);
    expect((await agent.post("/change-email", { newEmail: `moved.${user.id}@example.com` })).status).toBe(200);
    expect(await emailOf(user.id)).toBe(`moved.${user.id.toLowerCase()}@example.com`);
  });

  it("lets a session exactly at the fresh age through, and one a second older not", async () => {
    const { agent, password } = await signUp(t);
    t.clock.advance(600_000);
    const atTheAge = await agent.post("/change-password", {
      currentPassword: password,
      newPassword: "ten-minutes-sharp",
    });
    expect(atTheAge.status).toBe(200);
    t.clock.advance(1_000);
    const older = await agent.post("/change-password", {
      currentPassword: "ten-minutes-sharp",
      newPassword: "x-y-z-w-v-u",
    });
    expect(older.body.code).toBe("SESSION_IS_NOT_FRESH");
  });

  it("exempts a server call that acts with a stale session", async () => {
    const { agent, password, user } = await signUp(t);
    t.clock.advance(ELEVEN_MINUTES);
    const server = t.server();
    server.headers.cookie = agent.cookieHeader();
    const changed = await server.post("/change-password", {
      currentPassword: password,
      newPassword: "server-changed-1",
    });
    expect(changed.status).toBe(200);
    const moved = await server.post("/change-email", { newEmail: `server.${user.id}@example.com` });
    expect(moved.status).toBe(200);
  });
});

describeEachDialect("account.freshAge 0", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, config: { account: { freshAge: 0 } } });
  });
  afterAll(() => t.close());

  it("turns the rule off: a session of any age changes the password", async () => {
    const { agent, password } = await signUp(t);
    t.clock.advance(6 * 24 * 3600 * 1000);
    const changed = await agent.post("/change-password", {
      currentPassword: password,
      newPassword: "any-age-password",
    });
    expect(changed.status).toBe(200);
  });
});
