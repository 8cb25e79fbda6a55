import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// get-session keeps what it makes from a current session (its wire answer, the signed session_data cookie, a
// presented session_data cookie's signature check, the JWT) beside the session: http/session-answers.ts.
// Nothing kept may outlive a change of the user, a cookie's expiry, or the session token it was made for.

/** The JSON inside a session_data value (base64url). */
function decodeDataCookie(value: string): { user: { name: string }; expiresAt: number } {
  return JSON.parse(Buffer.from(decodeURIComponent(value), "base64url").toString());
}

/** The payload of a compact JWT. */
function jwtPayload(token: string | null): { name?: string } {
  return JSON.parse(Buffer.from(String(token).split(".")[1] ?? "", "base64url").toString());
}

describeEachDialect("get-session's kept answers", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect, env: { AUTH_SESSION_COOKIE_CACHE: "on" } });
  });
  afterAll(() => t.close());

  const dataCookieSet = (setCookies: string[]) =>
    setCookies.find((cookie) => cookie.startsWith("better-auth.session_data="));

  it("answers a change of the user at once: body, session_data cookie and JWT", async () => {
    // Given a session asked for three times (the third answer is the kept one)
    const { agent } = await signUp(t);
    await agent.get("/get-session", { query: { disableCookieCache: true } });
    await agent.get("/get-session", { query: { disableCookieCache: true } });
    const before = await agent.get("/get-session", { query: { disableCookieCache: true } });
    expect(before.body.user.name).toBe("Test User");
    // When the user renames themselves, within the same second
    const renamed = await agent.post("/update-user", { name: "Grace" });
    expect(renamed.status).toBe(200);
    const after = await agent.get("/get-session", { query: { disableCookieCache: true } });
    // Then the answer, the cookie it renews and the JWT it hands out all carry the new name
    expect(after.body.user.name).toBe("Grace");
    expect(before.headers.get("content-type")).toBe("application/json");
    const cookie = dataCookieSet(after.setCookies);
    expect(cookie).toBeDefined();
    expect(decodeDataCookie(cookie!.split(";")[0]!.split("=").slice(1).join("=")).user.name).toBe("Grace");
    expect(jwtPayload(after.headers.get("set-auth-jwt")).name).toBe("Grace");
  });

  it("signs a fresh session_data copy once the kept one is a second old", async () => {
    // Given a session whose copy was just made
    const { agent } = await signUp(t);
    const dataValue = (setCookies: string[]) => dataCookieSet(setCookies)!.split(";")[0]!.split("=").slice(1).join("=");
    // (the first read keeps the session in memory, the second answers from there and keeps what it made)
    await agent.get("/get-session", { query: { disableCookieCache: true } });
    const kept = await agent.get("/get-session", { query: { disableCookieCache: true } });
    const keptExpiry = decodeDataCookie(dataValue(kept.setCookies)).expiresAt;
    // When it is asked again 5 s later
    t.clock.advance(5000);
    const later = await agent.get("/get-session", { query: { disableCookieCache: true } });
    // Then the copy it renews expires 5 s later too: the kept one was not handed out again
    expect(decodeDataCookie(dataValue(later.setCookies)).expiresAt).toBe(keptExpiry + 5000);
  });

  it("never serves a session_data copy past its signed expiry, though its signature was checked before", async () => {
    // Given a copy served from the cookie (no new one is set while it serves)
    const { agent, user } = await signUp(t);
    const served = await agent.get("/get-session");
    expect(served.body.user.id).toBe(user.id);
    expect(dataCookieSet(served.setCookies)).toBeUndefined();
    const expiresAt = decodeDataCookie(agent.cookie("session_data")!).expiresAt;
    // When the clock passes the copy's expiry, the same cookie presented again is not used: the session is read
    t.clock.advance(expiresAt - t.clock.now + 1);
    const read = await agent.get("/get-session");
    expect(read.body.user.id).toBe(user.id);
    expect(dataCookieSet(read.setCookies)).toBeDefined();
  });

  it("refuses another session's copy, checked and kept for its owner, and a forged copy each time", async () => {
    // Given the owner's copy, served to its owner (its signature checked and kept)
    const owner = await signUp(t);
    expect((await owner.agent.get("/get-session")).body.user.id).toBe(owner.user.id);
    const ownersCopy = owner.agent.cookie("session_data")!;
    // When another user presents it beside their own session token
    const other = await signUp(t);
    other.agent.jar.set("better-auth.session_data", ownersCopy);
    const answer = await other.agent.get("/get-session");
    // Then they get their own session, never the owner's
    expect(answer.body.user.id).toBe(other.user.id);
    // And a copy with a changed name is refused however often it is presented
    const forged = decodeDataCookie(ownersCopy);
    forged.user.name = "Mallory";
    owner.agent.jar.set("better-auth.session_data", Buffer.from(JSON.stringify(forged)).toString("base64url"));
    for (let i = 0; i < 3; i += 1) expect((await owner.agent.get("/get-session")).body.user.name).toBe("Test User");
  });

  it("keeps a session token's good signature, never a changed one: each is refused every time", async () => {
    // Given a session token whose signed cookie was presented (and its good signature kept)
    const { agent, user } = await signUp(t);
    for (let i = 0; i < 2; i += 1)
      expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body.user.id).toBe(user.id);
    const signed = decodeURIComponent(agent.cookie("session_token")!);
    const dot = signed.lastIndexOf(".");
    const signature = signed.slice(dot + 1);
    const other = (char: string | undefined) => (char === "A" ? "B" : "A");
    const flipped = `${other(signature[0])}${signature.slice(1)}`;
    const otherToken = `${signed.slice(0, dot - 1)}${other(signed[dot - 1])}`;
    // When the same token comes with another signature, or the signature under another token
    const forgeries = [`${signed.slice(0, dot)}.${flipped}`, `${otherToken}.${signature}`];
    for (const forged of forgeries) {
      agent.jar.set("better-auth.session_token", encodeURIComponent(forged));
      // Then no session is found, however often it is presented
      for (let i = 0; i < 3; i += 1)
        expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body).toBeNull();
      agent.jar.set("better-auth.session_token", encodeURIComponent(signed));
    }
    // And the good one still works
    expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body.user.id).toBe(user.id);
  });

  it("keeps a good signature for the context that checked it: another secret refuses the same cookie", async () => {
    // Given a session cookie checked and kept by this daemon
    const { agent, user } = await signUp(t);
    for (let i = 0; i < 2; i += 1) expect((await agent.get("/get-session")).body.user.id).toBe(user.id);
    // When a daemon in the same process, on the same database but with another secret, is handed it
    const other = await createTestContext({
      dialect,
      databaseURL: t.ctx.config.databaseURL,
      env: { AUTH_SECRET: "another-secret-0123456789-abcdefghijklmnopqrstuvwxyz-0123456789" },
    });
    try {
      const caller = other.agent();
      for (const [name, value] of agent.jar) caller.jar.set(name, value);
      const answer = await caller.get("/get-session");
      // Then it does not take the signature as checked: no session
      expect(answer.status).toBe(200);
      expect(answer.body).toBeNull();
      // (the same secret would have found it: the session is in that database)
      const same = await createTestContext({ dialect, databaseURL: t.ctx.config.databaseURL });
      const twin = same.agent();
      for (const [name, value] of agent.jar) twin.jar.set(name, value);
      expect((await twin.get("/get-session")).body.user.id).toBe(user.id);
      await same.close();
    } finally {
      await other.close();
    }
  });

  it("parses a query string once per route and still refuses a bad one every time", async () => {
    const { agent, user } = await signUp(t);
    for (let i = 0; i < 3; i += 1) {
      expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).body.user.id).toBe(user.id);
      const bad = await agent.get("/get-session", { query: { disableCookieCache: "perhaps" } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe("VALIDATION_ERROR");
    }
  });
});
