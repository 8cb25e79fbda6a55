import { expect, it } from "vitest";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { pathOf, requestDeletion as requestDeletionOf, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";
import { browse, hiddenFields, pageForm, postForm } from "../helpers/pages.ts";

// A delete-account link opened by a browser (Accept naming text/html) lands on a confirmation page that
// deletes nothing; only its button's post, from the signed-in owner, deletes. API clients keep the spec's answers.

const userExists = async (t: TestContext, id: string) =>
  (await t.ctx.db.selectFrom("user").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;

describeEachDialect("delete-account links opened in a browser", (dialect) => {
  let mailbox: Mailbox;
  let t: TestContext;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  const requestDeletion = (callbackURL?: string) => requestDeletionOf(t, mailbox, callbackURL);

  it("sends a browser's GET to the confirmation page and deletes nothing: the token works afterwards", async () => {
    const { agent, user, link, token } = await requestDeletion("/goodbye");
    const opened = await browse(agent, pathOf(link));
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/account/delete-account?token=${token}&redirect=%2Fgoodbye`);
    const page = await browse(agent, opened.headers.get("location") as string);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`This deletes the account ${user.email}`);
    expect(hiddenFields(page.text)).toMatchObject({ token, redirect: "/goodbye" });
    expect(await userExists(t, user.id)).toBe(true);

    // The same link, followed by an API client, still deletes as the spec says.
    const api = await agent.get(pathOf(link), { headers: { accept: "*/*" } });
    expect(api.status).toBe(302);
    expect(api.headers.get("location")).toBe("/goodbye");
    expect(await userExists(t, user.id)).toBe(false);
  });

  it("deletes on the page's post, signs the browser out and sends it on; a replay fails", async () => {
    const { agent, user, link } = await requestDeletion("/goodbye");
    const landing = (await browse(agent, pathOf(link))).headers.get("location") as string;
    const fields = await pageForm(agent, landing);
    const posted = await postForm(agent, "/account/delete-account", fields);
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/goodbye");
    expect(posted.setCookies.some((c) => c.startsWith("better-auth.session_token=;"))).toBe(true);
    expect(await userExists(t, user.id)).toBe(false);

    const other = await signUp(t);
    const replay = await postForm(other.agent, "/account/delete-account", {
      ...(await pageForm(other.agent, landing)),
      token: fields.token,
    });
    expect(replay.status).toBe(400);
    expect(replay.text).toContain("INVALID_TOKEN");
    expect(await userExists(t, other.user.id)).toBe(true);
  });

  it("ends on the deleted page without a callbackURL", async () => {
    const { agent, user, token } = await requestDeletion();
    const fields = await pageForm(agent, `/account/delete-account?token=${token}`);
    const posted = await postForm(agent, "/account/delete-account", fields);
    expect(posted.headers.get("location")).toBe("/account/delete-account?done=1");
    expect((await browse(agent, "/account/delete-account?done=1")).text).toContain("Your account has been deleted.");
    expect(await userExists(t, user.id)).toBe(false);
  });

  it("refuses a post without the form token or from a foreign origin, and deletes nothing", async () => {
    const { agent, user, link } = await requestDeletion("/goodbye");
    const fields = await pageForm(agent, (await browse(agent, pathOf(link))).headers.get("location") as string);
    const noToken = await postForm(agent, "/account/delete-account", { ...fields, csrf: "" });
    expect(noToken.status).toBe(403);
    const foreign = await postForm(agent, "/account/delete-account", fields, { origin: "https://evil.example.net" });
    expect(foreign.status).toBe(403);
    expect(await userExists(t, user.id)).toBe(true);
    expect((await postForm(agent, "/account/delete-account", fields)).status).toBe(303);
    expect(await userExists(t, user.id)).toBe(false);
  });

  it("asks a signed-out browser to sign in first and brings it back; another user's post deletes nothing", async () => {
    const { user, token, email, password } = await requestDeletion();
    const browser = t.agent();
    const page = await browse(browser, `/account/delete-account?token=${token}`);
    expect(page.status).toBe(200);
    const signIn = `/account/sign-in?redirect=${encodeURIComponent(`/account/delete-account?token=${token}`)}`;
    expect(page.text).toContain(`href="${signIn.replace(/&/g, "&amp;")}"`);
    expect(hiddenFields(page.text).token).toBeUndefined();
    // A post all the same (the form token from another page): still nothing without a session.
    const { csrf } = await pageForm(browser, "/account/sign-in");
    const signedOutPost = await postForm(browser, "/account/delete-account", { csrf, token });
    expect(signedOutPost.status).toBe(401);
    expect(await userExists(t, user.id)).toBe(true);

    const stranger = await signUp(t);
    const notTheirs = await postForm(stranger.agent, "/account/delete-account", {
      ...(await pageForm(stranger.agent, `/account/delete-account?token=${token}`)),
    });
    expect(notTheirs.status).toBe(400);
    expect(await userExists(t, user.id)).toBe(true);

    const signInFields = await pageForm(browser, signIn);
    const signedIn = await postForm(browser, "/account/sign-in", { ...signInFields, identifier: email, password });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe(`/account/delete-account?token=${token}`);
    const confirm = await pageForm(browser, `/account/delete-account?token=${token}`);
    expect((await postForm(browser, "/account/delete-account", confirm)).status).toBe(303);
    expect(await userExists(t, user.id)).toBe(false);
  });

  it("answers an API client's GET as before", async () => {
    const { agent, user, link } = await requestDeletion();
    const res = await agent.get(pathOf(link), { headers: { accept: "application/json" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(link.searchParams.get("callbackURL"));
    expect(await userExists(t, user.id)).toBe(false);
    const { agent: other, user: otherUser, token } = await requestDeletion();
    const json = await other.get(`/delete-user/callback?token=${token}`, { headers: { accept: "application/json" } });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ success: true, message: "User deleted" });
    expect(await userExists(t, otherUser.id)).toBe(false);
  });
});

describeEachDialect("delete-account page with deletion turned off", (dialect) => {
  let t: TestContext;
  useMailContext({ dialect, env: { AUTH_DELETE_USER: "off" } }, (ready) => ({ t } = ready));

  it("answers 404", async () => {
    expect((await browse(t.agent(), "/account/delete-account?token=abc")).status).toBe(404);
  });
});
