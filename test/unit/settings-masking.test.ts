import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { MASK, maskConfig, maskURLPassword } from "../../src/config/masking.ts";
import { effectiveSettings } from "../../src/services/settings/effective.ts";

// The console's settings screen and `authd config check` show the effective configuration with every secret
// masked: by the keys listed, by key names that say "secret", and by values that carry one (a URL's
// password, a webhook secret) under any key.

const SECRETS = {
  secret: "s3cret-app-secret-value-that-is-long-enough-0123456789",
  previous: "old-app-secret-value-that-is-long-enough-0123456789ab",
  serverToken: "server-token-value-that-is-long-enough-0123456789abcd",
  smtpPassword: "smtp-pa55word",
  redisPassword: "redis-pa55word",
  databasePassword: "db-pa55word",
  databaseQueryPassword: "db-query-pa55word",
  github: "github-client-secret-value",
  webhook: `whsec_${"Q".repeat(43)}=`,
  webhookURLToken: "url-token-in-a-webhook-url",
};

function configWithEverySecret() {
  return loadConfig({
    env: {
      AUTH_SECRET: SECRETS.secret,
      AUTH_SECRET_PREVIOUS: SECRETS.previous,
      AUTH_SERVER_TOKEN: SECRETS.serverToken,
      AUTH_SMTP_URL: `smtp://mailer:${SECRETS.smtpPassword}@mail.example.com:587`,
      AUTH_REDIS_URL: `redis://:${SECRETS.redisPassword}@redis.example.com:6379`,
      AUTH_DATABASE_URL: `postgres://authd:${SECRETS.databasePassword}@db.example.com:5432/authd?sslmode=require&password=${SECRETS.databaseQueryPassword}`,
      AUTH_SOCIAL_GITHUB_CLIENT_ID: "github-client-id",
      AUTH_SOCIAL_GITHUB_CLIENT_SECRET: SECRETS.github,
    },
    overrides: {
      webhooks: {
        endpoints: [
          {
            id: "crm",
            url: `https://crm.example.com/hooks?token=${SECRETS.webhookURLToken}&team=7`,
            events: ["*"],
            secret: SECRETS.webhook,
          },
        ],
      },
    },
  });
}

describe("the effective settings", () => {
  it("carry no secret value anywhere, each masked row marked", () => {
    const entries = effectiveSettings(configWithEverySecret());
    const text = JSON.stringify(entries);
    for (const [name, value] of Object.entries(SECRETS)) expect(text.includes(value), name).toBe(false);
    const byKey = new Map(entries.map((entry) => [entry.key, entry]));
    for (const key of ["secret", "serverToken", "social.github.clientSecret", "webhooks.endpoints.0.secret"])
      expect(byKey.get(key), key).toMatchObject({ value: MASK, masked: true });
    expect(byKey.get("previousSecrets")).toMatchObject({ value: [MASK], masked: true, env: "AUTH_SECRET_PREVIOUS" });
    // Where a URL goes stays readable; only its password is hidden.
    expect(byKey.get("smtpURL")?.value).toBe(`smtp://mailer:${MASK}@mail.example.com:587`);
    expect(byKey.get("redisURL")?.value).toBe(`redis://:${MASK}@redis.example.com:6379`);
    expect(byKey.get("databaseURL")?.value).toBe(
      `postgres://authd:${MASK}@db.example.com:5432/authd?sslmode=require&password=${MASK}`,
    );
    expect(byKey.get("webhooks.endpoints.0.url")?.value).toBe(`https://crm.example.com/hooks?token=${MASK}&team=7`);
  });

  it("shows what is not secret as it is, with the variable that sets it, and unset settings as null", () => {
    const entries = effectiveSettings(configWithEverySecret());
    const byKey = new Map(entries.map((entry) => [entry.key, entry]));
    expect(byKey.get("webhooks.timeoutMs")).toEqual({
      key: "webhooks.timeoutMs",
      value: 10_000,
      masked: false,
      env: "AUTH_WEBHOOK_TIMEOUT_MS",
    });
    expect(byKey.get("webhooks.logRetention")).toMatchObject({ value: "7d", env: "AUTH_WEBHOOK_LOG_RETENTION" });
    expect(byKey.get("emailAndPassword.resetPasswordTokenExpiresIn")).toMatchObject({ value: 3600, masked: false });
    expect(byKey.get("social.github.clientId")).toMatchObject({ value: "github-client-id", masked: false });
    expect(byKey.get("apiKey.headers")).toMatchObject({ value: ["x-api-key"], masked: false });
    const bare = effectiveSettings(loadConfig({ env: { AUTH_SECRET: SECRETS.secret } }));
    expect(bare.find((entry) => entry.key === "redisURL")).toMatchObject({ value: null, masked: false });
    expect(bare.find((entry) => entry.key === "serverToken")).toMatchObject({ value: null, masked: false });
  });

  it("masks keys nobody listed by what their names say, and webhook secrets under any name", () => {
    const future = {
      someFeature: {
        signingKey: "key-material",
        apiKey: "an-api-key",
        clientPassword: "pw",
        accessToken: "tok",
        privateKeyPem: "-----BEGIN",
        tokenExpiresIn: 60,
        note: SECRETS.webhook,
        callbackURL: "https://user:pw@example.com/cb",
      },
    };
    expect(maskConfig(future)).toEqual({
      someFeature: {
        signingKey: MASK,
        apiKey: MASK,
        clientPassword: MASK,
        accessToken: MASK,
        privateKeyPem: MASK,
        tokenExpiresIn: 60,
        note: MASK,
        callbackURL: `https://user:${MASK}@example.com/cb`,
      },
    });
  });

  it("masks a URL's password and secret parameters, leaving any other text alone", () => {
    expect(maskURLPassword("postgres://u:p@h/db")).toBe(`postgres://u:${MASK}@h/db`);
    expect(maskURLPassword("rediss://default:p%40ss@h:6380/0")).toBe(`rediss://default:${MASK}@h:6380/0`);
    expect(maskURLPassword("https://h/x?api_key=abc&page=2#top")).toBe(`https://h/x?api_key=${MASK}&page=2#top`);
    expect(maskURLPassword("sqlite://./data/auth.db")).toBe("sqlite://./data/auth.db");
    expect(maskURLPassword("plain text with key=value")).toBe("plain text with key=value");
  });

  it("reads webhooks.logRetention as a duration, a bare number in days", () => {
    const read = (value: string) => loadConfig({ env: { AUTH_WEBHOOK_LOG_RETENTION: value } }).webhooks.logRetention;
    expect(read("12h")).toBe("12h");
    expect(read("3")).toBe("3");
    expect(() => read("soon")).toThrow(/AUTH_WEBHOOK_LOG_RETENTION: a duration/);
  });
});
