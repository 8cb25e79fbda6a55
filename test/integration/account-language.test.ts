import { describe, expect, it } from "vitest";
import type { Agent } from "../helpers/agent.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { consoleUser } from "../helpers/console.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { mailCount, useMailContext } from "../helpers/mail-links.ts";
import type { CapturedMail, Mailbox } from "../helpers/mailbox.ts";
import { ownerWithOrganization } from "../helpers/organization.ts";
import { BROWSER_ACCEPT, formTokenOf, postForm } from "../helpers/pages.ts";

// Issues 28 and 31: the language a user chooses on the account page (user.language) comes before the
// browser's Accept-Language on the pages they see signed in and in the mails authd sends them, and never
// shows on Better Auth's wire. The attacker's side: forged token, foreign origin, signed out, a language
// the catalogue does not ship.

/** The language form posted from the account page, with that page's token. */
async function chooseLanguage(agent: Agent, language: string, headers: Record<string, string> = {}) {
  return postForm(agent, "/language", { csrf: await formTokenOf(agent, "/account"), language }, headers);
}

/** A page as a browser asking for `acceptLanguage` loads it. */
const load = (agent: Agent, path: string, acceptLanguage: string) =>
  agent.get(path, { headers: { accept: BROWSER_ACCEPT, "accept-language": acceptLanguage } });

/** The language a page is drawn in (its <html lang>). */
const langOf = (html: string) => html.match(/<html lang="([^"]+)"/)?.[1];

/** get-session's user keys with the tests' plugins (admin, username, two-factor): Better Auth's, none of authd's. */
const WIRE_USER_KEYS = [
  ...["banExpires", "banReason", "banned", "createdAt", "displayUsername", "email", "emailVerified", "id"],
  ...["image", "name", "role", "twoFactorEnabled", "updatedAt", "username"],
];

describeEachDialect("the user's own language on the account page", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext(
    { dialect, env: { AUTH_APP_NAME: "Acme" }, config: { organization: { enabled: true } } },
    (ready) => ({ t, mailbox } = ready),
  );

  const languageOf = async (id: string) =>
    (await t.ctx.db.selectFrom("user").select("language").where("id", "=", id).executeTakeFirstOrThrow()).language;

  it("offers the browser's language and each shipped one in its own words, the browser's chosen at first", async () => {
    const { agent } = await signUp(t);
    const page = await load(agent, "/account", "en");
    expect(page.text).toContain('<option value="" selected="">Browser default</option>');
    expect(page.text).toContain('<option value="en" lang="en">English</option>');
    expect(page.text).toContain('<option value="de" lang="de">Deutsch</option>');
    const german = await load(agent, "/account", "de");
    expect(german.text).toContain("Browser-Standard</option>");
    expect(german.text).toContain('<option value="en" lang="en">English</option>');
  });

  it("saves German, then draws the account page in German whatever the browser asks, and records the change", async () => {
    const { agent, user } = await signUp(t);
    const saved = await chooseLanguage(agent, "de");
    expect([saved.status, saved.headers.get("location")]).toEqual([
      303,
      "/account?notice=notice.account.languageSaved",
    ]);
    expect(await languageOf(user.id)).toBe("de");
    const page = await load(agent, "/account?notice=notice.account.languageSaved", "en-US,en;q=0.9");
    expect(langOf(page.text)).toBe("de");
    expect(page.text).toContain("Ihre Sprache ist gespeichert.");
    expect(page.text).toContain('<option value="de" lang="de" selected="">Deutsch</option>');
    // The other pages a signed-in user sees: the sign-in page saying so, another section of the account.
    expect(langOf((await load(agent, "/account/sign-in", "en")).text)).toBe("de");
    expect(langOf((await load(agent, "/account/sessions", "en")).text)).toBe("de");
    // Signed out, the same browser is answered in the language it asks for.
    expect(langOf((await load(t.agent(), "/account/sign-in", "en")).text)).toBe("en");

    const [event] = (await eventsOfType(t.ctx, "user_updated")).filter((row) => row.subjectId === user.id);
    expect(event).toMatchObject({ actorType: "user", actorId: user.id, outcome: "success" });
    expect(JSON.parse(event?.data ?? "{}")).toEqual({ fields: ["language"] });
  });

  it("clears the choice back to the browser's language", async () => {
    const { agent, user } = await signUp(t);
    await chooseLanguage(agent, "de");
    const cleared = await chooseLanguage(agent, "");
    expect([cleared.status, cleared.headers.get("location")]).toEqual([
      303,
      "/account?notice=notice.account.languageSaved",
    ]);
    expect(await languageOf(user.id)).toBeNull();
    expect(langOf((await load(agent, "/account", "en")).text)).toBe("en");
    expect(langOf((await load(agent, "/account", "de")).text)).toBe("de");
  });

  it("refuses a language the catalogue does not ship, and keeps the one chosen", async () => {
    const { agent, user } = await signUp(t);
    await chooseLanguage(agent, "de");
    for (const language of ["fr", "DE", "de-DE", " de", "<script>alert(1)</script>", "x".repeat(4000)]) {
      const refused = await chooseLanguage(agent, language, { "accept-language": "en" });
      expect([language.slice(0, 20), refused.status]).toEqual([language.slice(0, 20), 400]);
      expect(refused.text).toContain("Wählen Sie eine der Sprachen aus der Liste.");
      expect(refused.text).not.toContain("<script>alert(1)");
    }
    // A value longer than any form field may be is refused by the form guard before anything runs.
    expect((await chooseLanguage(agent, "x".repeat(5000))).status).toBe(403);
    expect(await languageOf(user.id)).toBe("de");
  });

  it("refuses the form without its token, from a foreign origin or signed out, and writes nothing", async () => {
    const { agent, user } = await signUp(t);
    const csrf = await formTokenOf(agent, "/account");
    const noToken = await postForm(agent, "/language", { csrf: "", language: "de" });
    expect(noToken.status).toBe(403);
    const forged = await postForm(agent, "/language", { csrf: `${csrf.slice(0, -4)}AAAA`, language: "de" });
    expect(forged.status).toBe(403);
    const foreign = await postForm(
      agent,
      "/language",
      { csrf, language: "de" },
      { origin: "https://evil.example.net" },
    );
    expect(foreign.status).toBe(403);
    // Another browser's token is no token of this one's.
    const other = await signUp(t);
    const stolen = await postForm(agent, "/language", {
      csrf: await formTokenOf(other.agent, "/account"),
      language: "de",
    });
    expect(stolen.status).toBe(403);
    const signedOut = t.agent();
    const anonymous = await postForm(signedOut, "/language", {
      csrf: await formTokenOf(signedOut, "/sign-in"),
      language: "de",
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/account\/sign-in\?redirect=/);
    expect(await languageOf(user.id)).toBeNull();
    expect(await languageOf(other.user.id)).toBeNull();
  });

  it("keeps the language off the wire: get-session, the cached session and the sign-in answer have the keys they had", async () => {
    const { agent, email, password } = await signUp(t);
    const before = (await agent.get("/get-session")).body.user;
    expect(Object.keys((await t.agent().post("/sign-in/email", { email, password })).body.user)).not.toContain(
      "language",
    );
    await chooseLanguage(agent, "de");
    const after = (await agent.get("/get-session")).body.user;
    expect(Object.keys(before).sort()).toEqual(WIRE_USER_KEYS);
    expect(Object.keys(after).sort()).toEqual(WIRE_USER_KEYS);
    const signedIn = await t.agent().post("/sign-in/email", { email, password });
    expect(signedIn.body.user).not.toHaveProperty("language");
    expect(JSON.stringify(signedIn.body)).not.toContain('"de"');
    const updated = await agent.post("/update-user", { name: "Renamed" });
    expect(updated.body).toEqual({ status: true });
    // update-user is no back door to the column: Better Auth's wire has no such field.
    await agent.post("/update-user", { language: "en" });
    expect(langOf((await load(agent, "/account", "en")).text)).toBe("de");
  });

  it("draws the console in the admin's own language", async () => {
    const admin = await consoleUser(t);
    await chooseLanguage(admin.agent, "de");
    const console = await load(admin.agent, "/console", "en");
    expect(console.status).toBe(200);
    expect(langOf(console.text)).toBe("de");
  });

  describe("mails", () => {
    /** The newest mail of `kind` to `to` after `skip`, once sent. */
    async function mailOf(to: string, kind: string, skip: number): Promise<CapturedMail> {
      await t.ctx.settle();
      await expect
        .poll(() =>
          mailbox
            .to(to)
            .slice(skip)
            .some((mail) => mail.kind === kind),
        )
        .toBe(true);
      return mailbox
        .to(to)
        .slice(skip)
        .filter((mail) => mail.kind === kind)
        .at(-1) as CapturedMail;
    }

    it("writes a reset and a verification mail in the user's German though the request asked for English", async () => {
      const { agent, email } = await signUp(t);
      await chooseLanguage(agent, "de");
      await t.ctx.settle();
      let seen = mailCount(mailbox, email);
      const english = t.agent();
      english.headers["accept-language"] = "en";
      expect((await english.post("/request-password-reset", { email })).status).toBe(200);
      const reset = await mailOf(email, "reset-password", seen);
      expect(reset.subject).toBe("Setzen Sie Ihr Passwort für Acme zurück");
      expect(reset.html).toMatch(/^<!DOCTYPE html><html lang="de"/);

      seen = mailCount(mailbox, email);
      agent.headers["accept-language"] = "en";
      expect((await agent.post("/send-verification-email", { email })).status).toBe(200);
      const verify = await mailOf(email, "verify-email", seen);
      expect(verify.subject).toBe("Bestätigen Sie Ihre E-Mail-Adresse für Acme");
    });

    it("without a choice, follows the request's language, else the deployment's", async () => {
      const { email } = await signUp(t);
      await t.ctx.settle();
      const seen = mailCount(mailbox, email);
      const german = t.agent();
      german.headers["accept-language"] = "de";
      await german.post("/request-password-reset", { email });
      expect((await mailOf(email, "reset-password", seen)).subject).toBe("Setzen Sie Ihr Passwort für Acme zurück");
      await t.agent().post("/request-password-reset", { email });
      expect((await mailOf(email, "reset-password", seen + 1)).subject).toBe("Reset your Acme password");
    });

    it("invites a user who chose German in German, and someone who is not a user in the deployment's language", async () => {
      const owner = await ownerWithOrganization(t, "Acme Team");
      const invitee = await signUp(t);
      await chooseLanguage(invitee.agent, "de");
      const stranger = `stranger.${crypto.randomUUID().slice(0, 8)}@example.com`;
      await t.ctx.settle();
      const seen = [mailCount(mailbox, invitee.email), mailCount(mailbox, stranger)];
      for (const email of [invitee.email, stranger]) {
        const res = await owner.agent.post("/organization/invite-member", { email, role: "member" });
        expect(res.status, res.text).toBe(200);
      }
      expect((await mailOf(invitee.email, "invitation", seen[0] as number)).html).toMatch(/<html lang="de"/);
      expect((await mailOf(stranger, "invitation", seen[1] as number)).html).toMatch(/<html lang="en"/);
    });
  });
});
