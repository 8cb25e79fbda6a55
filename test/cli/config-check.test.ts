import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run.ts";

// Issue 15, points 4 and 6: `authd config check` as an operator runs it.

describe("authd config check", () => {
  const env = { AUTH_DATABASE_URL: "sqlite:///var/lib/authd/auth.db" };

  it("prints the effective configuration as readable sections, empty values spelled out", async () => {
    const result = await runCli(["config", "check"], { env: { ...env, AUTH_TRUSTED_ORIGINS: "https://app.example" } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain("[object Object]");
    expect(result.stdout).toMatch(/^configuration is valid/);
    const lines = result.stdout.split("\n");
    expect(lines).toContain("databaseURL            sqlite:///var/lib/authd/auth.db");
    expect(lines).toContain("trustedOrigins         https://app.example");
    expect(lines).toContain("redisURL               (not set)");
    expect(lines).toContain("trustedProxies         (none)");
    expect(lines).toContain("session");
    expect(lines.find((line) => /^ {2}expiresIn +604800$/.test(line))).toBeDefined();
    expect(lines.find((line) => /^social +\(none\)$/.test(line))).toBeDefined();
  });

  it("--json prints the same configuration as JSON", async () => {
    const result = await runCli(["config", "check", "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json<{ databaseURL: string; social: object }>()).toMatchObject({
      databaseURL: "sqlite:///var/lib/authd/auth.db",
      social: {},
    });
  });

  it("reports a misspelt AUTH_* variable as a problem naming the closest known one (exit 2)", async () => {
    const result = await runCli(["config", "check"], {
      env: { ...env, AUTH_DATABSE_URL: "postgres://db/authd", AUTH_TRUSTED_ORIGIN: "https://app.example" },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      "AUTH_DATABSE_URL: unknown variable, ignored (did you mean AUTH_DATABASE_URL?)",
      "AUTH_TRUSTED_ORIGIN: unknown variable, ignored (did you mean AUTH_TRUSTED_ORIGINS?)",
    ]);
  });

  it("keeps the provider id of a misspelt social variable in its suggestion", async () => {
    const result = await runCli(["config", "check"], { env: { ...env, AUTH_SOCIAL_GITHUB_CLIENTID: "x" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("did you mean AUTH_SOCIAL_GITHUB_CLIENT_ID?");
  });

  it("a command other than config check warns about it and goes on", async () => {
    const result = await runCli(["users", "list"], {
      env: { AUTH_DATABASE_URL: "sqlite://:memory:", AUTH_SERVR_TOKEN: "x" },
    });
    expect(result.stderr).toContain("AUTH_SERVR_TOKEN: unknown variable, ignored (did you mean AUTH_SERVER_TOKEN?)");
  });

  it("reports every problem at once, one line each: a typo beside a refused value and a check across fields", async () => {
    const result = await runCli(["config", "check"], {
      env: {
        AUTH_PORT: "eighty",
        AUTH_LOG_LEVEL: "loud",
        AUTH_DATABASE_URL: "mysql://db/authd",
        AUTH_TRUSTED_ORIGIN: "https://app.example",
      },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      "AUTH_PORT: expected an integer between 1 and 65535",
      expect.stringMatching(/^AUTH_LOG_LEVEL: /),
      "AUTH_DATABASE_URL: expected sqlite://PATH, sqlite://:memory: or postgres://…",
      "AUTH_TRUSTED_ORIGIN: unknown variable, ignored (did you mean AUTH_TRUSTED_ORIGINS?)",
    ]);
  });

  it("serve refuses to start with the same lines, the typo included (exit 2)", async () => {
    const result = await runCli(["serve"], {
      env: { ...env, AUTH_PORT: "eighty", AUTH_SERVR_TOKEN: "x" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([
      "AUTH_PORT: expected an integer between 1 and 65535",
      "AUTH_SERVR_TOKEN: unknown variable, ignored (did you mean AUTH_SERVER_TOKEN?)",
    ]);
  });

  it("a known secret is listed beside a refused value and a typo, not after they are fixed", async () => {
    const result = await runCli(["config", "check"], {
      env: { AUTH_PORT: "eighty", AUTH_SECRET: "change-me-please-change-me-please-change-me", AUTH_SECRT: "x" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([
      "AUTH_PORT: expected an integer between 1 and 65535",
      expect.stringMatching(/^AUTH_SECRET: refused, /),
      expect.stringMatching(/^AUTH_SECRT: unknown variable, ignored/),
    ]);
  });

  it("refuses a config-file webhook endpoint asking for an unknown event type", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "authd-config-")), "authd.json");
    const secret = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
    const endpoints = [{ id: "crm", url: "https://crm.example.com/hooks", events: ["sign_up", "signup"], secret }];
    writeFileSync(file, JSON.stringify({ webhooks: { endpoints } }));
    const result = await runCli(["config", "check", "--config", file], { env: { ...env, AUTH_TRUSTED_ORIGIN: "x" } });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^webhooks\.endpoints\.0\.events: unknown event type signup; known types: sign_up, /);
    expect(lines[1]).toBe("AUTH_TRUSTED_ORIGIN: unknown variable, ignored (did you mean AUTH_TRUSTED_ORIGINS?)");
  });
});
