import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect, TEST_ORIGIN, type TestContextOptions } from "../helpers/context.ts";
import { type RunningAuthd, startAuthd } from "../helpers/live-server.ts";
import { Browser, startOpenIdProvider, type TestOpenIdProvider } from "../helpers/oidc-provider.ts";

// The social state is bound to the browser that started the flow (a signed cookie holding its hash)
// and to the provider it was issued for. Two independent browsers against a live daemon on a real
// socket and a real OpenID Connect provider: what one browser starts, another cannot finish.

const CALLBACK_PREFIX = `${TEST_ORIGIN}/api/auth/callback/`;
const RESTART = `${TEST_ORIGIN}/account/error?error=please_restart_the_process`;
const PROVIDERS = ["oidc", "oidc-b"];

async function startStack(op: TestOpenIdProvider, options: TestContextOptions = {}): Promise<RunningAuthd> {
  const base = { clientId: op.clientId, clientSecret: op.clientSecret, issuer: op.issuer };
  return startAuthd({ ...options, config: { ...options.config, social: { oidc: base, "oidc-b": base } } });
}

/** What a browser does on the daemon: requests with its own cookies, POSTs from the app's origin. */
function onDaemon(authd: RunningAuthd, browser: Browser) {
  const url = (path: string) => `${authd.url}${path.startsWith("/api/") ? path : `/api/auth${path}`}`;
  return {
    post: (path: string, json: unknown) => browser.request(url(path), { json, headers: { origin: TEST_ORIGIN } }),
    get: (path: string) => browser.request(url(path)),
    /** A form_post callback: a cross-site POST, so the SameSite=Lax cookies stay behind. */
    formPost: (path: string, form: Record<string, string>) =>
      browser.request(url(path), { form, withoutCookies: true, headers: { origin: "https://provider.example" } }),
    session: async () =>
      (await (await browser.request(url("/get-session?disableCookieCache=true"))).json()) as {
        user: { id: string; email: string };
      } | null,
  };
}

/** Start a flow in `starter` and walk the provider's pages as `login`; returns the callback URL (path + query). */
async function authorizeAt(
  daemon: ReturnType<typeof onDaemon>,
  login: string,
  body: Record<string, unknown> = {},
  path = "/sign-in/social",
) {
  const start = await daemon.post(path, { provider: "oidc", callbackURL: "/dashboard", ...body });
  expect(start.status).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const back = await new Browser().authorize(url, login, CALLBACK_PREFIX);
  return {
    start,
    state: back.searchParams.get("state")!,
    code: back.searchParams.get("code")!,
    callbackPath: back.pathname + back.search,
  };
}

const tokenRequests = (op: TestOpenIdProvider) => op.requests.filter((r) => r === "POST /token").length;
const setsSession = (res: Response) =>
  res.headers.getSetCookie().some((c) => c.includes("session_token=") && !/max-age=0/i.test(c));

describeEachDialect("social state bound to the browser and the provider (live daemon)", (dialect) => {
  let op: TestOpenIdProvider;
  let authd: RunningAuthd;
  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: PROVIDERS.map((id) => CALLBACK_PREFIX + id) });
    authd = await startStack(op, { dialect });
  });
  afterAll(async () => {
    await authd.close();
    await op.close();
  });

  it("sign-in/social gives the browser a signed, HttpOnly, 10-minute cookie holding a hash of the state", async () => {
    const attacker = new Browser();
    const { start, state } = await authorizeAt(onDaemon(authd, attacker), "cookie-check");
    const line = start.headers.getSetCookie().find((c) => c.startsWith("better-auth.oauth_state="))!;
    expect(line).toMatch(/; Max-Age=600/);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    const value = decodeURIComponent(attacker.cookiesFor(authd.url).get("better-auth.oauth_state")!);
    expect(value).not.toContain(state);
    expect(value.startsWith(`${createHash("sha256").update(state).digest("base64url")}.`)).toBe(true);
  });

  it("a callback opened in another browser (GET) is refused before the code exchange and signs nobody in", async () => {
    // Given an attacker who completed the provider's pages but kept the callback URL
    op.accounts.set("mallory", { email: "mallory@example.com", email_verified: true });
    const attacker = new Browser();
    const attackerOnDaemon = onDaemon(authd, attacker);
    const { callbackPath } = await authorizeAt(attackerOnDaemon, "mallory");
    const tokensBefore = tokenRequests(op);

    // When the victim's browser opens it
    const victim = onDaemon(authd, new Browser());
    const res = await victim.get(callbackPath);

    // Then it is sent to restart, with no session and no call to the provider's token endpoint
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(RESTART);
    expect(setsSession(res)).toBe(false);
    expect(await victim.session()).toBeNull();
    expect(tokenRequests(op)).toBe(tokensBefore);

    // And the browser that started the flow still completes it
    const own = await attackerOnDaemon.get(callbackPath);
    expect(own.headers.get("location")).toBe("/dashboard");
    expect((await attackerOnDaemon.session())?.user.email).toBe("mallory@example.com");
    expect(attacker.cookiesFor(authd.url).has("better-auth.oauth_state")).toBe(false);
  });

  it("a form_post callback (POST) is relayed to the GET callback, where only the starting browser gets through", async () => {
    op.accounts.set("trudy", { email: "trudy@example.com", email_verified: true });
    const attacker = onDaemon(authd, new Browser());
    const { code, state } = await authorizeAt(attacker, "trudy");

    // The victim's browser is made to post the attacker's code: relayed, then refused at the GET
    const victimBrowser = new Browser();
    const victim = onDaemon(authd, victimBrowser);
    const posted = await victim.formPost("/callback/oidc", { code, state });
    expect(posted.status).toBe(303);
    expect(setsSession(posted)).toBe(false);
    const relayed = new URL(posted.headers.get("location")!);
    expect(relayed.origin + relayed.pathname).toBe(`${TEST_ORIGIN}/api/auth/callback/oidc`);
    const refused = await victim.get(relayed.pathname + relayed.search);
    expect(refused.headers.get("location")).toBe(RESTART);
    expect(await victim.session()).toBeNull();

    // The starting browser's own form post goes through the same relay and signs it in
    const ownPost = await attacker.formPost("/callback/oidc", { code, state });
    const own = await attacker.get(
      new URL(ownPost.headers.get("location")!).pathname + new URL(ownPost.headers.get("location")!).search,
    );
    expect(own.headers.get("location")).toBe("/dashboard");
    expect((await attacker.session())?.user.email).toBe("trudy@example.com");
  });

  it("a cookie from another flow, or a forged one, does not match", async () => {
    const browser = new Browser();
    const daemon = onDaemon(authd, browser);
    op.accounts.set("oscar", { email: "oscar@example.com", email_verified: true });
    const first = await authorizeAt(daemon, "oscar");
    // A second flow in another browser: its cookie is for its own state only.
    const other = onDaemon(authd, new Browser());
    await authorizeAt(other, "oscar");
    expect((await other.get(first.callbackPath)).headers.get("location")).toBe(RESTART);
    // A cookie carrying the right hash with a made-up signature is no cookie.
    const forged = new Browser();
    forged
      .cookiesFor(authd.url)
      .set(
        "better-auth.oauth_state",
        encodeURIComponent(`${createHash("sha256").update(first.state).digest("base64url")}.${"A".repeat(43)}=`),
      );
    expect((await onDaemon(authd, forged).get(first.callbackPath)).headers.get("location")).toBe(RESTART);
    expect((await daemon.get(first.callbackPath)).headers.get("location")).toBe("/dashboard");
  });

  it("link-social started by one user and finished in another browser links nothing", async () => {
    // Given an attacker signed in to their own account, starting a link
    const attacker = onDaemon(authd, new Browser());
    const signedUp = await attacker.post("/sign-up/email", {
      name: "Eve",
      email: "eve@example.com",
      password: "eve-password-123",
    });
    const eve = ((await signedUp.json()) as { user: { id: string } }).user;
    op.accounts.set("victim-at-provider", { email: "eve@example.com", email_verified: true });
    const start = await attacker.post("/link-social", { provider: "oidc", callbackURL: "/settings" });
    const { url } = (await start.json()) as { url: string };

    // When the victim is lured through the provider and lands on the callback in their own browser
    const victimBrowser = new Browser();
    const back = await victimBrowser.authorize(url, "victim-at-provider", CALLBACK_PREFIX);
    const res = await onDaemon(authd, victimBrowser).get(back.pathname + back.search);

    // Then nothing is linked to the attacker's user
    expect(res.headers.get("location")).toBe(RESTART);
    const accounts = await authd.t.ctx.db
      .selectFrom("account")
      .select("providerId")
      .where("userId", "=", eve.id)
      .execute();
    expect(accounts.map((a) => a.providerId)).toEqual(["credential"]);
  });

  it("of 8 concurrent callbacks carrying the right cookie and state, exactly one signs in", async () => {
    op.accounts.set("racer", { email: "racer@example.com", email_verified: true });
    const browser = new Browser();
    const daemon = onDaemon(authd, browser);
    const { callbackPath } = await authorizeAt(daemon, "racer");
    const cookie = [...browser.cookiesFor(authd.url)].map(([k, v]) => `${k}=${v}`).join("; ");
    // Barrier: every request is built first, then all are released together.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const racing = Array.from({ length: 8 }, async () => {
      await gate;
      return fetch(`${authd.url}${callbackPath}`, { headers: { cookie }, redirect: "manual" });
    });
    release();
    const results = await Promise.all(racing);
    expect(results.filter((r) => r.headers.get("location") === "/dashboard")).toHaveLength(1);
    expect(results.filter((r) => r.headers.get("location") === RESTART)).toHaveLength(7);
    expect(results.filter(setsSession)).toHaveLength(1);
    const user = await authd.t.ctx.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "racer@example.com")
      .executeTakeFirstOrThrow();
    expect(
      await authd.t.ctx.db.selectFrom("session").select("id").where("userId", "=", user.id).execute(),
    ).toHaveLength(1);
  });

  it("a state issued for provider a is refused on /callback/b before any code exchange, and is used up", async () => {
    // Given a flow started for "oidc" and authorized at the provider, in the right browser
    op.accounts.set("mixup", { email: "mixup@example.com", email_verified: true });
    const browser = new Browser();
    const daemon = onDaemon(authd, browser);
    const { code, state } = await authorizeAt(daemon, "mixup");
    const tokensBefore = tokenRequests(op);

    // When its code and state are presented on the other provider's callback
    const res = await daemon.get(`/callback/oidc-b?${new URLSearchParams({ code, state })}`);

    // Then it is the bad-state redirect, no token request reached the provider, and nobody is signed in
    expect(res.headers.get("location")).toBe(RESTART);
    expect(tokenRequests(op)).toBe(tokensBefore);
    expect(setsSession(res)).toBe(false);
    expect(await daemon.session()).toBeNull();
    // And the state is gone: even its own callback now restarts
    expect((await daemon.get(`/callback/oidc?${new URLSearchParams({ code, state })}`)).headers.get("location")).toBe(
      RESTART,
    );
    expect(tokenRequests(op)).toBe(tokensBefore);
  });
});

describe("social state with account.skipStateCookieCheck [sqlite]", () => {
  let op: TestOpenIdProvider;
  let authd: RunningAuthd;
  beforeAll(async () => {
    op = await startOpenIdProvider({ redirectURIs: PROVIDERS.map((id) => CALLBACK_PREFIX + id) });
    authd = await startStack(op, { config: { account: { skipStateCookieCheck: true } } });
  });
  afterAll(async () => {
    await authd.close();
    await op.close();
  });

  it("lets another browser finish the flow (the documented trade-off), but still not on another provider", async () => {
    op.accounts.set("native", { email: "native@example.com", email_verified: true });
    const starter = onDaemon(authd, new Browser());
    const mixed = await authorizeAt(starter, "native");
    const elsewhere = onDaemon(authd, new Browser());
    expect(
      (
        await elsewhere.get(`/callback/oidc-b?${new URLSearchParams({ code: mixed.code, state: mixed.state })}`)
      ).headers.get("location"),
    ).toBe(RESTART);

    const { callbackPath } = await authorizeAt(starter, "native");
    expect((await elsewhere.get(callbackPath)).headers.get("location")).toBe("/dashboard");
    expect((await elsewhere.session())?.user.email).toBe("native@example.com");
    // A form_post completes on the POST itself, as in Better Auth 1.3.4.
    const again = await authorizeAt(starter, "native");
    const posted = await elsewhere.formPost("/callback/oidc", { code: again.code, state: again.state });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("/dashboard");
  });
});
