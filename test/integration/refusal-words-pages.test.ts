import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorMessageKey, type Locale, translator } from "../../ui/shared/messages/index.ts";
import { problemOf } from "../../ui/web/api.ts";
import type { Agent, AgentResponse } from "../helpers/agent.ts";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { alertText, browse, PAGES, submitPage } from "../helpers/pages.ts";

// The pages say a refusal in its own words, not "That did not work", both ways a browser meets it: the page
// the server draws after a form post (no JavaScript), and the API's JSON answer the hydrated page's script
// reads (it names the problem by the answer's code and status, as ui/web/api.ts does, and looks its words up).

const WORDS = {
  en: {
    throttled: "Too many attempts. Wait a moment and try again.",
    passwordOff: "Signing in with a password is turned off.",
    signUpOff: "New accounts cannot be created here.",
    resetOff: "Passwords are switched off, so there is no reset link to send.",
  },
  de: {
    throttled: "Zu viele Versuche. Warten Sie einen Moment und versuchen Sie es erneut.",
    passwordOff: "Die Anmeldung mit Passwort ist abgeschaltet.",
    signUpOff: "Hier können keine neuen Konten erstellt werden.",
    resetOff: "Passwörter sind abgeschaltet, daher gibt es keinen Link zum Zurücksetzen.",
  },
} as const;

const LANGUAGES = ["en", "de"] as const satisfies readonly Locale[];

/** An agent whose browser asks for `locale`. */
function speaking(t: TestContext, locale: Locale): Agent {
  const agent = t.agent();
  agent.headers["accept-language"] = locale;
  return agent;
}

/** What the hydrated page shows for an API answer: its problem (by code and status), in the page's language. */
function scriptWords(answer: AgentResponse, locale: Locale): string {
  return translator(locale)(errorMessageKey(problemOf(answer.body?.code, answer.status).code));
}

describe("refusal words: a sign-in form the per-account throttle refuses", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { accountThrottle: { maxFailures: 2 } } });
  });
  afterAll(() => t.close());

  for (const locale of LANGUAGES)
    it(`says "too many attempts" on the posted form's page and through the API (${locale})`, async () => {
      // Given an address whose password count is full
      const identifier = `throttled.${locale}.${Date.now()}@example.com`;
      const agent = speaking(t, locale);
      for (let i = 0; i < 2; i++)
        expect((await submitPage(agent, "/sign-in", { identifier, password: "wrong-password-here" })).status).toBe(401);
      // When the form is posted once more (no JavaScript)
      const page = await submitPage(agent, "/sign-in", { identifier, password: "wrong-password-here" });
      // Then the page is the rate limit's, in words
      expect(page.status).toBe(429);
      expect(alertText(page)).toBe(WORDS[locale].throttled);
      // And the API's answer, as the page's script reads it, finds the same words
      const answer = await agent.post("/sign-in/email", { email: identifier, password: "wrong-password-here" });
      expect(answer.status).toBe(429);
      expect(scriptWords(answer, locale)).toBe(WORDS[locale].throttled);
    });
});

describe("refusal words: the route rate limit's page", () => {
  it("draws the too-many-requests words in German too", async () => {
    const t = await createTestContext({ env: { AUTH_RATE_LIMIT: "on" } });
    try {
      const agent = speaking(t, "de");
      const fields = { identifier: "someone@example.com", password: "wrong-password-here" };
      let page = await submitPage(agent, "/sign-in", fields);
      for (let i = 0; i < 5 && page.status !== 429; i++) page = await submitPage(agent, "/sign-in", fields);
      expect(page.status).toBe(429);
      expect(alertText(page)).toBe(WORDS.de.throttled);
      const answer = await agent.post("/sign-in/email", { email: "someone@example.com", password: "wrong-pass" });
      expect(answer.status).toBe(429);
      expect(scriptWords(answer, "de")).toBe(WORDS.de.throttled);
    } finally {
      await t.close();
    }
  });
});

describe("refusal words: passwords switched off", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { emailAndPassword: { enabled: false } } });
  });
  afterAll(() => t.close());

  for (const locale of LANGUAGES) {
    it(`says so on the sign-in form and through the API (${locale})`, async () => {
      const agent = speaking(t, locale);
      const page = await submitPage(agent, "/sign-in", { identifier: "a@example.com", password: "whatever-it-is" });
      expect(alertText(page)).toBe(WORDS[locale].passwordOff);
      const answer = await agent.post("/sign-in/email", { email: "a@example.com", password: "whatever-it-is" });
      expect(answer.status).toBe(400);
      expect(scriptWords(answer, locale)).toBe(WORDS[locale].passwordOff);
    });

    it(`says new accounts cannot be made, on the sign-up form and through the API (${locale})`, async () => {
      const agent = speaking(t, locale);
      const fields = { name: "Someone", email: "b@example.com", password: "correct-horse-battery" };
      const page = await submitPage(agent, "/sign-up", fields);
      expect(page.status).toBe(400);
      expect(alertText(page)).toBe(WORDS[locale].signUpOff);
      const answer = await agent.post("/sign-up/email", fields);
      expect(answer.status).toBe(400);
      expect(scriptWords(answer, locale)).toBe(WORDS[locale].signUpOff);
    });

    it(`says there is no reset link, on the forgot-password form and through the API (${locale})`, async () => {
      const agent = speaking(t, locale);
      const page = await submitPage(agent, "/forgot-password", { email: "c@example.com" });
      expect(page.status).toBe(400);
      expect(alertText(page)).toBe(WORDS[locale].resetOff);
      const answer = await agent.post("/request-password-reset", { email: "c@example.com" });
      expect(answer.status).toBe(400);
      expect(scriptWords(answer, locale)).toBe(WORDS[locale].resetOff);
    });
  }
});

describe("refusal words: a magic link sending the browser to an untrusted address", () => {
  it("explains the refusal instead of the generic words", async () => {
    const t = await createTestContext({ env: { AUTH_MAGIC_LINK: "on" } });
    try {
      const path = `${PAGES}/magic-link/verify?token=abc&callbackURL=https://evil.example.com/`;
      const page = await browse(t.agent(), path);
      expect(page.status).toBe(403);
      expect(page.text).toContain("This link would send you on to an address this site does not trust.");
      expect(page.text).not.toContain("That did not work.");
      const german = await browse(speaking(t, "de"), path);
      expect(german.text).toContain(
        "Dieser Link würde Sie zu einer Adresse weiterleiten, der diese Seite nicht vertraut.",
      );
    } finally {
      await t.close();
    }
  });
});
