import { expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { alertText, BROWSER_ACCEPT, browse, formTokenOf, hiddenFields, postForm } from "../helpers/pages.ts";

// The account page's own sections without JavaScript (plain form posts to their page routes, 303 and a
// notice after each): the profile and the email address, the password, the sessions and deleting the
// account; and the attacker's side: a stale sign-in sent to re-authentication, another user's session,
// HTML in the name, forms without their token or from a foreign origin.

const ELEVEN_MINUTES = 11 * 60 * 1000;
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** Post a section's form with the token of the section's page (`page`: where the form is drawn). */
async function sendForm(agent: Agent, page: string, action: string, fields: Record<string, string> = {}) {
  return postForm(agent, action, { csrf: await formTokenOf(agent, page), ...fields });
}

describeEachDialect("the account page's sections without JavaScript", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  const userRow = (id: string) => t.ctx.db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
  const sessionCount = async (userId: string) =>
    (await t.ctx.db.selectFrom("session").select("id").where("userId", "=", userId).execute()).length;
  const signInStatus = async (email: string, password: string) =>
    (await t.agent().post("/sign-in/email", { email, password })).status;

  it("sends a signed-out browser through sign-in and back to the section it asked for", async () => {
    const agent = t.agent();
    for (const section of ["", "/password", "/sessions", "/delete"]) {
      const page = await browse(agent, `/account${section}`);
      expect([page.status, page.headers.get("location")]).toEqual([
        302,
        `/account/sign-in?redirect=${encodeURIComponent(`/account${section}`)}`,
      ]);
    }
  });

  it("saves the name and picture, and shows HTML in the name as text", async () => {
    const { agent, user } = await signUp(t);
    const name = `<img src=x onerror="alert(1)"> Ada`;
    const saved = await sendForm(agent, "/account", "/profile", { name, image: "https://cdn.example.com/ada.png" });
    expect([saved.status, saved.headers.get("location")]).toEqual([303, "/account?notice=notice.account.profileSaved"]);
    expect(await userRow(user.id)).toMatchObject({ name, image: "https://cdn.example.com/ada.png" });
    const notice = { notice: "notice.account.profileSaved" };
    const page = await agent.get("/account", { query: notice, headers: { accept: BROWSER_ACCEPT } });
    expect(page.text).toContain("Your profile is saved.");
    expect(page.text).toContain("&lt;img src=x onerror=");
    expect(page.text).not.toContain("<img src=x");

    // Only http(s) pictures: nothing else is stored.
    const hostile = await sendForm(agent, "/account", "/profile", { name: "Ada", image: "javascript:alert(1)" });
    expect(hostile.status).toBe(400);
    expect(hostile.text).toContain("Enter a web address that starts with https:// or http://.");
    expect((await userRow(user.id))?.image).toBe("https://cdn.example.com/ada.png");
  });

  it("mails the confirmation link again, and changes an unconfirmed address at once", async () => {
    const { agent, email, user } = await signUp(t);
    await t.ctx.settle();
    const before = mailCount(mailbox, email);
    const resent = await sendForm(agent, "/account", "/email/verify");
    expect(resent.headers.get("location")).toBe("/account?notice=notice.account.verificationSent");
    await t.ctx.settle();
    await expect.poll(() => mailCount(mailbox, email)).toBe(before + 1);

    const moved = `moved.${Date.now()}@example.com`;
    const changed = await sendForm(agent, "/account", "/email", { newEmail: moved });
    expect(changed.headers.get("location")).toBe("/account?notice=notice.account.emailChanged");
    expect((await userRow(user.id))?.email).toBe(moved);
    const taken = await sendForm(agent, "/account", "/email", { newEmail: (await signUp(t)).email });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain("aria-invalid");
  });

  it("sends a stale sign-in to re-authentication for the email and the password, and changes nothing", async () => {
    const { agent, email, password, user } = await signUp(t);
    t.clock.advance(ELEVEN_MINUTES);
    const emailChange = await sendForm(agent, "/account", "/email", { newEmail: `stale.${Date.now()}@example.com` });
    expect([emailChange.status, emailChange.headers.get("location")]).toEqual([
      303,
      "/account/reauthenticate?redirect=%2Faccount",
    ]);
    const passwordChange = await sendForm(agent, "/account/password", "/password", {
      currentPassword: password,
      newPassword: "a-stale-new-password",
    });
    expect(passwordChange.headers.get("location")).toBe("/account/reauthenticate?redirect=%2Faccount%2Fpassword");
    expect(await signInStatus(email, password)).toBe(200);
    // An account without a password sets a first one only with a fresh sign-in too.
    await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
    const firstPassword = await sendForm(agent, "/account/password", "/password/set", {
      newPassword: "stale-first-pass",
    });
    expect(firstPassword.headers.get("location")).toBe("/account/reauthenticate?redirect=%2Faccount%2Fpassword");
    expect(await signInStatus(email, "stale-first-pass")).toBe(401);
    expect((await userRow(user.id))?.email).toBe(email);
  });

  it("changes the password and signs every other session out, keeping this browser signed in", async () => {
    const { agent, email, password, user } = await signUp(t);
    const elsewhere = t.agent();
    expect((await elsewhere.post("/sign-in/email", { email, password })).status).toBe(200);
    const wrong = await sendForm(agent, "/account/password", "/password", {
      currentPassword: "not-the-password",
      newPassword: "brand-new-password",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("The password is not right.");
    const changed = await sendForm(agent, "/account/password", "/password", {
      currentPassword: password,
      newPassword: "brand-new-password",
      revokeOtherSessions: "on",
    });
    expect(changed.headers.get("location")).toBe("/account/password?notice=notice.account.passwordChangedSignedOut");
    expect((await elsewhere.get("/get-session")).body).toBeNull();
    expect((await agent.get("/get-session")).body.user.id).toBe(user.id);
    expect(await signInStatus(email, password)).toBe(401);
    expect(await signInStatus(email, "brand-new-password")).toBe(200);
  });

  it("sets a first password for an account without one, once", async () => {
    const { agent, email, user } = await signUp(t);
    await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
    const page = await browse(agent, "/account/password");
    expect(page.text).toContain("Your account has no password");
    const set = await sendForm(agent, "/account/password", "/password/set", { newPassword: "first-password-here" });
    expect(set.headers.get("location")).toBe("/account/password?notice=notice.account.passwordSet");
    expect(await signInStatus(email, "first-password-here")).toBe(200);
    const again = await sendForm(agent, "/account/password", "/password/set", { newPassword: "second-password-x" });
    expect(again.status).toBe(400);
    expect(alertText(again)).toBe("Your account has a password already.");
  });

  it("lists the sessions with their device, marks this browser, and signs one, the others or all out", async () => {
    const { agent, email, password, user } = await signUp(t);
    const [laptop, phone] = [t.agent(), t.agent()];
    laptop.headers["user-agent"] = FIREFOX_ON_WINDOWS;
    for (const other of [laptop, phone]) await other.post("/sign-in/email", { email, password });
    const page = await browse(agent, "/account/sessions");
    expect(page.text).toContain("Firefox on Windows");
    expect(page.text.match(/This browser/g)).toHaveLength(1);
    const handles = [...page.text.matchAll(/name="session" value="([^"]+)"/g)].map((match) => match[1]);
    expect(handles).toHaveLength(2);

    const one = await sendForm(agent, "/account/sessions", "/sessions/revoke", { session: handles[0] as string });
    expect(one.headers.get("location")).toBe("/account/sessions?notice=notice.account.sessionRevoked");
    expect(await sessionCount(user.id)).toBe(2);
    const others = await sendForm(agent, "/account/sessions", "/sessions/revoke-others");
    expect(others.headers.get("location")).toBe("/account/sessions?notice=notice.account.otherSessionsRevoked");
    expect(await sessionCount(user.id)).toBe(1);
    expect((await agent.get("/get-session")).body.user.id).toBe(user.id);
    const all = await sendForm(agent, "/account/sessions", "/sessions/revoke-all");
    expect(all.headers.get("location")).toBe("/account/signed-out");
    expect(await sessionCount(user.id)).toBe(0);
    expect(agent.cookie("session_token")).toBeUndefined();
  });

  it("refuses another user's session handle and leaves that session alone", async () => {
    const victim = await signUp(t);
    const handle = (await victim.agent.get("/list-sessions")).body[0].token as string;
    const attacker = await signUp(t);
    const refused = await sendForm(attacker.agent, "/account/sessions", "/sessions/revoke", { session: handle });
    expect(refused.status).toBe(401);
    expect(alertText(refused)).toBe("That is not yours to change.");
    expect((await victim.agent.get("/get-session")).body.user.id).toBe(victim.user.id);
  });

  it("asks for the password and a tick, then mails the link that confirms the deletion", async () => {
    const { agent, email, password, user } = await signUp(t);
    const unticked = await sendForm(agent, "/account/delete", "/delete", { password });
    expect(unticked.status).toBe(400);
    expect(unticked.text).toContain("Tick the box to confirm");
    const wrong = await sendForm(agent, "/account/delete", "/delete", { password: "not-it-at-all", confirm: "on" });
    expect(wrong.status).toBe(400);
    await t.ctx.settle();
    const before = mailCount(mailbox, email);
    const asked = await sendForm(agent, "/account/delete", "/delete", { password, confirm: "on" });
    expect(asked.headers.get("location")).toBe("/account/delete?notice=notice.account.deletionMailed");
    await t.ctx.settle();
    await expect.poll(() => mailCount(mailbox, email)).toBe(before + 1);
    expect(await userRow(user.id)).toBeDefined();
  });

  it("refuses every form without its token or from a foreign origin, and runs none of them", async () => {
    const { agent, email, password, user } = await signUp(t);
    const elsewhere = t.agent();
    await elsewhere.post("/sign-in/email", { email, password });
    const mine = (await agent.get("/get-session")).body.session.id as string;
    const listed = (await elsewhere.get("/list-sessions")).body as { token: string; id: string }[];
    const handle = listed.find((row) => row.id !== mine)?.token as string;
    const forms: [string, string, Record<string, string>][] = [
      ["/account", "/profile", { name: "Mallory" }],
      ["/account", "/email", { newEmail: `forged.${Date.now()}@example.com` }],
      ["/account", "/email/verify", {}],
      ["/account/password", "/password", { currentPassword: password, newPassword: "forged-password-1" }],
      ["/account/password", "/password/set", { newPassword: "forged-password-2" }],
      ["/account/sessions", "/sessions/revoke", { session: handle }],
      ["/account/sessions", "/sessions/revoke-others", {}],
      ["/account/sessions", "/sessions/revoke-all", {}],
      ["/account/delete", "/delete", { password, confirm: "on" }],
    ];
    for (const [page, action, fields] of forms) {
      const csrf = hiddenFields((await browse(agent, page)).text).csrf as string;
      const noToken = await postForm(agent, action, { ...fields, csrf: "" });
      expect([action, noToken.status]).toEqual([action, 403]);
      const foreign = await postForm(agent, action, { ...fields, csrf }, { origin: "https://evil.example.net" });
      expect([action, foreign.status]).toEqual([action, 403]);
    }
    expect(await userRow(user.id)).toMatchObject({ name: "Test User", email });
    expect(await sessionCount(user.id)).toBe(2);
    expect(await signInStatus(email, password)).toBe(200);
  });
});
