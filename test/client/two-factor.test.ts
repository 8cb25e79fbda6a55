import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthClient, isTwoFactorRedirect } from "../../src/client/index.ts";
import { keyOf, totp } from "../helpers/two-factor.ts";
import { browserLikeFetch, type RunningAuthd, startAuthd, uniqueEmail } from "./helpers.ts";

describe("authd/client: two-factor against a running authd", () => {
  let authd: RunningAuthd;
  beforeAll(async () => {
    authd = await startAuthd();
  });
  afterAll(async () => {
    await authd?.close();
  });

  function newClient(onTwoFactorRedirect?: () => void) {
    const browser = browserLikeFetch();
    return createAuthClient({
      baseURL: authd.url,
      fetchOptions: { customFetchImpl: browser.fetch },
      onTwoFactorRedirect,
    });
  }

  it("enrols with twoFactor.*, then tells a two-factor-pending sign-in apart until a code completes it", async () => {
    const email = uniqueEmail();
    const password = "correct-horse-battery";
    const owner = newClient();
    await owner.signUp.email({ name: "Ada", email, password });
    const enabled = await owner.twoFactor.enable({ password });
    expect(enabled.data?.backupCodes).toHaveLength(10);
    const key = keyOf(enabled.data?.totpURI ?? "");
    const turnedOn = await owner.twoFactor.verifyTotp({ code: totp(key, Date.now()) });
    expect(turnedOn.error).toBeNull();
    expect((await owner.getSession({ query: { disableCookieCache: true } })).data?.user.twoFactorEnabled).toBe(true);

    let redirected = 0;
    const client = newClient(() => {
      redirected += 1;
    });
    const stop = client.useSession.listen(() => {});
    try {
      const signedIn = await client.signIn.email({ email, password });
      expect(isTwoFactorRedirect(signedIn.data)).toBe(true);
      expect(redirected).toBe(1);
      expect(client.useSession.get().twoFactorPending).toBe(true);
      expect((await client.getSession()).data).toBeNull();

      const wrong = await client.twoFactor.verifyTotp({ code: "00000" });
      expect(wrong.error?.status).toBe(401);
      expect(client.useSession.get().twoFactorPending).toBe(true);

      const verified = await client.twoFactor.verifyBackupCode({ code: enabled.data?.backupCodes[0] ?? "" });
      expect(verified.error).toBeNull();
      expect(client.useSession.get().twoFactorPending).toBe(false);
      expect((await client.getSession()).data?.user.email).toBe(email);
    } finally {
      stop();
    }
  });

  it("a user without two-factor signs in as before: no redirect, nothing pending", async () => {
    const email = uniqueEmail();
    await newClient().signUp.email({ name: "Grace", email, password: "correct-horse-battery" });
    const client = newClient(() => {
      throw new Error("not a two-factor sign-in");
    });
    const signedIn = await client.signIn.email({ email, password: "correct-horse-battery" });
    expect(isTwoFactorRedirect(signedIn.data)).toBe(false);
    expect(client.useSession.get().twoFactorPending).toBe(false);
  });
});
