import { describe, expect, it } from "vitest";
import { signUp, TEST_ORIGIN, type TestContext } from "../helpers/context.ts";
import { mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";

// AUTH_APP_URL: where mailed links land when the app named no callbackURL, and where the error page's
// link goes. GET / on the daemon is a small page instead of a JSON 404.

const APP_URL = "http://localhost:5173/home";

async function pageAt(t: TestContext, path: string): Promise<{ status: number; html: string; csp: string | null }> {
  const res = await t.app.request(`http://localhost${path}`);
  return { status: res.status, html: await res.text(), csp: res.headers.get("content-security-policy") };
}

describe("AUTH_APP_URL set", () => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ env: { AUTH_APP_URL: APP_URL } }, (ready) => ({ t, mailbox } = ready));

  it("makes the app the callbackURL of a verification link mailed on a plain sign-up, and the link lands there", async () => {
    const { agent, email } = await signUp(t);
    const link = await mailedLink(mailbox, email, "verify");
    expect(link.searchParams.get("callbackURL")).toBe(APP_URL);
    const followed = await agent.get(pathOf(link));
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe(APP_URL);
  });

  it("makes the app the callbackURL of reset and delete-account links", async () => {
    const { agent, email } = await signUp(t);
    await t.agent().post("/request-password-reset", { email });
    const reset = await mailedLink(mailbox, email, "reset");
    expect(reset.searchParams.get("callbackURL")).toBe(APP_URL);
    const landed = await t.agent().get(pathOf(reset));
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toMatch(/^http:\/\/localhost:5173\/home\?token=/);

    await agent.post("/delete-user", {});
    const deletion = await mailedLink(mailbox, email, "delete");
    expect(deletion.searchParams.get("callbackURL")).toBe(APP_URL);
  });

  it("points the error page's link at the app", async () => {
    const page = await pageAt(t, "/api/auth/error?error=state_mismatch");
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<a href="${APP_URL}">Go back</a>`);
  });

  it("trusts the app's origin for redirects, but no other origin", async () => {
    const trusted = await t.agent().post("/sign-in/social", { provider: "nope", callbackURL: `${APP_URL}/x` });
    expect(trusted.body.code).not.toBe("INVALID_CALLBACK_URL");
    const refused = await t.agent().post("/request-password-reset", {
      email: "a@example.com",
      redirectTo: "http://localhost:5174/home",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("INVALID_REDIRECTURL");
  });
});

describe("AUTH_APP_URL unset", () => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({}, (ready) => ({ t, mailbox } = ready));

  it("sends mailed links back to the daemon's own page, which answers HTML instead of a JSON 404", async () => {
    const { agent, email } = await signUp(t);
    const link = await mailedLink(mailbox, email, "verify");
    expect(link.searchParams.get("callbackURL")).toBe(TEST_ORIGIN);
    const followed = await agent.get(pathOf(link));
    expect(followed.headers.get("location")).toBe(TEST_ORIGIN);

    const home = await pageAt(t, "/");
    expect(home.status).toBe(200);
    expect(home.html).toContain("authentication service");
    expect(home.html).toContain('href="/api/reference"');
    expect(home.html).toContain('href="/api/auth/ok"');
    expect(home.html).toContain('href="/api/auth/ready"');
    expect(home.html).not.toContain("<script");
    expect(home.csp).toBe("default-src 'none'; style-src 'unsafe-inline'");
  });

  it("points the error page's link at the base URL and still escapes the code", async () => {
    const page = await pageAt(t, `/api/auth/error?error=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(page.html).toContain(`<a href="${TEST_ORIGIN}">Go back</a>`);
    expect(page.html).not.toContain("<script>");
  });

  it("answers other unknown paths with the JSON 404 as before", async () => {
    const res = await t.app.request("http://localhost/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: "NOT_FOUND", message: "Not Found" });
  });
});
