import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, hiddenFields, postForm } from "../helpers/pages.ts";
import { registerPasskey } from "../helpers/passkeys.ts";
import { SoftAuthenticator } from "../helpers/soft-authenticator.ts";
import { enrol, totp } from "../helpers/two-factor.ts";

// Issue 29, "a stale session refused for each sensitive action until it re-authenticates", in one place:
// with a sign-in older than account.freshAge, every sensitive change (email, password, second factor on and
// off, backup codes, passkey add and remove, API key create and delete) is sent through re-authentication
// on the account page and refused by its JSON route, and nothing changes; one re-authentication on
// /account/reauthenticate (the password, and the second factor where the account has one) and each goes
// through.

const ELEVEN_MINUTES = 11 * 60 * 1000;
const STALE = { status: 403, code: "SESSION_IS_NOT_FRESH" };

/** A form of the account page posted with its section's token; `section` is where it is drawn. */
async function sendForm(agent: Agent, section: string, action: string, fields: Record<string, string>) {
  return postForm(agent, action, { csrf: await formTokenOf(agent, section), ...fields });
}

const reauthenticationOf = (section: string) => `/account/reauthenticate?redirect=${encodeURIComponent(section)}`;

/** Re-authenticate with the password on the page, as the browser does; answers where it sends the browser. */
async function reauthenticate(agent: Agent, password: string): Promise<string> {
  const page = await browse(agent, reauthenticationOf("/account"));
  const answer = await postForm(agent, "/reauthenticate", { ...hiddenFields(page.text), password });
  expect(answer.status).toBe(303);
  return answer.headers.get("location") as string;
}

describe("sensitive changes from a stale sign-in", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { apiKey: { enabled: true } } });
  });
  afterAll(() => t.close());

  const refusal = (answer: { status: number; body: { code?: string } }) => ({
    status: answer.status,
    code: answer.body.code,
  });

  it("are refused on the page and the API until the account re-authenticates, then each goes through", async () => {
    const { agent, password, email } = await signUp(t);
    const key = (await agent.post("/api-key/create", { name: "kept" })).body as { id: string };
    await registerPasskey(agent, new SoftAuthenticator());
    const passkeyId = (await agent.get("/passkey/list-user-passkeys")).body[0].id as string;
    t.clock.advance(ELEVEN_MINUTES);

    const newEmail = `moved.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const forms: [string, string, Record<string, string>][] = [
      ["/account", "/email", { newEmail }],
      ["/account/second-factor", "/second-factor/enable", { password }],
      ["/account/api-keys", "/api-keys/create", { name: "late" }],
      ["/account/api-keys", "/api-keys/revoke", { keyId: key.id }],
      ["/account/password", "/password", { currentPassword: password, newPassword: "a-fresh-password-1" }],
    ];
    for (const [section, action, fields] of forms) {
      const sent = await sendForm(agent, section, action, fields);
      expect([action, sent.status, sent.headers.get("location")]).toEqual([action, 303, reauthenticationOf(section)]);
    }
    const api = [
      await agent.post("/change-email", { newEmail }),
      await agent.post("/change-password", { currentPassword: password, newPassword: "a-fresh-password-2" }),
      await agent.post("/two-factor/enable", { password }),
      await agent.post("/api-key/create", { name: "late" }),
      await agent.post("/api-key/delete", { keyId: key.id }),
      await agent.get("/passkey/generate-register-options"),
      await agent.post("/passkey/delete-passkey", { id: passkeyId }),
    ];
    expect(api.map(refusal)).toEqual(api.map(() => STALE));
    expect((await agent.get("/get-session")).body.user.email).toBe(email);
    expect((await agent.get("/api-key/list")).body).toHaveLength(1);
    expect((await agent.get("/passkey/list-user-passkeys")).body).toHaveLength(1);

    expect(await reauthenticate(agent, password)).toBe("/account?notice=notice.account.reauthenticated");
    expect((await sendForm(agent, "/account", "/email", { newEmail })).headers.get("location")).toMatch(/^\/account\?/);
    expect((await agent.get("/get-session")).body.user.email).toBe(newEmail);
    const created = await sendForm(agent, "/account/api-keys", "/api-keys/create", { name: "fresh" });
    expect(created.status).toBe(200);
    const revoked = await sendForm(agent, "/account/api-keys", "/api-keys/revoke", { keyId: key.id });
    expect(revoked.headers.get("location")).toMatch(/^\/account\/api-keys\?notice=/);
    expect(((await agent.get("/api-key/list")).body as { name: string }[]).map((k) => k.name)).toEqual(["fresh"]);
    expect((await agent.get("/passkey/generate-register-options")).status).toBe(200);
    expect((await agent.post("/passkey/delete-passkey", { id: passkeyId })).status).toBe(200);
    const enabling = await sendForm(agent, "/account/second-factor", "/second-factor/enable", { password });
    expect(enabling.status).toBe(200);
    expect(enabling.text).toContain("otpauth://totp/");
    const changed = await sendForm(agent, "/account/password", "/password", {
      currentPassword: password,
      newPassword: "a-fresh-password-3",
    });
    expect(changed.headers.get("location")).toMatch(/^\/account\/password\?notice=/);
  });

  it("with a second factor: new backup codes and turning it off wait for the password and the factor", async () => {
    const { agent, password } = await signUp(t);
    const { key } = await enrol(agent, password, t.clock.now);
    t.clock.advance(ELEVEN_MINUTES);
    for (const form of ["/second-factor/backup-codes", "/second-factor/disable"]) {
      const sent = await sendForm(agent, "/account/second-factor", form, { password });
      expect([form, sent.headers.get("location")]).toEqual([form, reauthenticationOf("/account/second-factor")]);
    }
    const api = [
      await agent.post("/two-factor/generate-backup-codes", { password }),
      await agent.post("/two-factor/disable", { password }),
    ];
    expect(api.map(refusal)).toEqual([STALE, STALE]);

    // The password alone is not the whole sign-in: the second-factor page finishes it.
    const next = await reauthenticate(agent, password);
    expect(next).toBe("/account/two-factor?redirect=%2Faccount");
    const challenge = hiddenFields((await browse(agent, next)).text);
    const verified = await postForm(agent, "/two-factor", { ...challenge, code: totp(key, t.clock.now) });
    expect([verified.status, verified.headers.get("location")]).toEqual([303, "/account"]);

    const codes = await sendForm(agent, "/account/second-factor", "/second-factor/backup-codes", { password });
    expect(codes.status).toBe(200);
    expect(codes.text).toContain("These are your new backup codes");
    const off = await sendForm(agent, "/account/second-factor", "/second-factor/disable", { password });
    expect(off.headers.get("location")).toMatch(/notice=notice\.account\.twoFactorOff$/);
  });
});
