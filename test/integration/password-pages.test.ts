import { expect, it } from "vitest";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, mailedLink, pathOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { alertText, browse, formTokenOf, hiddenFields, postForm, submitPage } from "../helpers/pages.ts";

// Forgot and reset password as a browser without JavaScript uses them, and as an attacker tries them:
// forms without their token or from another site, a mailed link opened by a scanner, a replayed token,
// markup in every value the pages show again, and answers that must not tell known addresses from unknown.

const FOREIGN_ORIGINS = ["https://evil.example.com", "null"];

describeEachDialect("pages: forgot and reset password", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  const resetMails = (to: string) => mailbox.to(to).filter((mail) => mail.kind === "reset-password").length;
  const signsIn = async (email: string, password: string) =>
    (await t.agent().post("/sign-in/email", { email, password })).status === 200;

  /** The reset page a browser lands on from the link mailed to `email` (its path and query). */
  async function resetLanding(email: string): Promise<string> {
    const requested = await submitPage(t.agent(), "/forgot-password", { email });
    expect(requested.status).toBe(303);
    const link = await mailedLink(mailbox, email, "reset");
    const opened = await browse(t.agent(), pathOf(link));
    expect([302, 303]).toContain(opened.status);
    const landing = new URL(opened.headers.get("location") as string, "http://localhost:3000");
    expect(landing.pathname).toBe("/account/reset-password");
    return `${landing.pathname}${landing.search}`;
  }

  it("answers a known and an unknown address alike, and mails only the known one", async () => {
    const { email } = await signUp(t);
    const unknown = `nobody.${Date.now()}@example.com`;
    const known = await submitPage(t.agent(), "/forgot-password", { email });
    const stranger = await submitPage(t.agent(), "/forgot-password", { email: unknown });
    for (const answer of [known, stranger]) {
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe("/account/check-mail?kind=reset");
    }
    await mailedLink(mailbox, email, "reset");
    await t.ctx.settle();
    expect(mailCount(mailbox, unknown)).toBe(0);
  });

  it("lands the mailed link on a page that consumes nothing; its post sets the password once", async () => {
    const { email } = await signUp(t, { password: "first-password-123" });
    const landing = await resetLanding(email);
    const agent = t.agent();
    // A scanner opening the landing twice changes nothing: the token is still good afterwards.
    await browse(t.agent(), landing);
    const page = await browse(agent, landing);
    expect(page.status).toBe(200);
    const fields = hiddenFields(page.text);
    expect(fields.token).toBe(new URL(landing, "http://localhost:3000").searchParams.get("token"));
    expect(await signsIn(email, "first-password-123")).toBe(true);

    const reset = await postForm(agent, "/reset-password", { ...fields, password: "second-password-456" });
    expect(reset.status).toBe(303);
    expect(reset.headers.get("location")).toBe("/account/sign-in?notice=password-reset");
    expect(await signsIn(email, "second-password-456")).toBe(true);
    expect(await signsIn(email, "first-password-123")).toBe(false);

    // The same token again, from the same page, changes nothing.
    const replay = await postForm(agent, "/reset-password", { ...fields, password: "third-password-789" });
    expect(replay.status).toBe(400);
    expect(alertText(replay)).not.toBe("");
    expect(await signsIn(email, "third-password-789")).toBe(false);
  });

  it("refuses forgot and reset forms without this browser's token or from another site, and changes nothing", async () => {
    const { email } = await signUp(t, { password: "first-password-123" });
    const agent = t.agent();
    const csrf = await formTokenOf(agent, "/forgot-password");
    expect((await postForm(agent, "/forgot-password", { email })).status).toBe(403);
    const otherBrowser = await formTokenOf(t.agent(), "/forgot-password");
    expect((await postForm(agent, "/forgot-password", { csrf: otherBrowser, email })).status).toBe(403);
    for (const origin of FOREIGN_ORIGINS)
      expect((await postForm(agent, "/forgot-password", { csrf, email }, { origin })).status, origin).toBe(403);
    await t.ctx.settle();
    expect(resetMails(email)).toBe(0);

    const landing = await resetLanding(email);
    const fields = hiddenFields((await browse(agent, landing)).text);
    const password = "stolen-password-000";
    const { csrf: _dropped, ...withoutToken } = fields;
    expect((await postForm(agent, "/reset-password", { ...withoutToken, password })).status).toBe(403);
    for (const origin of FOREIGN_ORIGINS) {
      const refused = await postForm(agent, "/reset-password", { ...fields, password }, { origin });
      expect(refused.status, origin).toBe(403);
      expect(alertText(refused)).toBe("This form was sent from another site and was refused.");
    }
    expect(await signsIn(email, password)).toBe(false);
    // None of the refused posts spent the mailed token.
    const reset = await postForm(agent, "/reset-password", { ...fields, password: "second-password-456" });
    expect(reset.status).toBe(303);
    expect(await signsIn(email, "second-password-456")).toBe(true);
  });

  it("shows every value it reflects as text, never as markup", async () => {
    const hostile = `"><script>alert(1)</script><img src=x onerror=alert(1)>`;
    const agent = t.agent();
    const forgot = await submitPage(agent, "/forgot-password", { email: hostile });
    expect(forgot.status).toBe(400);
    const landing = await browse(agent, `/account/reset-password?token=${encodeURIComponent(hostile)}`);
    const failed = await browse(agent, `/account/reset-password?error=${encodeURIComponent(hostile)}`);
    for (const page of [forgot, landing, failed]) {
      expect(page.text).not.toContain("<script>alert(1)");
      expect(page.text).not.toContain("<img src=x");
    }
  });
});
