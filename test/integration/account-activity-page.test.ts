import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { BROWSER_ACCEPT, browse } from "../helpers/pages.ts";

// The account page's security activity ({pages}/activity): the user's own security events in words, newest
// first, with when (UTC), from which address and browser, and whether an operator did it; a page of 20 at a
// time. Nobody else's events, and nothing of an event's details beyond those.

const SECTION = "/account/activity";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** The sentences of the listed events, in the order shown. */
const sentences = (html: string) =>
  [...html.matchAll(/<p class="authd-item-name">([^<]*)<\/p>/g)].map((match) => match[1].replace(/&#x27;/g, "'"));

describe("the account page's security activity", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it("tells the user's own events in words, with the address and browser, and what an operator did", async () => {
    const user = await signUp(t);
    const other = await signUp(t);
    t.clock.advance(1000);
    const guesser = t.agent({ from: "203.0.113.7" });
    guesser.headers["user-agent"] = FIREFOX;
    const wrong = await guesser.post("/sign-in/email", { email: user.email, password: "not-the-password" });
    expect(wrong.status).toBe(401);
    t.clock.advance(1000);
    await t.server().post("/api-key/create", { userId: user.user.id, name: "from the server" });
    t.clock.advance(1000);
    await other.agent.post("/api-key/create", { name: "someone else's" });

    const page = await browse(user.agent, SECTION);
    expect(page.status).toBe(200);
    expect(sentences(page.text).slice(0, 2)).toEqual([
      "An API key was created.",
      "Someone tried to sign in to your account and failed.",
    ]);
    expect(sentences(page.text)).toContain("You created your account.");
    expect(sentences(page.text).filter((s) => s === "An API key was created.")).toHaveLength(1);
    expect(page.text).toContain("From 203.0.113.7 · Firefox on Linux");
    expect(page.text).toContain("Done by an administrator");
    const failed = new Date(t.clock.now - 2000).toISOString();
    expect(page.text).toContain(`<time dateTime="${failed}">${failed.slice(0, 16).replace("T", " ")} UTC</time>`);
    // The event's details (the key's id, the reason) are not shown.
    expect(page.text).not.toContain("invalid_credentials");
    expect(page.text).not.toContain("someone else");

    const german = await user.agent.get(SECTION, { headers: { accept: BROWSER_ACCEPT, "accept-language": "de" } });
    expect(german.text).toContain("Jemand hat vergeblich versucht, sich bei Ihrem Konto anzumelden.");
    expect(german.text).toContain("Von 203.0.113.7 · Firefox unter Linux");
  });

  it("shows 20 events a page, newest first, with links to older and newer ones", async () => {
    const { agent } = await signUp(t);
    for (let i = 0; i < 12; i++) {
      t.clock.advance(1000);
      const key = (await agent.post("/api-key/create", { name: `key-${i}` })).body as { id: string };
      t.clock.advance(1000);
      await agent.post("/api-key/delete", { keyId: key.id });
    }
    const total = (await agent.get("/list-security-events", { query: { limit: 1 } })).body.total as number;
    expect(total).toBeGreaterThan(24);
    const first = await browse(agent, SECTION);
    expect(sentences(first.text)).toHaveLength(20);
    expect(sentences(first.text)[0]).toBe("An API key was revoked.");
    expect(first.text).toContain(`1–20 of ${total}`);
    expect(first.text).toContain(`href="${SECTION}?page=2">Older</a>`);
    expect(first.text).not.toContain(">Newer</a>");
    const second = await browse(agent, `${SECTION}?page=2`);
    expect(sentences(second.text)).toHaveLength(total - 20);
    expect(sentences(second.text).at(-1)).toBe("You created your account.");
    expect(second.text).toContain(`href="${SECTION}">Newer</a>`);
    expect(second.text).not.toContain(">Older</a>");
    // A page number that is no number is the first page; one past the end lists nothing.
    for (const odd of ["abc", "-3", "0", "1.5"])
      expect(sentences((await browse(agent, `${SECTION}?page=${odd}`)).text)).toEqual(sentences(first.text));
    const beyond = await browse(agent, `${SECTION}?page=999999999`);
    expect(beyond.status).toBe(200);
    expect(sentences(beyond.text)).toEqual([]);
  });

  it("sends a signed-out browser through sign-in and back", async () => {
    const page = await browse(t.agent(), SECTION);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`/account/sign-in?redirect=${encodeURIComponent(SECTION)}`);
  });
});
