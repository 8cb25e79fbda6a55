import { expect, it } from "vitest";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";

// Where a magic link returns: like verification and reset links, to AUTH_APP_URL when the app named no
// callbackURL, and relative targets on the app's origin (authd has no page at /dashboard). Untrusted
// targets stay refused whatever AUTH_APP_URL is.

const APP_URL = "http://localhost:5173/home";

describeEachDialect("magic link return addresses with AUTH_APP_URL", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext(
    { dialect, env: { AUTH_MAGIC_LINK: "on", AUTH_APP_URL: APP_URL } },
    (ready) => ({ t, mailbox } = ready),
  );

  async function sendLink(email: string, body: Record<string, string> = {}) {
    await t.ctx.settle();
    const seen = mailCount(mailbox, email);
    const res = await t.agent().post("/sign-in/magic-link", { email, ...body });
    expect(res.status).toBe(200);
    return mailedLink(mailbox, email, "magicLink", seen);
  }

  it("sends a link named with no callbackURL back to the app, signed in", async () => {
    const account = await signUp(t);
    const link = await sendLink(account.email);
    expect(link.searchParams.get("callbackURL")).toBe(APP_URL);
    const browser = t.agent();
    const followed = await browser.get(pathOf(link));
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe(APP_URL);
    expect((await browser.get("/get-session")).body.user.id).toBe(account.user.id);
    const replay = await t.agent().get(pathOf(link));
    expect(replay.headers.get("location")).toBe(`${APP_URL}?error=INVALID_TOKEN`);
  });

  it("resolves relative callbackURL, newUserCallbackURL and errorCallbackURL on the app's origin", async () => {
    const callbacks = { callbackURL: "/dashboard", newUserCallbackURL: "/welcome", errorCallbackURL: "/oops" };
    const newcomer = "newcomer.app-url@example.com";
    const first = await sendLink(newcomer, callbacks);
    expect((await t.agent().get(pathOf(first))).headers.get("location")).toBe("http://localhost:5173/welcome");
    expect((await t.agent().get(pathOf(first))).headers.get("location")).toBe(
      "http://localhost:5173/oops?error=INVALID_TOKEN",
    );
    const second = await sendLink(newcomer, callbacks);
    expect((await t.agent().get(pathOf(second))).headers.get("location")).toBe("http://localhost:5173/dashboard");
  });

  it("keeps a trusted absolute callbackURL as given", async () => {
    const account = await signUp(t);
    const link = await sendLink(account.email, { callbackURL: "http://localhost:3000/elsewhere" });
    expect((await t.agent().get(pathOf(link))).headers.get("location")).toBe("http://localhost:3000/elsewhere");
  });

  it("still refuses untrusted targets, off-origin tricks included, and leaves the link usable", async () => {
    const account = await signUp(t);
    const hostile = ["https://evil.example/x", "//evil.example/x", "/\\evil.example/x", "http://localhost:5174/home"];
    for (const url of hostile) {
      const sent = await t.agent().post("/sign-in/magic-link", { email: account.email, callbackURL: url });
      expect(sent.status).toBe(403);
    }
    const link = await sendLink(account.email);
    for (const field of ["callbackURL", "newUserCallbackURL", "errorCallbackURL"])
      for (const url of hostile) {
        const res = await t.agent().get("/magic-link/verify", {
          query: { token: link.searchParams.get("token") as string, callbackURL: "/ok", [field]: url },
        });
        expect(res.status).toBe(403);
        expect(res.headers.get("location")).toBeNull();
      }
    const ok = await t.agent().get(pathOf(link));
    expect(ok.headers.get("location")).toBe(APP_URL);
  });
});
