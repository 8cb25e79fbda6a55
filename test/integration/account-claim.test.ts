import { afterAll, beforeAll, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { eventsOfType } from "../helpers/audit.ts";
import {
  createTestContext,
  type Dialect,
  describeEachDialect,
  TEST_ORIGIN,
  type TestContext,
} from "../helpers/context.ts";
import { mailCount, mailedCode, mailedLink } from "../helpers/mail-links.ts";
import { type Mailbox, startMailbox } from "../helpers/mailbox.ts";
import { Browser, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";
import { passkeySignIn, registerPasskey } from "../helpers/passkeys.ts";
import { redisEnv, redisSkipped } from "../helpers/redis.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// The pre-registration squatter (issue 26, item 1): someone signs up first with the owner's address, sets a
// password, turns two-factor on, trusts a browser, creates an API key, registers a passkey and links a
// provider identity of their own. The owner's first proof of the mailbox, whichever way it comes (magic
// link, email code, a provider that vouches for the address, a reset link or code), must end all of it at
// once, with one account_claimed event counting what went.

const CALLBACK_PREFIX = `${TEST_ORIGIN}/api/auth/callback/`;
const PROVIDER_IDS = ["oidc", "oidc-trusted"];
const SQUATTER_PASSWORD = "squatter-password-1";
const OWNER_PASSWORD = "owners-own-password-1";
const LIVE = { query: { disableCookieCache: true } };
const apiKeyHeader = (key: string) => ({ headers: { "x-api-key": key } });

describeEachDialect("the first proof of a never-verified mailbox ends the squatter's access", (dialect) => {
  claimSuite(dialect, false);
});

describeEachDialect("the first proof ends the squatter's access, with Redis", (dialect) => {
  if (redisSkipped) it.skip("needs Redis", () => {});
  else claimSuite(dialect, true);
});

function claimSuite(dialect: Dialect, redis: boolean): void {
  let t: TestContext;
  let mailbox: Mailbox;
  let op: TestOpenIdProvider;

  beforeAll(async () => {
    mailbox = await startMailbox();
    op = await startOpenIdProvider({ redirectURIs: PROVIDER_IDS.map((id) => CALLBACK_PREFIX + id) });
    const provider = { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer };
    t = await createTestContext({
      dialect,
      env: { AUTH_SMTP_URL: mailbox.url, AUTH_MAGIC_LINK: "on", AUTH_EMAIL_OTP: "on", ...(redis ? redisEnv() : {}) },
      config: { social: { oidc: provider, "oidc-trusted": { ...provider, trusted: true } } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
    await mailbox?.close();
  });

  /** sign-in/social or link-social through the provider, logged in there as `login`. */
  async function throughProvider(agent: Agent, login: string, provider: string, path = "/sign-in/social") {
    const start = await agent.post(path, { provider, callbackURL: "/dashboard" });
    expect(start.status).toBe(200);
    const back = await new Browser().authorize(start.body.url, login, CALLBACK_PREFIX);
    const callback = await agent.get(back.pathname + back.search);
    expect(callback.headers.get("location")).toBe("/dashboard");
  }

  /** Mail something to `email` (the request `send` makes) and wait for it. */
  async function mailed<T>(email: string, send: () => Promise<unknown>, read: (seen: number) => Promise<T>) {
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    await send();
    return read(seen);
  }

  /** A squatter who holds the owner's address with every credential there is, and checks that each works. */
  async function squat(email: string) {
    const squatter = t.agent();
    const signedUp = await squatter.post("/sign-up/email", { name: "Squatter", email, password: SQUATTER_PASSWORD });
    expect(signedUp.status).toBe(200);
    const userId = signedUp.body.user.id as string;
    const { key: totpKey } = await enrol(squatter, SQUATTER_PASSWORD, t.clock.now);
    t.clock.advance(30_000);

    // A browser trusted to skip the second factor.
    const trusted = t.agent();
    expect((await trusted.post("/sign-in/email", { email, password: SQUATTER_PASSWORD })).body).toEqual({
      twoFactorRedirect: true,
    });
    const skip = await trusted.post("/two-factor/verify-totp", { code: totp(totpKey, t.clock.now), trustDevice: true });
    expect(skip.status).toBe(200);
    t.clock.advance(30_000);
    expect(trusted.cookie("trust_device")).toBeTruthy();

    const apiKey = (await squatter.post("/api-key/create", {})).body.key as string;
    expect((await t.agent().get("/get-session", apiKeyHeader(apiKey))).body.user.id).toBe(userId);

    const authenticator = new SoftAuthenticator();
    expect((await registerPasskey(squatter, authenticator)).verified.status).toBe(200);
    const byPasskey = t.agent();
    expect((await passkeySignIn(byPasskey, authenticator)).verified.status).toBe(200);

    // A provider identity of the squatter's own, linked through the trusted provider.
    const login = `squatter-${userId}`;
    op.accounts.set(login, { email, email_verified: false });
    await throughProvider(squatter, login, "oidc-trusted", "/link-social");

    const sessions = await t.ctx.db.selectFrom("session").select("id").where("userId", "=", userId).execute();
    return { userId, squatter, trusted, byPasskey, apiKey, authenticator, sessions: sessions.length };
  }

  /** The ways an owner proves the mailbox; each answers an agent signed in as the owner. */
  const proofs: Record<string, (email: string) => Promise<Agent>> = {
    "a magic link": async (email) => {
      const link = await mailed(
        email,
        () => t.agent().post("/sign-in/magic-link", { email }),
        (seen) => mailedLink(mailbox, email, "magicLink", seen),
      );
      const token = link.searchParams.get("token") ?? "";
      const owner = t.agent();
      expect((await owner.get("/magic-link/verify", { query: { token } })).status).toBe(200);
      return owner;
    },
    "an email code": async (email) => {
      const otp = await mailed(
        email,
        () => t.agent().post("/email-otp/send-verification-otp", { email, type: "sign-in" }),
        (seen) => mailedCode(mailbox, email, "sign-in", seen),
      );
      const owner = t.agent();
      expect((await owner.post("/sign-in/email-otp", { email, otp })).status).toBe(200);
      return owner;
    },
    "social sign-in": async (email) => {
      const login = `owner-${email}`;
      op.accounts.set(login, { email, email_verified: true, name: "Owner" });
      const owner = t.agent();
      await throughProvider(owner, login, "oidc");
      return owner;
    },
    "a password-reset link": async (email) => {
      const link = await mailed(
        email,
        () => t.agent().post("/request-password-reset", { email }),
        (seen) => mailedLink(mailbox, email, "reset", seen),
      );
      const token = link.pathname.split("/").pop();
      expect((await t.agent().post("/reset-password", { token, newPassword: OWNER_PASSWORD })).status).toBe(200);
      return signedIn(email);
    },
    "a password-reset code": async (email) => {
      const otp = await mailed(
        email,
        () => t.agent().post("/forget-password/email-otp", { email }),
        (seen) => mailedCode(mailbox, email, "forget-password", seen),
      );
      const reset = await t.agent().post("/email-otp/reset-password", { email, otp, password: OWNER_PASSWORD });
      expect(reset.status).toBe(200);
      return signedIn(email);
    },
  };

  async function signedIn(email: string): Promise<Agent> {
    const owner = t.agent();
    expect((await owner.post("/sign-in/email", { email, password: OWNER_PASSWORD })).status).toBe(200);
    return owner;
  }

  for (const [way, prove] of Object.entries(proofs)) {
    it(`${way}: the squatter's API key, passkey, trusted browser, sessions, password, factor and provider link all end`, async () => {
      // Given a squatter holding the address with every kind of credential
      const email = `squatted.${way.replaceAll(/[^a-z]/g, "")}@example.com`;
      const held = await squat(email);

      // When the owner proves the mailbox
      const owner = await prove(email);

      // Then the owner holds the account, verified, with no second factor but their own to come
      const session = (await owner.get("/get-session", LIVE)).body;
      expect(session.user).toMatchObject({ id: held.userId, emailVerified: true, twoFactorEnabled: false });

      // The API key is refused everywhere, at once
      const byKey = await t.agent().get("/get-session", apiKeyHeader(held.apiKey));
      expect(byKey.status).toBe(401);
      expect(byKey.body.code).toBe("INVALID_API_KEY");
      const verified = await t.server().post("/api-key/verify", { key: held.apiKey });
      expect(verified.body).toMatchObject({ valid: false, error: { code: "KEY_NOT_FOUND" }, key: null });
      expect((await t.agent().get("/forward-auth", apiKeyHeader(held.apiKey))).status).toBe(401);
      const update = await t.agent().post("/update-user", { name: "Squatter again" }, apiKeyHeader(held.apiKey));
      expect(update.status).toBe(401);

      // The passkey no longer signs in
      const passkey = t.agent();
      expect((await passkeySignIn(passkey, held.authenticator)).verified.status).not.toBe(200);
      expect((await passkey.get("/get-session", LIVE)).body).toBeNull();

      // Every session made before the proof is dead, and the squatter's password signs nothing in
      for (const agent of [held.squatter, held.trusted, held.byPasskey])
        expect((await agent.get("/get-session", LIVE)).body).toBeNull();
      const again = await held.trusted.post("/sign-in/email", { email, password: SQUATTER_PASSWORD });
      expect(again.status).toBe(401);

      // The trusted browser no longer skips a second factor: the owner's own, once they set one up
      if (way !== "a password-reset link" && way !== "a password-reset code")
        expect(
          (await t.server().post("/set-password", { userId: held.userId, newPassword: OWNER_PASSWORD })).status,
        ).toBe(200);
      const ownerSession = await signedIn(email);
      await enrol(ownerSession, OWNER_PASSWORD, t.clock.now);
      t.clock.advance(30_000);
      expect((await held.trusted.post("/sign-in/email", { email, password: OWNER_PASSWORD })).body).toEqual({
        twoFactorRedirect: true,
      });

      // Only the owner's proof is linked: the squatter's provider identity and its tokens are gone
      const accounts = await t.ctx.db
        .selectFrom("account")
        .select("providerId")
        .where("userId", "=", held.userId)
        .execute();
      expect(accounts.map((account) => account.providerId).sort()).toEqual(
        way === "social sign-in" ? ["credential", "oidc"] : ["credential"],
      );

      // And exactly one event lists what went
      const claims = (await eventsOfType(t.ctx, "account_claimed")).filter((row) => row.subjectId === held.userId);
      expect(claims).toHaveLength(1);
      expect(claims[0]).toMatchObject({ actorType: "user", actorId: held.userId, outcome: "success" });
      expect(JSON.parse(claims[0].data ?? "{}").removed).toEqual({
        sessions: held.sessions,
        apiKeys: 1,
        passkeys: 1,
        trustedBrowsers: 1,
        password: 1,
        secondFactor: 1,
        oauthConsents: 0,
        providerAccounts: 1,
      });
    });
  }

  it("the sign-up's own verify-email link claims nothing: its password, key and passkey stay", async () => {
    // Given a user who signs up, makes a key and a passkey, and then confirms the address as asked
    const email = "confirms.own.signup@example.com";
    const link = await mailed(
      email,
      () => t.agent().post("/sign-up/email", { name: "Legit", email, password: OWNER_PASSWORD }),
      (seen) => mailedLink(mailbox, email, "verify", seen),
    );
    const user = await signedIn(email);
    const userId = (await user.get("/get-session")).body.user.id as string;
    const key = (await user.post("/api-key/create", {})).body.key as string;
    const authenticator = new SoftAuthenticator();
    expect((await registerPasskey(user, authenticator)).verified.status).toBe(200);
    expect((await t.agent().get(`${link.pathname.replace("/api/auth", "")}${link.search}`)).status).toBe(302);

    // Then everything is still theirs, and nothing was claimed
    expect((await user.get("/get-session", LIVE)).body.user).toMatchObject({ id: userId, emailVerified: true });
    expect((await t.agent().get("/get-session", apiKeyHeader(key))).body.user.id).toBe(userId);
    expect((await passkeySignIn(t.agent(), authenticator)).verified.status).toBe(200);
    expect((await t.agent().post("/sign-in/email", { email, password: OWNER_PASSWORD })).status).toBe(200);
    expect((await eventsOfType(t.ctx, "account_claimed")).filter((row) => row.subjectId === userId)).toEqual([]);
  });

  it("a second proof claims nothing: the owner's own credentials stay", async () => {
    const email = "proven.twice@example.com";
    const held = await squat(email);
    const owner = await proofs["a magic link"](email);
    const key = (await owner.post("/api-key/create", {})).body.key as string;
    await proofs["an email code"](email);
    expect((await t.agent().get("/get-session", apiKeyHeader(key))).body.user.id).toBe(held.userId);
    expect((await owner.get("/get-session", LIVE)).body.user.id).toBe(held.userId);
    const claims = (await eventsOfType(t.ctx, "account_claimed")).filter((row) => row.subjectId === held.userId);
    expect(claims).toHaveLength(1);
  });
}
