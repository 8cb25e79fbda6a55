import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { alertText, browse, formTokenOf, hiddenFields, postForm } from "../helpers/pages.ts";

// The account page's API keys ({pages}/api-keys): the list without secrets, create with what a user may
// set on their own key (shown once, working at once), revoke. The attacker's side: another user's key id,
// server-only fields slipped into the form, a stale sign-in, forms without the token or from another
// origin, HTML in a key's name.

const SECTION = "/account/api-keys";
const DAY_MS = 86_400_000;
const KEY_IN_PAGE = /value="([A-Za-z]{64})"/;

describeEachDialect("the account page's API keys", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  const keyWorks = async (key: string) => {
    const caller = t.agent();
    caller.headers["x-api-key"] = key;
    return (await caller.get("/get-session")).status === 200;
  };

  it("creates a key with a name and an expiry, shows it this once, and it works over HTTP at once", async () => {
    const { agent, user } = await signUp(t);
    const page = await browse(agent, SECTION);
    expect(page.status).toBe(200);
    expect(page.text).toContain("You have no API keys.");
    // What a user may set: a name and an expiry among those the configuration allows, no permissions.
    expect(page.text).toContain('name="name"');
    for (const days of ["1", "7", "30", "90", "365"]) expect(page.text).toContain(`<option value="${days}">`);
    expect(page.text).not.toContain('name="permissions"');

    const csrf = hiddenFields(page.text).csrf;
    const created = await postForm(agent, `${SECTION}/create`, { csrf, name: "deploy", expiresInDays: "30" });
    expect(created.status).toBe(200);
    // The key is in this answer only: no cache keeps it.
    expect(created.headers.get("cache-control")).toBe("no-store");
    const key = created.text.match(KEY_IN_PAGE)?.[1] as string;
    expect(key).toBeDefined();
    expect(created.text).toContain("Copy it now: it is shown only this once.");
    expect(await keyWorks(key)).toBe(true);

    const listed = (await agent.get("/api-key/list")).body as { name: string; expiresAt: string; createdAt: string }[];
    expect(listed.map((k) => k.name)).toEqual(["deploy"]);
    expect(Date.parse(listed[0].expiresAt) - Date.parse(listed[0].createdAt)).toBe(30 * DAY_MS);
    // Shown once: the section drawn again lists the key by its start, never the key itself.
    const again = await browse(agent, SECTION);
    expect(again.text).toContain("deploy");
    expect(again.text).toContain(`Starts with ${key.slice(0, 6)}…`);
    expect(again.text).not.toContain(key);
    expect(user.id).toBeDefined();
  });

  it("revokes the user's own key, which stops working; another user's key id is refused and the key lives", async () => {
    const alice = await signUp(t);
    const bob = await signUp(t);
    const key = (await alice.agent.post("/api-key/create", { name: "alice-key" })).body as { id: string; key: string };
    const bobToken = await formTokenOf(bob.agent, SECTION);
    const stolen = await postForm(bob.agent, `${SECTION}/revoke`, { csrf: bobToken, keyId: key.id });
    expect(stolen.status).toBe(404);
    expect(alertText(stolen)).toBe("This key does not exist.");
    expect(stolen.text).not.toContain("alice-key");
    expect(await keyWorks(key.key)).toBe(true);

    const token = await formTokenOf(alice.agent, SECTION);
    const revoked = await postForm(alice.agent, `${SECTION}/revoke`, { csrf: token, keyId: key.id });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(`${SECTION}?notice=notice.account.apiKeyRevoked`);
    expect((await browse(alice.agent, `${SECTION}?notice=notice.account.apiKeyRevoked`)).text).toContain(
      "The key is revoked: it works no more.",
    );
    expect(await keyWorks(key.key)).toBe(false);
  });

  it("ignores fields only the server may set, and refuses an expiry out of bounds", async () => {
    const { agent } = await signUp(t);
    const csrf = await formTokenOf(agent, SECTION);
    const extra = { remaining: "1", permissions: '{"all":["*"]}', userId: "someone-else", prefix: "x_" };
    const created = await postForm(agent, `${SECTION}/create`, { csrf, name: "plain", ...extra });
    expect(created.status).toBe(200);
    const [key] = (await agent.get("/api-key/list")).body;
    expect(key).toMatchObject({ name: "plain", remaining: null, permissions: null, prefix: null, expiresAt: null });
    const tooLong = await postForm(agent, `${SECTION}/create`, { csrf, name: "long", expiresInDays: "366" });
    expect(tooLong.status).toBe(400);
    expect(alertText(tooLong)).toBe("This expiry is longer than allowed.");
    const garbage = await postForm(agent, `${SECTION}/create`, { csrf, name: "odd", expiresInDays: "1e3" });
    expect(garbage.status).toBe(400);
    expect((await agent.get("/api-key/list")).body).toHaveLength(1);
  });

  it("sends a stale sign-in through re-authentication before creating or revoking a key", async () => {
    const { agent } = await signUp(t);
    const key = (await agent.post("/api-key/create", { name: "kept" })).body as { id: string; key: string };
    const csrf = await formTokenOf(agent, SECTION);
    t.clock.advance(601_000);
    const reauthenticate = `/account/reauthenticate?redirect=${encodeURIComponent(SECTION)}`;
    for (const [route, fields] of [
      ["create", { name: "late" }],
      ["revoke", { keyId: key.id }],
    ] as const) {
      const posted = await postForm(agent, `${SECTION}/${route}`, { csrf, ...fields });
      expect(posted.status).toBe(303);
      expect(posted.headers.get("location")).toBe(reauthenticate);
    }
    expect(((await agent.get("/api-key/list")).body as { name: string }[]).map((k) => k.name)).toEqual(["kept"]);
    expect(await keyWorks(key.key)).toBe(true);
  });

  it("refuses forms without the token, with a forged one, or from another origin", async () => {
    const { agent } = await signUp(t);
    const key = (await agent.post("/api-key/create", { name: "kept" })).body as { id: string; key: string };
    const csrf = await formTokenOf(agent, SECTION);
    for (const [route, fields] of [
      ["create", { name: "forged" }],
      ["revoke", { keyId: key.id }],
    ] as const) {
      const refusals = [
        await postForm(agent, `${SECTION}/${route}`, fields),
        await postForm(agent, `${SECTION}/${route}`, { ...fields, csrf: `${csrf.slice(0, -2)}xx` }),
        await postForm(agent, `${SECTION}/${route}`, { ...fields, csrf }, { origin: "https://evil.example.net" }),
      ];
      expect(refusals.map((r) => r.status)).toEqual([403, 403, 403]);
    }
    expect(((await agent.get("/api-key/list")).body as { name: string }[]).map((k) => k.name)).toEqual(["kept"]);
    expect(await keyWorks(key.key)).toBe(true);
  });

  it("draws a key's HTML-looking name as text, and sends a signed-out browser through sign-in", async () => {
    const { agent } = await signUp(t);
    const name = "<img src=x onerror=alert(1)>";
    expect((await agent.post("/api-key/create", { name })).status).toBe(200);
    const page = await browse(agent, SECTION);
    expect(page.text).not.toContain("<img src=x");
    expect(page.text).toContain("&lt;img src=x onerror=alert(1)&gt;");
    const stranger = await browse(t.agent(), SECTION);
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get("location")).toBe(`/account/sign-in?redirect=${encodeURIComponent(SECTION)}`);
  });
});

describe("the account page's API keys and the configuration", () => {
  it("is not offered with API keys off, and offers only the default expiry when custom ones are off", async () => {
    const off = await createTestContext({ config: { apiKey: { enabled: false } } });
    try {
      const { agent } = await signUp(off);
      expect((await browse(agent, SECTION)).status).toBe(404);
      expect((await browse(agent, "/account")).text).not.toContain('href="/account/api-keys"');
      const csrf = await formTokenOf(agent, "/account");
      expect((await postForm(agent, `${SECTION}/create`, { csrf, name: "x" })).status).toBe(404);
    } finally {
      await off.close();
    }
    const fixed = await createTestContext({
      config: { apiKey: { keyExpiration: { disableCustomExpiresTime: true, defaultExpiresIn: 7 * DAY_MS } } },
    });
    try {
      const { agent } = await signUp(fixed);
      const page = await browse(agent, SECTION);
      expect(page.text).toContain('<option value="" selected="">After 7 days</option></select>');
      const csrf = hiddenFields(page.text).csrf;
      const refused = await postForm(agent, `${SECTION}/create`, { csrf, name: "x", expiresInDays: "30" });
      expect(alertText(refused)).toBe("Keys get the usual expiry here; no other can be chosen.");
    } finally {
      await fixed.close();
    }
  });
});
