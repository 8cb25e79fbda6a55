import { describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { useMailContext } from "../helpers/mail-links.ts";
import { type Mailbox, startMailbox, verifyThroughMail } from "../helpers/mailbox.ts";
import { activeOrganizationId, ownerWithOrganization } from "../helpers/organization.ts";
import { alertText, browse, hiddenFields, pageForm, postForm } from "../helpers/pages.ts";

// The invitation page: {pages}/invitation/<id> shows an invitation only to its signed-in, verified
// recipient (as GET /organization/get-invitation does), and its Accept and Decline forms run the services of
// accept-invitation and reject-invitation. The attacker's side: another user's invitation, forged or missing
// form tokens, a foreign Origin, a replayed accept, HTML in an organization's name.

const INVITATION_LINK = /http:\/\/localhost:3000\/account\/invitation\/([A-Za-z0-9]+)/;
const SIGN_IN_FIRST = "Sign in or create an account to answer this invitation.";

describeEachDialect("the invitation page", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  async function verifiedUser() {
    const user = await signUp(t);
    await verifyThroughMail(mailbox, user.agent, user.email);
    return user;
  }

  /** An owner invites a verified user; the page path comes from the mailed link. */
  async function invited(organizationName = "Acme") {
    const owner = await ownerWithOrganization(t, organizationName);
    const invitee = await verifiedUser();
    const res = await owner.agent.post("/organization/invite-member", { email: invitee.email, role: "admin" });
    expect(res.status, res.text).toBe(200);
    const mail = await mailbox.waitFor(invitee.email, INVITATION_LINK);
    expect(mail.match[1]).toBe(res.body.id);
    return { owner, invitee, id: res.body.id as string, path: `/account/invitation/${res.body.id}` };
  }

  const statusOf = async (owner: { agent: Agent }, id: string) =>
    ((await owner.agent.get("/organization/list-invitations")).body as { id: string; status: string }[]).find(
      (i) => i.id === id,
    )?.status;

  const isMember = async (agent: Agent, organizationId: string) =>
    ((await agent.get("/organization/list")).body as { id: string }[]).some((o) => o.id === organizationId);

  it("tells a signed-out browser nothing of the invitation and offers sign-in and sign-up that come back", async () => {
    const { id, path } = await invited();
    const stranger = t.agent();
    const page = await browse(stranger, path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(SIGN_IN_FIRST);
    expect(page.text).not.toContain("Acme");
    expect(page.text).not.toContain("admin");
    const back = encodeURIComponent(path);
    expect(page.text).toContain(`href="/account/sign-in?redirect=${back}"`);
    expect(page.text).toContain(`href="/account/sign-up?redirect=${back}"`);
    // An unknown id draws the same page: signed out, nobody learns which ids exist.
    const unknown = await browse(stranger, "/account/invitation/nosuchinvitation");
    expect(unknown.text.replaceAll("nosuchinvitation", id).replace(/value="[^"]*"/g, "")).toBe(
      page.text.replace(/value="[^"]*"/g, ""),
    );
    // The query form works too, and the sign-in link's redirect is accepted as a return address.
    expect((await browse(stranger, `/account/invitation?id=${id}`)).text).toContain(SIGN_IN_FIRST);
    const signIn = await browse(stranger, `/account/sign-in?redirect=${back}`);
    expect(hiddenFields(signIn.text).redirect).toBe(path);
  });

  it("shows the invitee the organization, inviter and role, and accepting makes them a member", async () => {
    const { owner, invitee, path } = await invited();
    const page = await browse(invitee.agent, path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`${owner.email} invited you to join Acme as admin.`);
    const fields = await pageForm(invitee.agent, path);
    const accepted = await postForm(invitee.agent, "/invitation/accept", fields);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe("http://localhost:3000/account");
    expect(await isMember(invitee.agent, owner.organization.id)).toBe(true);
    expect(await activeOrganizationId(invitee.agent)).toBe(owner.organization.id);
    const role = await invitee.agent.get("/organization/get-active-member-role");
    expect(role.body).toEqual({ role: "admin" });

    // Replayed: the API's refusal, as a page, and still one membership.
    const replay = await postForm(invitee.agent, "/invitation/accept", fields);
    expect(replay.status).toBe(400);
    expect(alertText(replay)).toBe("This invitation does not exist, has expired, or has been answered already.");
    const members = await owner.agent.get("/organization/list-members");
    expect(members.body.total).toBe(2);
  });

  it("returns to a trusted address after accepting, and ignores an untrusted one", async () => {
    const trusted = await invited();
    const form = await pageForm(trusted.invitee.agent, `${trusted.path}?redirect=${encodeURIComponent("/welcome")}`);
    expect(form.redirect).toBe("/welcome");
    const accepted = await postForm(trusted.invitee.agent, "/invitation/accept", form);
    expect(accepted.headers.get("location")).toBe("/welcome");

    const untrusted = await invited();
    const evil = await pageForm(
      untrusted.invitee.agent,
      `${untrusted.path}?redirect=${encodeURIComponent("https://evil.example.net/")}`,
    );
    expect(evil.redirect).toBeUndefined();
    const posted = await postForm(untrusted.invitee.agent, "/invitation/accept", {
      ...evil,
      redirect: "//evil.example.net/",
    });
    expect(posted.headers.get("location")).toBe("http://localhost:3000/account");
  });

  it("declines: the invitation is rejected and a page says so", async () => {
    const { owner, invitee, id, path } = await invited();
    const declined = await postForm(invitee.agent, "/invitation/reject", await pageForm(invitee.agent, path));
    expect(declined.status).toBe(303);
    expect(declined.headers.get("location")).toBe(`${path}?done=rejected`);
    expect((await browse(invitee.agent, `${path}?done=rejected`)).text).toContain("You have declined the invitation.");
    expect(await statusOf(owner, id)).toBe("rejected");
    expect(await isMember(invitee.agent, owner.organization.id)).toBe(false);
  });

  it("shows another user's invitation to nobody else and lets nobody else answer it", async () => {
    const { owner, id, path } = await invited();
    const other = await verifiedUser();
    const page = await browse(other.agent, path);
    expect(page.status).toBe(403);
    expect(alertText(page)).toBe(
      "This invitation was sent to another email address. Sign in with the account of that address.",
    );
    expect(page.text).not.toContain("Acme");
    expect(page.text).not.toContain(owner.email);
    // A form of their own, with the victim's invitation id: refused as the API refuses it.
    const fields = { ...(await pageForm(other.agent, "/account/sign-in")), invitationId: id };
    for (const route of ["/invitation/accept", "/invitation/reject"]) {
      const posted = await postForm(other.agent, route, fields);
      expect(posted.status).toBe(403);
      expect(posted.text).not.toContain("Acme");
    }
    expect(await statusOf(owner, id)).toBe("pending");
    expect(await isMember(other.agent, owner.organization.id)).toBe(false);
  });

  it("refuses posts without the form token, with a forged one, from a foreign origin, and signed out", async () => {
    const { owner, invitee, id, path } = await invited();
    const fields = await pageForm(invitee.agent, path);
    const refusals = [
      await postForm(invitee.agent, "/invitation/accept", { ...fields, csrf: "" }),
      await postForm(invitee.agent, "/invitation/accept", { ...fields, csrf: `${fields.csrf.slice(0, -2)}xx` }),
      await postForm(invitee.agent, "/invitation/accept", fields, { origin: "https://evil.example.net" }),
      await postForm(invitee.agent, "/invitation/accept", fields, { origin: "null" }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    // A signed-out browser's own valid token (the signed-out page has no form; the sign-in page's token will
    // do): the page asks to sign in, nothing changes.
    const stranger = t.agent();
    expect(hiddenFields((await browse(stranger, path)).text).csrf).toBeUndefined();
    const strangerFields = { ...(await pageForm(stranger, "/account/sign-in")), invitationId: id };
    const signedOut = await postForm(stranger, "/invitation/accept", strangerFields);
    expect(signedOut.status).toBe(401);
    expect(signedOut.text).toContain(SIGN_IN_FIRST);
    expect(await statusOf(owner, id)).toBe("pending");
    expect(await isMember(invitee.agent, owner.organization.id)).toBe(false);
    // A GET answers nothing: only the posts settle an invitation.
    expect((await browse(invitee.agent, `/account/invitation/accept?invitationId=${id}`)).status).toBe(400);
    expect(await statusOf(owner, id)).toBe("pending");
  });

  it("renders HTML in an organization's name as text", async () => {
    const name = `<img src=x onerror=alert(1)><script>alert(2)</script>Evil & Co`;
    const { invitee, path } = await invited(name);
    const page = await browse(invitee.agent, path);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<img src=x");
    expect(page.text).not.toContain("<script>alert");
    expect(page.text).toContain("&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;Evil &amp; Co");
  });

  it("asks an invitee with an unconfirmed address to confirm it first, as the API does", async () => {
    const owner = await ownerWithOrganization(t);
    const invitee = await signUp(t);
    const res = await owner.agent.post("/organization/invite-member", { email: invitee.email, role: "member" });
    const path = `/account/invitation/${res.body.id}`;
    const page = await browse(invitee.agent, path);
    expect(page.status).toBe(403);
    expect(alertText(page)).toContain("Confirm your email address first");
    expect(page.text).not.toContain("Acme");
    const posted = await postForm(invitee.agent, "/invitation/accept", {
      ...(await pageForm(invitee.agent, "/account/sign-in")),
      invitationId: res.body.id,
    });
    expect(posted.status).toBe(403);
    expect(await statusOf(owner, res.body.id)).toBe("pending");
  });
});

describe("the invitation page's configuration", () => {
  it("with the pages off, mails the old link and serves no page", async () => {
    const mailbox = await startMailbox();
    const t = await createTestContext({ env: { AUTH_SMTP_URL: mailbox.url, AUTH_PAGES: "off" } });
    try {
      const owner = await ownerWithOrganization(t);
      await owner.agent.post("/organization/invite-member", { email: "old@example.com", role: "member" });
      const mail = await mailbox.waitFor(
        "old@example.com",
        /http:\/\/localhost:3000\/accept-invitation\/([A-Za-z0-9]+)/,
      );
      expect((await browse(owner.agent, `/account/invitation/${mail.match[1]}`)).status).toBe(404);
    } finally {
      await t.close();
      await mailbox.close();
    }
  });

  it("answers 404 with organizations off", async () => {
    const t = await createTestContext({ config: { organization: { enabled: false } } });
    try {
      expect((await browse(t.agent(), "/account/invitation/anything")).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
