import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSessionToken } from "../../src/services/sessions/sessions.ts";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, hiddenFields, postForm } from "../helpers/pages.ts";
import { registerPasskey } from "../helpers/passkeys.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// /account/reauthenticate: a sign-in older than account.freshAge proves who it is again and goes back to
// the section. Every way signs in again as the signed-in user only (another account's password or passkey
// is refused and the browser stays who it was), starts a fresh session and ends the old one.

const ELEVEN_MINUTES = 11 * 60 * 1000;
const PASSWORD_PAGE = "/account/reauthenticate?redirect=%2Faccount%2Fpassword";

describeEachDialect("re-authentication on the account page", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  const sessionToken = (agent: Agent) => agent.cookie("session_token")?.split(".")[0] as string;
  const sessionExists = async (token: string) =>
    (await t.ctx.db
      .selectFrom("session")
      .select("id")
      .where("tokenHash", "=", hashSessionToken(token))
      .executeTakeFirst()) !== undefined;
  const changePassword = (agent: Agent, currentPassword: string, newPassword: string) =>
    agent.post("/change-password", { currentPassword, newPassword });
  const reauthenticateWith = async (agent: Agent, fields: Record<string, string>) =>
    postForm(agent, "/reauthenticate", { ...hiddenFields((await browse(agent, PASSWORD_PAGE)).text), ...fields });

  it("takes the password of the signed-in account, starts a fresh session, ends the old one and goes back", async () => {
    const { agent, email, password } = await signUp(t);
    t.clock.advance(ELEVEN_MINUTES);
    expect((await changePassword(agent, password, "stale-new-password")).status).toBe(403);
    const page = await browse(agent, PASSWORD_PAGE);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`You are signed in as ${email}.`);
    expect(hiddenFields(page.text).redirect).toBe("/account/password");

    const wrong = await reauthenticateWith(agent, { password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("The password is not right.");
    const old = sessionToken(agent);
    const right = await reauthenticateWith(agent, { password });
    expect([right.status, right.headers.get("location")]).toEqual([
      303,
      "/account/password?notice=notice.account.reauthenticated",
    ]);
    expect(sessionToken(agent)).not.toBe(old);
    expect(await sessionExists(old)).toBe(false);
    expect((await changePassword(agent, password, "fresh-new-password")).status).toBe(200);
  });

  it("refuses another account's password, and the identifier a forged form names", async () => {
    const victim = await signUp(t, { password: "the-victims-password" });
    const { agent, user } = await signUp(t);
    t.clock.advance(ELEVEN_MINUTES);
    const forged = await reauthenticateWith(agent, { identifier: victim.email, password: victim.password });
    expect(forged.status).toBe(401);
    expect((await agent.get("/get-session")).body.user.id).toBe(user.id);
    expect((await changePassword(agent, "correct-horse-battery", "still-stale-1")).status).toBe(403);
  });

  it("refuses another account's passkey and takes the account's own", async () => {
    const victim = await signUp(t);
    const victimKey = new SoftAuthenticator();
    await registerPasskey(victim.agent, victimKey);
    const { agent, user, password } = await signUp(t);
    const ownKey = new SoftAuthenticator();
    await registerPasskey(agent, ownKey);
    t.clock.advance(ELEVEN_MINUTES);
    const page = await browse(agent, PASSWORD_PAGE);
    expect(JSON.parse(page.text.match(/id="authd-state">([^<]*)</)?.[1] ?? "{}").methods).toEqual({
      password: true,
      passkey: true,
      secondFactor: false,
    });
    const { csrf } = hiddenFields(page.text);
    const withKey = async (authenticator: SoftAuthenticator, challenger: Agent = agent) => {
      const options = await challenger.post("/passkey/generate-authenticate-options", {});
      if (challenger !== agent) agent.absorb(options.setCookies);
      const response = authenticator.assert(options.body);
      const fields = { csrf: csrf as string, redirect: "/account/password", response: JSON.stringify(response) };
      const answer = await postForm(agent, "/reauthenticate/passkey", fields);
      return { status: answer.status, body: JSON.parse(answer.text) as { code?: string; location?: string } };
    };
    // A challenge asked while signed in names the user: another account's passkey cannot answer it.
    const bound = await withKey(victimKey);
    expect([bound.status, bound.body.code]).toEqual([400, "AUTHENTICATION_FAILED"]);
    // One asked signed out (any passkey may answer it) still proves nobody but the signed-in user here.
    const unbound = await withKey(victimKey, t.agent());
    expect([unbound.status, unbound.body.code]).toEqual([400, "AUTHENTICATION_FAILED"]);
    expect((await agent.get("/get-session")).body.user.id).toBe(user.id);
    expect((await victim.agent.get("/get-session")).body.user.id).toBe(victim.user.id);
    const own = await withKey(ownKey);
    expect([own.status, own.body]).toEqual([
      200,
      { location: "/account/password?notice=notice.account.reauthenticated" },
    ]);
    expect((await changePassword(agent, password, "passkey-fresh-pass")).status).toBe(200);
  });

  it("takes the second factor of an account without a password, through the second-factor page", async () => {
    const { agent, password, user } = await signUp(t);
    const { key } = await enrol(agent, password, t.clock.now);
    await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
    t.clock.advance(ELEVEN_MINUTES);
    const page = await browse(agent, PASSWORD_PAGE);
    expect(page.text).not.toContain('name="password"');
    expect(page.text).toContain("Confirm with two-step verification");
    const old = sessionToken(agent);
    const challenged = await postForm(agent, "/reauthenticate/second-factor", hiddenFields(page.text));
    expect(challenged.headers.get("location")).toBe("/account/two-factor?redirect=%2Faccount%2Fpassword");
    expect(await sessionExists(old)).toBe(false);
    const code = totp(key, t.clock.now);
    const secondFactorPage = hiddenFields((await browse(agent, challenged.headers.get("location") as string)).text);
    const verified = await postForm(agent, "/two-factor", { ...secondFactorPage, code });
    expect([verified.status, verified.headers.get("location")]).toEqual([303, "/account/password"]);
    const set = await agent.get("/get-session");
    expect(Number(new Date(set.body.session.createdAt))).toBe(t.clock.now);
  });

  it("signs out to sign in again, any way, and comes back", async () => {
    const { agent } = await signUp(t);
    const old = sessionToken(agent);
    const again = await postForm(
      agent,
      "/reauthenticate/sign-in-again",
      hiddenFields((await browse(agent, PASSWORD_PAGE)).text),
    );
    expect(again.headers.get("location")).toBe("/account/sign-in?redirect=%2Faccount%2Fpassword");
    expect(await sessionExists(old)).toBe(false);
  });

  it("goes back only to the account page: another address falls back to it", async () => {
    const { agent } = await signUp(t);
    for (const hostile of [
      "https://evil.example.net/account",
      "/account/../api/auth/ok",
      "//evil.example.net/account",
    ]) {
      const page = await browse(agent, `/account/reauthenticate?redirect=${encodeURIComponent(hostile)}`);
      expect([hostile, hiddenFields(page.text).redirect]).toEqual([hostile, "/account"]);
    }
  });

  it("refuses every way without its token or from a foreign origin", async () => {
    const { agent, email, password } = await signUp(t);
    t.clock.advance(ELEVEN_MINUTES);
    const { csrf } = hiddenFields((await browse(agent, PASSWORD_PAGE)).text);
    const old = sessionToken(agent);
    for (const action of [
      "/reauthenticate",
      "/reauthenticate/second-factor",
      "/reauthenticate/passkey",
      "/reauthenticate/sign-in-again",
    ]) {
      const fields = { password, response: "{}", redirect: "/account/password" };
      expect([action, (await postForm(agent, action, { ...fields, csrf: "" })).status]).toEqual([action, 403]);
      const foreign = await postForm(
        agent,
        action,
        { ...fields, csrf: csrf as string },
        { origin: "https://evil.example.net" },
      );
      expect([action, foreign.status]).toEqual([action, 403]);
    }
    expect(sessionToken(agent)).toBe(old);
    expect(await sessionExists(old)).toBe(true);
    expect((await changePassword(agent, password, "never-changed-1")).status).toBe(403);
    expect((await t.agent().post("/sign-in/email", { email, password })).status).toBe(200);
  });

  it("sends a signed-out browser to sign in, coming back to the section", async () => {
    const page = await browse(t.agent(), PASSWORD_PAGE);
    expect(page.headers.get("location")).toBe("/account/sign-in?redirect=%2Faccount%2Fpassword");
  });
});

describe("re-authentication is rate limited as the sign-in it stands for", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ env: { AUTH_RATE_LIMIT: "on" } });
  });
  afterAll(() => t.close());

  it("counts the page's password posts in the counter of /sign-in/email", async () => {
    const { agent, email } = await signUp(t);
    await t.agent().post("/sign-in/email", { email, password: "wrong-password-1" });
    const form = hiddenFields((await browse(agent, PASSWORD_PAGE)).text);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await postForm(agent, "/reauthenticate", { ...form, password: "wrong-password-2" })).status);
    expect(statuses).toEqual([401, 401, 429]);
  });
});

describe("where a sign-in without a return address ends", () => {
  /** Sign a new user in on the sign-in page, in a context made with `env`: the page's answer and the browser. */
  async function signInWithoutReturnAddress(env: Record<string, string>) {
    const t = await createTestContext({ env });
    try {
      const { email, password } = await signUp(t);
      const agent = t.agent();
      const fields = { csrf: await formTokenOf(agent, "/sign-in"), identifier: email, password };
      const answer = await postForm(agent, "/sign-in", fields);
      return { location: answer.headers.get("location"), signedInPage: await browse(agent, "/account/sign-in") };
    } finally {
      await t.close();
    }
  }

  it("lands on the account page without AUTH_APP_URL, which the signed-in page links to", async () => {
    const { location, signedInPage } = await signInWithoutReturnAddress({});
    expect(location).toBe("http://localhost:3000/account");
    expect(signedInPage.text).toContain('<a href="/account">Your account</a>');
  });

  it("lands on AUTH_APP_URL when it is set", async () => {
    const { location } = await signInWithoutReturnAddress({ AUTH_APP_URL: "https://app.example.com/home" });
    expect(location).toBe("https://app.example.com/home");
  });
});
