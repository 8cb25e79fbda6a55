import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { runCli } from "./run.ts";

// Issue 33: `authd backup FILE` copies the SQLite database while it is in use (VACUUM INTO); `authd restore
// FILE` puts it where an empty data directory expects one; on Postgres both say which tool to run.

describe("authd backup / authd restore", () => {
  let t: TestContext;
  let dir: string;
  beforeAll(async () => {
    t = await createTestContext({ realTime: true });
    dir = mkdtempSync(join(tmpdir(), "authd-backup-"));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("backs up the live database, never over a file, and restores it into an empty place where users sign in", async () => {
    const { email, password } = await signUp(t, { password: "backed-up-password" });
    const env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
    const file = join(dir, "backup.db");
    const backup = await runCli(["backup", file, "--json"], { env });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.json()).toMatchObject({ backup: file, bytes: expect.any(Number) });
    const again = await runCli(["backup", file], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists; choose a new file/);

    const target = join(dir, "restored", "auth.db");
    rmSync(join(dir, "restored"), { recursive: true, force: true });
    mkdirSync(join(dir, "restored"));
    const restoreEnv = { AUTH_DATABASE_URL: `sqlite://${target}` };
    const restored = await runCli(["restore", file, "--json"], { env: restoreEnv });
    expect(restored.code, restored.stderr).toBe(0);
    expect(existsSync(target)).toBe(true);
    const over = await runCli(["restore", file], { env: restoreEnv });
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/exists; restore only into an empty data directory/);

    const copy = await createTestContext({ databaseURL: `sqlite://${target}` });
    try {
      expect((await copy.agent().post("/sign-in/email", { email, password })).status).toBe(200);
    } finally {
      await copy.close();
    }
    const notABackup = await runCli(["restore", join(dir, "missing.db")], {
      env: { AUTH_DATABASE_URL: `sqlite://${join(dir, "other.db")}` },
    });
    expect(notABackup.code).toBe(1);
  });

  it("on Postgres, says how to use pg_dump and pg_restore (without the password)", async () => {
    // No connection is made: the command reads the URL and answers.
    const url = "postgres://postgres:s3cret@127.0.0.1:5432/test?schema=t_backup";
    const backup = await runCli(["backup", "/tmp/x.dump"], { env: { AUTH_DATABASE_URL: url } });
    expect(backup.code).toBe(1);
    expect(backup.stderr).toMatch(
      /^authd: on Postgres use pg_dump.*pg_dump --format=custom --schema=t_\w+ --file=\/tmp\/x.dump/,
    );
    expect(backup.stderr).not.toContain("s3cret");
    const restore = await runCli(["restore", "/tmp/x.dump"], { env: { AUTH_DATABASE_URL: url } });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/pg_restore/);
    expect(restore.stderr.trim().split("\n")).toHaveLength(1);
  });
});
