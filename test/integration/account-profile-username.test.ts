import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, pageForm, postForm } from "../helpers/pages.ts";

// Issue 29: the account page's profile carries the username while usernames are on (the service of
// update-user, with its rules: taken, malformed, each said beside the field), and has no username field, nor
// takes one, while they are off. The sign-up page says a taken username in words too.

async function saveProfile(agent: Agent, fields: Record<string, string>) {
  return postForm(agent, "/account/profile", { csrf: await formTokenOf(agent, "/account"), ...fields });
}

const usernameOf = async (t: TestContext, id: string) =>
  (await t.ctx.db.selectFrom("user").select(["username", "displayUsername"]).where("id", "=", id).executeTakeFirst()) ??
  null;

describe("the account page's username, usernames on", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("sets the username, shows it in the field, and signs in with it", async () => {
    const { agent, user, password } = await signUp(t);
    const page = await browse(agent, "/account");
    expect(page.text).toMatch(/<input[^>]*name="username"[^>]*value=""/);
    const handle = `Ada_${crypto.randomUUID().slice(0, 6)}`;
    const saved = await saveProfile(agent, { name: "Ada", username: handle });
    expect([saved.status, saved.headers.get("location")]).toEqual([303, "/account?notice=notice.account.profileSaved"]);
    expect(await usernameOf(t, user.id)).toEqual({ username: handle.toLowerCase(), displayUsername: handle });
    expect((await browse(agent, "/account")).text).toMatch(
      new RegExp(`<input[^>]*name="username"[^>]*value="${handle}"`),
    );
    expect((await t.agent().post("/sign-in/username", { username: handle, password })).status).toBe(200);

    // An empty field leaves the username as it is.
    expect((await saveProfile(agent, { name: "Ada L.", username: "" })).status).toBe(303);
    expect((await usernameOf(t, user.id))?.username).toBe(handle.toLowerCase());
  });

  it("refuses another user's username and a malformed one beside the field, changing nothing", async () => {
    const owner = await signUp(t);
    const taken = `taken_${crypto.randomUUID().slice(0, 6)}`;
    expect((await saveProfile(owner.agent, { name: "Owner", username: taken })).status).toBe(303);
    const other = await signUp(t);
    const refused = await saveProfile(other.agent, { name: "Other", username: taken.toUpperCase() });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("This username is taken. Choose another one.");
    expect(refused.text).toMatch(/<input[^>]*aria-invalid="true"[^>]*name="username"/);
    const malformed = await saveProfile(other.agent, { name: "Other", username: "<b>x</b>" });
    expect(malformed.status).toBe(422);
    expect(malformed.text).toContain("A username may contain letters, digits, dots and underscores only.");
    expect(malformed.text).not.toContain("<b>x</b>");
    expect(await usernameOf(t, other.user.id)).toEqual({ username: null, displayUsername: null });
    expect((await usernameOf(t, owner.user.id))?.username).toBe(taken);
  });
});

describe("the sign-up page's username", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("says a taken username is taken, beside the field", async () => {
    const owner = await signUp(t, { username: "first_come" });
    expect(owner.user.username).toBe("first_come");
    const browser = t.agent();
    const fields = await pageForm(browser, "/account/sign-up");
    const refused = await postForm(browser, "/account/sign-up", {
      ...fields,
      name: "Second",
      email: `second.${crypto.randomUUID().slice(0, 8)}@example.com`,
      password: "correct-horse-battery",
      username: "First_Come",
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("This username is taken. Choose another one.");
    expect(refused.text).toMatch(/<input[^>]*aria-invalid="true"[^>]*name="username"/);
  });
});

describe("the account page's username, usernames off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { username: { enabled: false } } });
  });
  afterAll(() => t.close());

  it("draws no username field and ignores one posted", async () => {
    const { agent, user } = await signUp(t);
    expect((await browse(agent, "/account")).text).not.toContain('name="username"');
    expect((await saveProfile(agent, { name: "Ada", username: "sneaky_name" })).status).toBe(303);
    expect(await usernameOf(t, user.id)).toEqual({ username: null, displayUsername: null });
  });
});
