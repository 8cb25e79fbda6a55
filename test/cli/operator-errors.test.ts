import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/driver.ts";
import { freePort } from "../helpers/daemon.ts";
import { createPostgresSchema, POSTGRES_URL } from "../helpers/postgres.ts";
import { runCli } from "./run.ts";

// Issue 15, points 1, 2 and 5: what an operator's first mistakes are answered with, from real processes.

/** The one line an operator error is: no stack, no "this is a bug". */
function expectOneLine(stderr: string): string {
  const lines = stderr.trim().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/this is a bug|\n\s+at /);
  return lines[0];
}

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

describe("a database that cannot be reached is one line naming it, exit 1", () => {
  let closedPort: number;
  beforeAll(async () => {
    closedPort = await freePort();
  });

  it("a closed port, from a command and from serve (which retries, one line per attempt, then gives up)", async () => {
    const url = `postgres://authd:hunter2-secret@127.0.0.1:${closedPort}/authd`;
    const listed = await runCli(["users", "list"], { env: { AUTH_DATABASE_URL: url } });
    expect(listed.code).toBe(1);
    expect(expectOneLine(listed.stderr)).toBe(`authd: postgres 127.0.0.1:${closedPort}/authd: connection refused`);

    const served = await runCli(["serve"], {
      env: {
        AUTH_DATABASE_URL: url,
        AUTH_STARTUP_TIMEOUT: "2",
        AUTH_LOG_FORMAT: "json",
        AUTH_PORT: String(closedPort),
      },
    });
    expect(served.code, served.stderr).toBe(1);
    const lines = served.stderr.trim().split("\n");
    const attempts = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    attempts.forEach((attempt, index) => {
      expect(attempt).toMatchObject({ level: "warn", attempt: index + 1 });
      expect(attempt.message).toMatch(
        new RegExp(`^postgres 127\\.0\\.0\\.1:${closedPort}/authd: connection refused; retrying in`),
      );
    });
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^authd: postgres 127\\.0\\.0\\.1:${closedPort}/authd: connection refused \\(gave up after \\d+ attempts`,
      ),
    );
    expect(served.stderr).not.toContain("hunter2-secret");
  });

  it("an unknown database, an unknown role: named at once, serve does not wait for them", async () => {
    const unknownDb = withDatabase(POSTGRES_URL, "no_such_database_15");
    const listed = await runCli(["users", "list"], { env: { AUTH_DATABASE_URL: unknownDb } });
    expect(listed.code).toBe(1);
    expect(expectOneLine(listed.stderr)).toMatch(
      /^authd: postgres 127\.0\.0\.1:5432\/no_such_database_15: database "no_such_database_15" does not exist$/,
    );
    const served = await runCli(["serve"], { env: { AUTH_DATABASE_URL: unknownDb, AUTH_STARTUP_TIMEOUT: "60" } });
    expect(served.code).toBe(1);
    expect(expectOneLine(served.stderr)).toContain('database "no_such_database_15" does not exist');

    const role = new URL(POSTGRES_URL);
    role.username = "no_such_role_15";
    role.password = "pw-not-shown";
    const asRole = await runCli(["sessions", "list"], { env: { AUTH_DATABASE_URL: role.toString() } });
    expect(asRole.code).toBe(1);
    expect(expectOneLine(asRole.stderr)).toMatch(/^authd: postgres 127\.0\.0\.1:5432\/test: .*no_such_role_15/);
    expect(asRole.stderr).not.toContain("pw-not-shown");
  });

  it("Redis and SMTP that do not answer stop serve the same way, named", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-deps-"));
    const env = {
      AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}`,
      AUTH_STARTUP_TIMEOUT: "0",
      AUTH_PORT: String(closedPort),
    };
    const redis = await runCli(["serve"], { env: { ...env, AUTH_REDIS_URL: `redis://127.0.0.1:${closedPort}` } });
    expect(redis.code).toBe(1);
    expect(redis.stderr.trim().split("\n").at(-1)).toMatch(
      new RegExp(`^authd: redis 127\\.0\\.0\\.1:${closedPort}: connection refused or closed`),
    );
    expect((await runCli(["migrate"], { env })).code).toBe(0);
    const command = await runCli(["sessions", "list"], {
      env: { ...env, AUTH_REDIS_URL: `redis://127.0.0.1:${closedPort}` },
    });
    expect(command.code).toBe(1);
    expect(expectOneLine(command.stderr)).toMatch(
      new RegExp(`^authd: redis 127\\.0\\.0\\.1:${closedPort}: connection refused or closed`),
    );
    const smtp = await runCli(["serve"], {
      env: { ...env, AUTH_SMTP_URL: `smtp://u:mail-pass@127.0.0.1:${closedPort}` },
    });
    expect(smtp.code).toBe(1);
    expect(smtp.stderr.trim().split("\n").at(-1)).toMatch(
      new RegExp(`^authd: smtp 127\\.0\\.0\\.1:${closedPort}: connection refused`),
    );
    expect(smtp.stderr).not.toContain("mail-pass");
  });
});

describe("only serve and migrate create or migrate a database", () => {
  it("read-only and write commands refuse a missing SQLite file, say what to run, and create nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-nodb-"));
    const env = { AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}` };
    for (const args of [
      ["users", "list"],
      ["sessions", "list"],
      ["orgs", "list"],
      ["api-keys", "list"],
      ["migrate", "status"],
      ["create-user", "--email", "a@example.com", "--name", "A", "--password", "long-enough-pw"],
    ]) {
      const result = await runCli(args, { env });
      expect(result.code, args.join(" ")).toBe(1);
      expect(expectOneLine(result.stderr)).toContain("run `authd migrate`");
    }
    expect(readdirSync(dir)).toEqual([]);
    const migrated = await runCli(["migrate"], { env });
    expect(migrated.code, migrated.stderr).toBe(0);
    const listed = await runCli(["users", "list", "--json"], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json()).toEqual([]);
  });

  it("no command creates directories", async () => {
    const missing = join(mkdtempSync(join(tmpdir(), "authd-nodir-")), "not", "here");
    const env = { AUTH_DATABASE_URL: `sqlite://${join(missing, "x.db")}` };
    for (const args of [["users", "list"], ["migrate"], ["serve"]]) {
      const result = await runCli(args, { env: { ...env, AUTH_PORT: String(await freePort()) } });
      expect(result.code, args.join(" ")).toBe(1);
      expect(expectOneLine(result.stderr)).toContain(`directory ${missing} does not exist`);
    }
    expect(existsSync(join(missing, ".."))).toBe(false);
  });

  it("refuses an empty Postgres schema and one with a migration pending", async () => {
    const { url } = await createPostgresSchema();
    const empty = await runCli(["users", "list"], { env: { AUTH_DATABASE_URL: url } });
    expect(empty.code).toBe(1);
    expect(expectOneLine(empty.stderr)).toContain("no authd tables in this database; run `authd migrate`");
    expect((await runCli(["migrate"], { env: { AUTH_DATABASE_URL: url } })).code).toBe(0);

    const handle = openDatabase(url);
    await sql`delete from authd_migration where name = (select max(name) from authd_migration)`.execute(handle.db);
    await handle.close();
    const behind = await runCli(["orgs", "list"], { env: { AUTH_DATABASE_URL: url } });
    expect(behind.code).toBe(1);
    expect(expectOneLine(behind.stderr)).toContain("not up to date (1 pending migration); run `authd migrate`");
  });
});

describe("bad usage exits 2 with one line saying what is expected", () => {
  const env = { AUTH_DATABASE_URL: "sqlite://:memory:" };

  it("an unknown flag, an unknown subcommand, a missing required flag", async () => {
    for (const args of [
      ["users", "list", "--frobnicate"],
      ["users", "frobnicate"],
      ["create-user", "--name", "No Email"],
      ["migrate", "status", "--nope"],
    ]) {
      const result = await runCli(args, { env });
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/^error: /);
    }
  });

  it("a number flag that is not one says so, never `received NaN`", async () => {
    for (const [args, line] of [
      [["users", "list", "--limit", "many"], "authd: --limit: expected a number"],
      [["users", "list", "--limit", "0"], "authd: --limit: expected a number of at least 1"],
      [["healthcheck", "--timeout", "soon"], "authd: --timeout: expected a number"],
    ] as const) {
      const result = await runCli([...args], { env });
      expect(result.code, args.join(" ")).toBe(2);
      expect(expectOneLine(result.stderr)).toBe(line);
    }
  });

  it("--port abc says a port number is expected", async () => {
    const result = await runCli(["serve", "--port", "abc"], { env });
    expect(result.code).toBe(2);
    expect(expectOneLine(result.stderr)).toBe("authd: --port: expected a port number between 1 and 65535");
  });

  it("a password outside the policy names the limits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authd-pw-"));
    const dbEnv = { AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}` };
    expect((await runCli(["migrate"], { env: dbEnv })).code).toBe(0);
    const short = await runCli(["create-user", "--email", "s@example.com", "--name", "S", "--password", "abc"], {
      env: dbEnv,
    });
    expect(short.code).toBe(1);
    expect(expectOneLine(short.stderr)).toBe(
      "authd: password too short: at least 8 characters (emailAndPassword.minPasswordLength)",
    );
    const long = await runCli(["create-user", "--email", "l@example.com", "--name", "L", "--password-stdin"], {
      env: dbEnv,
      input: "x".repeat(200),
    });
    expect(expectOneLine(long.stderr)).toBe(
      "authd: password too long: at most 128 characters (emailAndPassword.maxPasswordLength)",
    );
  });
});
