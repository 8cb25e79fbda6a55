import { afterAll, beforeAll, expect, it } from "vitest";
import { consoleUser } from "../helpers/console.ts";
import {
  createTestContext,
  describeEachDialect,
  SERVER_TOKEN,
  signUp,
  TEST_SECRET,
  type TestContext,
} from "../helpers/context.ts";
import { browse } from "../helpers/pages.ts";

// Issue 32: the console's settings screen shows the configuration in effect with every secret masked, and
// the health of each dependency; only an admin holding settings:read opens it.

const ROLES = { support: { user: ["list"] }, reader: { settings: ["read"] } };
const SECRETS = {
  previous: "an-earlier-app-secret-that-is-long-enough-0123456789ab",
  smtp: "smtp-password-in-the-url",
  github: "github-client-secret-value",
  webhook: `whsec_${"E".repeat(43)}=`,
};

describeEachDialect("the console's settings screen", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      dialect,
      env: {
        AUTH_SECRET_PREVIOUS: SECRETS.previous,
        // Nothing listens there: the SMTP server shows as down, its password nowhere.
        AUTH_SMTP_URL: `smtp://mailer:${SECRETS.smtp}@127.0.0.1:9?tls=off`,
        AUTH_SOCIAL_GITHUB_CLIENT_ID: "github-client-id",
        AUTH_SOCIAL_GITHUB_CLIENT_SECRET: SECRETS.github,
      },
      config: {
        admin: { roles: ROLES },
        webhooks: {
          endpoints: [{ id: "crm", url: "https://crm.example.com/hooks", events: ["*"], secret: SECRETS.webhook }],
        },
      },
    });
  });
  afterAll(() => t.close());

  it("shows every setting with its variable and every secret masked, nowhere in the page", async () => {
    const admin = await consoleUser(t);
    const page = await browse(admin.agent, "/console/settings");
    expect(page.status).toBe(200);
    for (const secret of [TEST_SECRET, SERVER_TOKEN, ...Object.values(SECRETS)])
      expect(page.text.includes(secret), secret.slice(0, 8)).toBe(false);
    expect(page.text).toContain("webhooks.logRetention");
    expect(page.text).toContain("AUTH_WEBHOOK_LOG_RETENTION");
    expect(page.text).toContain("social.github.clientSecret");
    expect(page.text).toContain(`smtp://mailer:********@127.0.0.1:9?tls=off`);
    expect(page.text).toContain("Secret, masked");
    // The health of each dependency: the database answers, Redis is not configured, SMTP is down.
    expect(page.text).toMatch(/Database<\/th><td>Up<\/td>/);
    expect(page.text).toMatch(/Redis<\/th><td>Off<\/td>/);
    expect(page.text).toMatch(/SMTP server<\/th><td>Down<\/td><td>smtp 127.0.0.1:9<\/td>/);
    expect(page.text).toMatch(/Webhook worker<\/th><td>Down<\/td>/);
    expect(page.text).toContain("Not running in this process.");
  });

  it("filters the settings by name or variable", async () => {
    const admin = await consoleUser(t);
    const page = await browse(admin.agent, "/console/settings?search=AUTH_WEBHOOK");
    expect(page.text).toContain("webhooks.timeoutMs");
    expect(page.text).not.toContain("emailAndPassword.minPasswordLength");
    const none = await browse(admin.agent, `/console/settings?search=${encodeURIComponent("<b>nothing</b>")}`);
    expect(none.text).toContain("Nothing found.");
    expect(none.text).not.toContain("<b>nothing</b>");
  });

  it("opens for a role holding settings:read only, and for no one else", async () => {
    const reader = await consoleUser(t, "reader");
    const page = await browse(reader.agent, "/console/settings");
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/console/settings"');
    expect(page.text).not.toContain('href="/console/webhooks"');
    expect((await browse(reader.agent, "/console/webhooks")).status).toBe(403);
    const support = await consoleUser(t, "support");
    expect((await browse(support.agent, "/console/settings")).status).toBe(403);
    const plain = await signUp(t);
    expect((await browse(plain.agent, "/console/settings")).status).toBe(403);
    const signedOut = await browse(t.agent(), "/console/settings");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(
      `/account/sign-in?redirect=${encodeURIComponent("/console/settings")}`,
    );
  });
});
