import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildBinary } from "../helpers/binary.ts";
import { runCli } from "./run.ts";

describe("authd config check, migrate status and usage errors", () => {
  const dir = mkdtempSync(join(tmpdir(), "authd-cli-"));
  const env = {
    AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}`,
    AUTH_SERVER_TOKEN: "Nm8Rin0J42Ox7CqObF06ieiUg09qNA0udktIlBNGkpX3nsWRPeZVCjz1hP2eRPox",
    AUTH_SMTP_URL: "smtp://mailer:hunter22@mail.example.com:25",
  };

  it("config check --json prints the effective config with every secret masked", async () => {
    const result = await runCli(["config", "check", "--json"], {
      env: { ...env, AUTH_SOCIAL_GITHUB_CLIENT_ID: "gh-id", AUTH_SOCIAL_GITHUB_CLIENT_SECRET: "gh-secret-value" },
    });
    expect(result.code, result.stderr).toBe(0);
    const config = result.json<Record<string, any>>();
    expect(config.secret).toBe("********");
    expect(config.serverToken).toBe("********");
    expect(config.smtpURL).toBe("smtp://mailer:********@mail.example.com:25");
    expect(config.social.github).toMatchObject({ clientId: "gh-id", clientSecret: "********" });
    expect(config.baseURL).toBe("http://localhost:3000");
    expect(result.stdout).not.toMatch(
      /hunter22|gh-secret-value|Nm8Rin0J42Ox7CqObF06ieiUg09qNA0udktIlBNGkpX3nsWRPeZVCjz1hP2eRPox/,
    );
  });

  it("config check names each bad field and exits 2", async () => {
    const result = await runCli(["config", "check"], { env: { ...env, AUTH_PORT: "99999", AUTH_RATE_LIMIT: "maybe" } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("AUTH_PORT: expected an integer between 1 and 65535");
    expect(result.stderr).toContain("AUTH_RATE_LIMIT");
    expect(result.stdout).toBe("");
  });

  it("config check reads a config file given with --config", async () => {
    const file = join(dir, "authd.json");
    writeFileSync(file, JSON.stringify({ session: { expiresIn: 1234 } }));
    const result = await runCli(["config", "check", "--config", file, "--json"], { env });
    expect(result.json<{ session: { expiresIn: number } }>().session.expiresIn).toBe(1234);
  });

  it("config check refuses pages that would shadow the API or a CSS file that is not there (exit 2)", async () => {
    const file = join(dir, "pages.json");
    writeFileSync(file, JSON.stringify({ pages: { cssFile: join(dir, "missing.css") } }));
    const result = await runCli(["config", "check", "--config", file], {
      env: { ...env, AUTH_PAGES_BASE_PATH: "/api" },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("pages.basePath: /api overlaps the API's basePath /api/auth");
    expect(result.stderr).toContain(`pages.cssFile: cannot read ${join(dir, "missing.css")} (ENOENT)`);
    // With the pages off, neither matters.
    const off = await runCli(["config", "check", "--config", file], {
      env: { ...env, AUTH_PAGES_BASE_PATH: "/api", AUTH_PAGES: "off" },
    });
    expect(off.code, off.stderr).toBe(0);
  });

  it("migrate --json applies, then migrate status --json lists nothing pending", async () => {
    const applied = await runCli(["migrate", "--json"], { env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.json<{ applied: string[] }>().applied.length).toBeGreaterThan(0);
    expect(applied.stderr).toBe("");
    const status = await runCli(["migrate", "status", "--json"], { env });
    expect(status.json()).toEqual({ applied: applied.json<{ applied: string[] }>().applied, pending: [] });
  });

  it("an unknown command or flag is bad usage (exit 2)", async () => {
    expect((await runCli(["frobnicate"], { env })).code).toBe(2);
    expect((await runCli(["users", "list", "--limit", "many"], { env })).code).toBe(2);
  });

  it("a missing command is bad usage (exit 2, help on stderr); asking for help is not (exit 0)", async () => {
    for (const args of [[], ["webhooks"], ["users"]]) {
      const result = await runCli(args, { env });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("Usage: authd");
    }
    for (const args of [["--help"], ["help"], ["webhooks", "--help"], ["help", "webhooks"], ["--version"]])
      expect((await runCli(args, { env })).code, args.join(" ")).toBe(0);
  });

  it("a database that cannot be opened is one line and exit 1", async () => {
    const result = await runCli(["users", "list"], { env: { AUTH_DATABASE_URL: "sqlite:///dev/null/x/auth.db" } });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("the compiled dist/authd binary", () => {
  let binary: string;
  const dir = mkdtempSync(join(tmpdir(), "authd-bin-db-"));
  const env = { AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}` };
  beforeAll(() => {
    binary = buildBinary();
  }, 120_000);

  it("creates and lists users with its embedded migrations", async () => {
    const migrated = await runCli(["migrate", "--json"], { env, binary });
    expect(migrated.code, migrated.stderr).toBe(0);
    const created = await runCli(
      ["create-user", "--email", "bin@example.com", "--name", "Bin", "--password", "binary-password", "--json"],
      { env, binary },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.json<{ email: string }>().email).toBe("bin@example.com");
    const listed = await runCli(["users", "list", "--json"], { env, binary });
    expect(listed.json<{ email: string }[]>().map((u) => u.email)).toEqual(["bin@example.com"]);
  });

  it("lists every command in --help", async () => {
    const result = await runCli(["--help"], { env, binary });
    expect(result.code, result.stderr).toBe(0);
    for (const command of [
      "serve",
      "migrate",
      "create-user",
      "revoke-sessions",
      "users",
      "sessions",
      "config",
      "admin",
    ])
      expect(result.stdout).toContain(command);
  });
});
