import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageState, SecondFactorSection } from "../../ui/web/state.ts";
import type { Agent, AgentResponse } from "../helpers/agent.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { browse, formTokenOf, PAGES, postForm } from "../helpers/pages.ts";
import { enrol, keyOf, totp } from "../helpers/two-factor.ts";

// The account page's second factor (/account/second-factor) as a browser without JavaScript uses it: each
// form posts to its page route, which calls the services the API's routes call. Then the attacker's side:
// forged and foreign forms, another user's trusted browser, and a sign-in older than account.freshAge
// (sent through re-authentication, nothing changed).

const SECTION = `${PAGES}/second-factor`;
const FRESH_AGE_MS = 600_000;

/** The state a page was drawn from (its JSON data block). */
function stateOf(page: AgentResponse<string>): PageState {
  const json = page.text.match(/<script type="application\/json" id="authd-state">(.*?)<\/script>/)?.[1];
  if (!json) throw new Error(`no page state (status ${page.status})`);
  return JSON.parse(json) as PageState;
}

function sectionOf(page: AgentResponse<string>): SecondFactorSection {
  const state = stateOf(page);
  if (state.page !== "account-second-factor") throw new Error(`not the section: ${state.page}`);
  return state.secondFactor;
}

/** The words of every announced problem on a page (role="alert" regions with text). */
const alertsOf = (page: AgentResponse<string>) =>
  [...page.text.matchAll(/role="alert"[^>]*>([^<]*)</g)].map((match) => match[1]).filter(Boolean);

/** The base32 key the page shows for typing into an app, spaces removed, as a TOTP key. */
function keyShown(page: AgentResponse<string>): Buffer {
  const shown = page.text.match(/<code class="authd-totp-secret" id="authd-totp-secret">([^<]*)<\/code>/)?.[1] ?? "";
  const uri = `otpauth://totp/x?secret=${shown.replace(/\s/g, "")}`;
  return keyOf(uri);
}

describeEachDialect("account page: second factor", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  /** Post a form of the section with this browser's token. */
  async function post(agent: Agent, form: string, fields: Record<string, string> = {}) {
    return postForm(agent, `${SECTION}/${form}`, { csrf: await formTokenOf(agent, SECTION), ...fields });
  }

  const twoFactorRows = (userId: string) =>
    t.ctx.db.selectFrom("twoFactor").select("id").where("userId", "=", userId).execute();

  const twoFactorOn = async (agent: Agent) =>
    (await agent.get("/get-session", { query: { disableCookieCache: true } })).body.user.twoFactorEnabled;

  describe("turning it on without JavaScript", () => {
    it("sends a signed-out browser through sign-in and back", async () => {
      const page = await browse(t.agent(), SECTION);
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toBe(`${PAGES}/sign-in?redirect=${encodeURIComponent(SECTION)}`);
    });

    it("draws the QR code and the key from the password form, and turns on with the app's first code", async () => {
      const { agent, password, email, user } = await signUp(t);
      const off = await browse(agent, SECTION);
      expect(off.status).toBe(200);
      expect(sectionOf(off)).toMatchObject({ enabled: false, hasPassword: true, enrolment: null });

      // A wrong password: refused beside the field, nothing begun
      const wrong = await post(agent, "enable", { password: "not-the-password" });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain("The password is not right.");
      expect(sectionOf(wrong)).toMatchObject({ enrolment: null, failedForm: "enable" });
      expect(await twoFactorRows(user.id)).toEqual([]);

      const started = await post(agent, "enable", { password });
      expect(started.status).toBe(200);
      const enrolment = sectionOf(started).enrolment;
      expect(enrolment?.uri).toMatch(/^otpauth:\/\/totp\//);
      expect(enrolment?.uri).toContain(encodeURIComponent(email));
      expect(enrolment?.backupCodes).toHaveLength(10);
      expect(started.text).toMatch(/<svg class="authd-qr" viewBox="0 0 \d+ \d+" role="img" aria-label="[^"]+"/);
      // The key typed by hand is the key of the QR code's URI
      const key = keyShown(started);
      expect(key).toEqual(keyOf(enrolment?.uri ?? ""));
      // Nothing secret is shown by a later page load, and nothing is on yet
      const reloaded = await browse(agent, SECTION);
      expect(reloaded.text).not.toContain(enrolment?.secret ?? "-");
      expect(reloaded.text).not.toContain(enrolment?.backupCodes[0] ?? "-");
      expect(Boolean(await twoFactorOn(agent))).toBe(false);

      // A mistyped first code: refused, and the same enrolment shown again to try once more
      const mistyped = await post(agent, "confirm", { code: totp(key, t.clock.now - 3_600_000) });
      expect(mistyped.status).toBe(401);
      expect(mistyped.text).toContain("This code is not right.");
      expect(sectionOf(mistyped).enrolment?.secret).toBe(enrolment?.secret);

      const before = agent.cookie("session_token");
      const confirmed = await post(agent, "confirm", { code: totp(key, t.clock.now) });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get("location")).toBe(`${SECTION}?notice=notice.account.twoFactorOn`);
      expect(agent.cookie("session_token")).not.toBe(before);
      expect(await twoFactorOn(agent)).toBe(true);
      const on = await browse(agent, `${SECTION}?notice=notice.account.twoFactorOn`);
      expect(on.text).toContain("Two-step verification is on.");
      expect(sectionOf(on)).toMatchObject({ enabled: true, backupCodesLeft: 10, enrolment: null });

      // The backup codes the page showed sign in
      t.clock.advance(30_000);
      const browser = t.agent();
      expect((await browser.post("/sign-in/email", { email, password })).body.twoFactorRedirect).toBe(true);
      const used = await browser.post("/two-factor/verify-backup-code", { code: enrolment?.backupCodes[0] });
      expect(used.status).toBe(200);
    });

    it("tells an account without a password to set one first, and offers no form", async () => {
      const { agent, user } = await signUp(t);
      await t.ctx.db.deleteFrom("account").where("userId", "=", user.id).execute();
      const page = await browse(agent, SECTION);
      expect(sectionOf(page).hasPassword).toBe(false);
      expect(page.text).toContain("Set a password first.");
      expect(page.text).not.toContain(`action="${SECTION}/enable"`);
    });
  });

  describe("turned on", () => {
    async function enrolled() {
      const signedUp = await signUp(t);
      const { key, backupCodes } = await enrol(signedUp.agent, signedUp.password, t.clock.now);
      t.clock.advance(30_000);
      return { ...signedUp, key, backupCodes };
    }

    it("makes new backup codes, shown once, and the old ones stop working", async () => {
      const { agent, password, email, backupCodes } = await enrolled();
      const made = await post(agent, "backup-codes", { password });
      expect(made.status).toBe(200);
      const fresh = sectionOf(made).newBackupCodes ?? [];
      expect(fresh).toHaveLength(10);
      expect(made.text).toContain(`download="backup-codes.txt"`);
      expect(made.text).toContain(encodeURIComponent(fresh[0]));
      expect(sectionOf(await browse(agent, SECTION)).newBackupCodes).toBeNull();
      const browser = t.agent();
      await browser.post("/sign-in/email", { email, password });
      expect((await browser.post("/two-factor/verify-backup-code", { code: backupCodes[0] })).status).toBe(401);
      expect((await browser.post("/two-factor/verify-backup-code", { code: fresh[0] })).status).toBe(200);
    });

    it("lists the trusted browsers, marks this one, and forgets another; not another user's", async () => {
      const { agent, email, password, key } = await enrolled();
      const trust = async (browser: Agent) => {
        await browser.post("/sign-in/email", { email, password });
        const verified = await browser.post("/two-factor/verify-totp", {
          code: totp(key, t.clock.now),
          trustDevice: true,
        });
        expect(verified.status).toBe(200);
        t.clock.advance(30_000);
      };
      const laptop = t.agent();
      const phone = t.agent();
      await trust(laptop);
      await trust(phone);
      const listed = sectionOf(await browse(laptop, SECTION)).trustedBrowsers;
      expect(listed).toHaveLength(2);
      expect(listed.filter((each) => each.current)).toHaveLength(1);
      const phoneEntry = listed.find((each) => !each.current);
      expect(sectionOf(await browse(agent, SECTION)).trustedBrowsers.every((each) => !each.current)).toBe(true);

      // Another user cannot forget (or learn about) this user's browsers
      const stranger = await enrolled();
      const refused = await post(stranger.agent, "forget-browser", { id: phoneEntry?.id ?? "" });
      expect(refused.status).toBe(404);
      expect(alertsOf(refused)).toEqual(["This browser is not trusted any more."]);
      expect(sectionOf(await browse(laptop, SECTION)).trustedBrowsers).toHaveLength(2);

      const forgotten = await post(laptop, "forget-browser", { id: phoneEntry?.id ?? "" });
      expect(forgotten.status).toBe(303);
      expect(forgotten.headers.get("location")).toBe(`${SECTION}?notice=notice.account.browserForgotten`);
      expect(sectionOf(await browse(laptop, SECTION)).trustedBrowsers).toEqual([
        expect.objectContaining({ current: true }),
      ]);
      await phone.post("/sign-out");
      expect((await phone.post("/sign-in/email", { email, password })).body.twoFactorRedirect).toBe(true);
    });

    it("turns off with the password, keeping this browser signed in", async () => {
      const { agent, password } = await enrolled();
      const wrong = await post(agent, "disable", { password: "not-the-password" });
      expect(wrong.status).toBe(400);
      expect(sectionOf(wrong).failedForm).toBe("disable");
      expect(await twoFactorOn(agent)).toBe(true);
      const off = await post(agent, "disable", { password });
      expect(off.status).toBe(303);
      expect(off.headers.get("location")).toBe(`${SECTION}?notice=notice.account.twoFactorOff`);
      expect(Boolean(await twoFactorOn(agent))).toBe(false);
    });
  });

  describe("attacker", () => {
    it("refuses every form without this browser's token or from a foreign origin, and runs nothing", async () => {
      const { agent, password, user } = await signUp(t);
      const token = await formTokenOf(agent, SECTION);
      for (const form of ["enable", "confirm", "backup-codes", "disable", "forget-browser"]) {
        const forged = await postForm(agent, `${SECTION}/${form}`, { csrf: "forged", password, code: "123456" });
        expect(forged.status).toBe(403);
        expect(alertsOf(forged)).toEqual(["This form has expired. Please send it again."]);
        const foreign = await postForm(
          agent,
          `${SECTION}/${form}`,
          { csrf: token, password },
          { origin: "https://evil.example" },
        );
        expect(foreign.status).toBe(403);
      }
      expect(sectionOf(await browse(agent, SECTION)).enabled).toBe(false);
      expect(await twoFactorRows(user.id)).toEqual([]);
    });

    it("sends a sign-in older than account.freshAge through re-authentication, changing nothing", async () => {
      const { agent, password } = await signUp(t);
      await enrol(agent, password, t.clock.now);
      const fresh = await signUp(t);
      t.clock.advance(FRESH_AGE_MS + 1000);
      const back = `${PAGES}/reauthenticate?redirect=${encodeURIComponent(SECTION)}`;
      for (const [who, form] of [
        [fresh.agent, "enable"],
        [agent, "backup-codes"],
        [agent, "disable"],
      ] as const) {
        const res = await post(who, form, { password: who === agent ? password : fresh.password });
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe(back);
      }
      expect(await twoFactorOn(agent)).toBe(true);
      expect(sectionOf(await browse(fresh.agent, SECTION)).enabled).toBe(false);
      // The API's routes refuse the same, before looking at the password
      for (const path of ["/two-factor/enable", "/two-factor/generate-backup-codes", "/two-factor/disable"]) {
        const res = await agent.post(path, { password: "not-the-password" });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe("SESSION_IS_NOT_FRESH");
      }
    });
  });
});
