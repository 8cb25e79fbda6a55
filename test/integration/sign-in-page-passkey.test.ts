import { describe, expect, it } from "vitest";
import { createTestContext } from "../helpers/context.ts";
import { browse, PAGES, submitPage } from "../helpers/pages.ts";

// The sign-in page offers passkeys (with JavaScript: the browser bundle draws the button from the page's
// state) only when they are on and can work from the pages' origin: the rp id a domain the base URL lies
// in, and the base URL's origin among the origins a ceremony is accepted from. The server's HTML never
// holds the button, so without JavaScript the page is exactly the password form.

async function signInPage(env: Record<string, string>) {
  const t = await createTestContext({ env });
  try {
    const page = await browse(t.agent(), `${PAGES}/sign-in`);
    expect(page.status).toBe(200);
    const json = page.text.match(/<script type="application\/json" id="authd-state">([^<]*)<\/script>/)?.[1] ?? "{}";
    const state = JSON.parse(json) as { methods?: { passkey?: boolean } };
    return { html: page.text, passkey: state.methods?.passkey };
  } finally {
    await t.close();
  }
}

describe("pages: the sign-in page's passkeys", () => {
  it("offers passkeys by default (the base URL's origin is the relying party's), but never in the HTML itself", async () => {
    const { html, passkey } = await signInPage({});
    expect(passkey).toBe(true);
    expect(html).toMatch(/autocomplete="username webauthn"/i);
    expect(html).not.toContain("passkey</button>");
    expect(html).not.toContain("authd-passkey");
  });

  it("offers none when passkeys are off", async () => {
    expect((await signInPage({ AUTH_PASSKEY: "off" })).passkey).toBe(false);
  });

  it("offers none when the rp id would be an IP address, which browsers refuse", async () => {
    expect((await signInPage({ AUTH_BASE_URL: "http://127.0.0.1:3000" })).passkey).toBe(false);
  });

  it("offers none when the ceremony is accepted only from the app's origin, or the rp id does not cover the pages", async () => {
    expect((await signInPage({ AUTH_PASSKEY_ORIGIN: "http://app.localhost:3000" })).passkey).toBe(false);
    const elsewhere = { AUTH_BASE_URL: "https://auth.example.com", AUTH_PASSKEY_RP_ID: "example.org" };
    expect((await signInPage(elsewhere)).passkey).toBe(false);
  });

  it("offers them on a subdomain of the rp id when the pages' origin is listed beside the app's", async () => {
    const env = {
      AUTH_BASE_URL: "https://auth.example.com",
      AUTH_PASSKEY_RP_ID: "example.com",
      AUTH_PASSKEY_ORIGIN: "https://app.example.com,https://auth.example.com",
    };
    expect((await signInPage(env)).passkey).toBe(true);
  });

  it("a page refused with a problem still offers them", async () => {
    const t = await createTestContext();
    try {
      const res = await submitPage(t.agent(), "/sign-in", { identifier: "no@example.com", password: "wrong-password" });
      expect(res.status).toBe(401);
      expect(res.text).toContain('"passkey":true');
    } finally {
      await t.close();
    }
  });
});
