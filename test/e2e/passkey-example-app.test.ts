import { mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAuthd, startAuthd } from "../client/helpers.ts";
import { ARTIFACTS_DIR, addVirtualAuthenticator, launchChromium, shoot } from "../helpers/browser.ts";
import { buildExampleApp, collectProblems, serveStatic, signUpInExampleApp } from "../helpers/example-app.ts";

// A passkey registered and used in headless Chromium: the example React app signs up with a password,
// adds a passkey through Better Auth's passkeyClient (a DevTools virtual authenticator answers the
// browser's WebAuthn calls), signs out, and signs back in with the passkey alone. Everything is on
// localhost, the only host name Chromium accepts as a WebAuthn rp id over plain http.

describe("passkeys in the example React app in headless Chromium", () => {
  let authd: RunningAuthd;
  let site: { server: Server; origin: string };
  let browser: Browser;

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), "authd-passkey-example-"));
    site = await serveStatic(join(work, "site"), "localhost");
    authd = await startAuthd({
      env: {
        AUTH_TRUSTED_ORIGINS: site.origin,
        AUTH_PASSKEY_RP_ID: "localhost",
        AUTH_PASSKEY_ORIGIN: site.origin,
      },
    });
    buildExampleApp(work, `http://localhost:${authd.port}`);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await authd?.close();
  });

  it("registers a passkey, signs out, and signs back in with it through passkeyClient", async () => {
    const page = await browser.newPage();
    const problems = collectProblems(page);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    const email = `passkey.${Date.now().toString(36)}@example.com`;

    // Given a user signed up with a password
    await signUpInExampleApp(page, site.origin, { name: "Passkey User", email });

    // When they add a passkey, the authenticator holds a discoverable credential and authd stores it
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByTestId("passkeys").waitFor();
    expect(await page.getByTestId("passkeys").textContent()).toBe("Passkeys: example passkey");
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);
    expect(credentials[0].rpId).toBe("localhost");
    const user = await authd.t.ctx.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const stored = await authd.t.ctx.db.selectFrom("passkey").selectAll().where("userId", "=", user.id).execute();
    expect(stored).toHaveLength(1);
    expect(Buffer.from(stored[0].credentialID, "base64url")).toEqual(
      Buffer.from(credentials[0].credentialId, "base64"),
    );
    await shoot(page, { path: join(ARTIFACTS_DIR, "passkey-added.png") });

    // Then, signed out, the passkey alone signs them back in (no email typed: a discoverable credential)
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("Signed out").waitFor();
    await page.getByRole("button", { name: "Continue with a passkey" }).click();
    await page.getByTestId("user-email").waitFor();
    expect(await page.getByTestId("user-email").textContent()).toBe(email);
    await page.reload();
    await page.getByTestId("user-email").waitFor();
    await shoot(page, { path: join(ARTIFACTS_DIR, "passkey-signed-in.png") });
    const sessions = await authd.t.ctx.db.selectFrom("session").select("id").where("userId", "=", user.id).execute();
    expect(sessions).toHaveLength(1); // sign-out ended the sign-up's session; this one is the passkey's
    expect(problems).toEqual([]);
    await page.close();
  });
});
