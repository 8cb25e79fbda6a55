import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PasskeyItem } from "../../ui/web/state.ts";
import type { AgentResponse } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse, PAGES } from "../helpers/pages.ts";
import { passkeySignIn, registerPasskey } from "../helpers/passkeys.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";

// The account page's passkeys (/account/passkeys): the server lists them with when each was added and last
// signed in (recorded at passkey sign-in); the page's script adds, renames and removes through the API,
// whose routes refuse another user's passkey and a sign-in older than account.freshAge.

const SECTION = `${PAGES}/passkeys`;
const FRESH_AGE_MS = 600_000;

function passkeysOf(page: AgentResponse<string>): PasskeyItem[] {
  const json = page.text.match(/<script type="application\/json" id="authd-state">(.*?)<\/script>/)?.[1] ?? "{}";
  const state = JSON.parse(json);
  if (state.page !== "account-passkeys") throw new Error(`not the passkeys section (status ${page.status})`);
  return state.passkeys;
}

describeEachDialect("account page: passkeys", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  async function userWithPasskey(name: string) {
    const signedUp = await signUp(t);
    const authenticator = new SoftAuthenticator();
    const { verified } = await registerPasskey(signedUp.agent, authenticator, {}, name);
    expect(verified.status).toBe(200);
    return { ...signedUp, authenticator, passkeyId: verified.body.id as string };
  }

  it("lists the user's passkeys with when each was added and last signed in", async () => {
    const { passkeyId, authenticator, agent } = await userWithPasskey("work laptop");
    const added = t.clock.now;
    await userWithPasskey("someone else's");
    const page = await browse(agent, SECTION);
    expect(page.status).toBe(200);
    expect(passkeysOf(page)).toEqual([
      { id: passkeyId, name: "work laptop", createdAt: new Date(added).toISOString(), lastUsedAt: null },
    ]);
    expect(page.text).toContain("Not used to sign in yet");
    // Without JavaScript the page says what needs it instead of drawing controls that cannot work
    expect(page.text).toContain("Adding, renaming and removing passkeys needs JavaScript.");
    expect(page.text).not.toContain(">Rename<");

    t.clock.advance(60_000);
    const browser = t.agent();
    expect((await passkeySignIn(browser, authenticator)).verified.status).toBe(200);
    const used = passkeysOf(await browse(agent, SECTION));
    expect(used[0].lastUsedAt).toBe(new Date(t.clock.now).toISOString());
    expect((await browse(agent, SECTION)).text).toContain(
      `Last used: ${new Date(t.clock.now).toISOString().replace("T", " ").slice(0, 16)} UTC`,
    );
  });

  it("sends a signed-out browser through sign-in and back", async () => {
    const page = await browse(t.agent(), SECTION);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`${PAGES}/sign-in?redirect=${encodeURIComponent(SECTION)}`);
  });

  describe("attacker", () => {
    it("cannot rename or remove another user's passkey: refused, and nothing changes", async () => {
      const owner = await userWithPasskey("owner's key");
      const attacker = await signUp(t);
      const renamed = await attacker.agent.post("/passkey/update-passkey", { id: owner.passkeyId, name: "mine now" });
      expect(renamed.status).toBe(404);
      const removed = await attacker.agent.post("/passkey/delete-passkey", { id: owner.passkeyId });
      expect(removed.status).toBe(404);
      expect(passkeysOf(await browse(owner.agent, SECTION)).map((each) => each.name)).toEqual(["owner's key"]);
      expect((await passkeySignIn(t.agent(), owner.authenticator)).verified.status).toBe(200);
    });

    it("refuses adding and removing a passkey with a sign-in older than account.freshAge", async () => {
      const { agent, passkeyId } = await userWithPasskey("kept");
      const started = await signUp(t);
      const options = await started.agent.get("/passkey/generate-register-options");
      expect(options.status).toBe(200);
      t.clock.advance(FRESH_AGE_MS + 1000);

      // A ceremony begun while fresh cannot be finished once the sign-in is old
      const response = new SoftAuthenticator().register(options.body);
      const late = await started.agent.post("/passkey/verify-registration", { response, name: "late" });
      expect(late.status).toBe(403);
      expect(late.body.code).toBe("SESSION_IS_NOT_FRESH");
      expect(passkeysOf(await browse(started.agent, SECTION))).toEqual([]);

      const again = await started.agent.get("/passkey/generate-register-options");
      expect(again.status).toBe(403);
      expect(again.body.code).toBe("SESSION_IS_NOT_FRESH");
      const removed = await agent.post("/passkey/delete-passkey", { id: passkeyId });
      expect(removed.status).toBe(403);
      expect(removed.body.code).toBe("SESSION_IS_NOT_FRESH");
      expect(passkeysOf(await browse(agent, SECTION)).map((each) => each.id)).toEqual([passkeyId]);
      // Renaming changes no way in: an old sign-in may still do it
      expect((await agent.post("/passkey/update-passkey", { id: passkeyId, name: "renamed" })).status).toBe(200);
    });
  });
});

describe("account page: sections of features that are off", () => {
  it("is not there when passkeys are off, nor the second factor when two-factor is", async () => {
    const t = await createTestContext({ env: { AUTH_PASSKEY: "off", AUTH_TWO_FACTOR: "off" } });
    try {
      const { agent } = await signUp(t);
      expect((await browse(agent, SECTION)).status).toBe(404);
      expect((await browse(agent, `${PAGES}/second-factor`)).status).toBe(404);
      const profile = await browse(agent, PAGES);
      expect(profile.text).not.toContain(`href="${SECTION}"`);
      expect(profile.text).not.toContain(`href="${PAGES}/second-factor"`);
    } finally {
      await t.close();
    }
  });
});
