import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ImportReport } from "../../src/services/import/run.ts";
import { BETTER_AUTH_SECRET, type BetterAuthFixture, makeBetterAuthDatabase } from "../helpers/better-auth-fixture.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { createPostgresDatabase } from "../helpers/postgres.ts";
import { totp } from "../helpers/two-factor.ts";
import { runCli } from "./run.ts";

// Issue 33: `authd import better-auth` reads a database Better Auth 1.3 itself made (SQLite file or Postgres
// URL). Every user signs in to authd with the password they had there, which is then authd's own; the TOTP
// secret opened with the app's secret still gives accepted codes; organizations and linked providers come along.

describeEachDialect("authd import better-auth", (dialect) => {
  let t: TestContext;
  let dir: string;
  let source: string;
  let fixture: BetterAuthFixture;
  let dropSource = async () => {};
  let env: Record<string, string>;
  const tag = Math.random().toString(36).slice(2, 8);
  beforeAll(async () => {
    t = await createTestContext({ dialect, realTime: true });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
    dir = mkdtempSync(join(tmpdir(), "authd-import-ba-"));
    if (dialect === "sqlite") {
      source = join(dir, "better-auth.db");
      fixture = await makeBetterAuthDatabase({ sqlite: source }, tag);
    } else {
      // A database of its own: Better Auth's migrations look at every schema of the database they run in.
      const database = await createPostgresDatabase(`authd_ba_${tag}`);
      source = database.url;
      dropSource = database.drop;
      fixture = await makeBetterAuthDatabase({ postgres: source }, tag);
    }
    writeFileSync(join(dir, "secret"), `${BETTER_AUTH_SECRET}\n`);
  });
  afterAll(async () => {
    await fixture.close();
    await dropSource();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("without the app's secret, a user with two-factor on is refused rather than imported without it", async () => {
    const dry = await runCli(["import", "better-auth", source, "--json"], { env });
    expect(dry.code, dry.stderr).toBe(2);
    const report = dry.json<ImportReport>();
    expect(report).toMatchObject({ records: 4, imported: 3, refused: 1 });
    expect(report.hashKinds).toEqual({ "better-auth-scrypt": 3 });
    expect(report.problems[0].problem).toMatch(/--better-auth-secret-file/);
  });

  it("imports every user: the old password signs in and is upgraded, TOTP codes are accepted, links and organizations come along", async () => {
    const secretFile = join(dir, "secret");
    const args = ["import", "better-auth", source, "--better-auth-secret-file", secretFile, "--json"];
    const dry = await runCli(args, { env });
    expect(dry.code, dry.stderr).toBe(0);
    const commit = await runCli([...args, "--commit"], { env });
    expect(commit.code, commit.stderr).toBe(0);
    expect(commit.json<ImportReport>()).toMatchObject({ imported: 4, refused: 0 });

    for (const user of fixture.users) {
      expect((await t.agent().post("/sign-in/email", { email: user.email, password: "not-it-at-all" })).status).toBe(
        401,
      );
      const agent = t.agent();
      const signIn = await agent.post("/sign-in/email", { email: user.email, password: user.password });
      expect(signIn.status, signIn.text).toBe(200);
      if (user.email === fixture.twoFactorEmail) {
        expect(signIn.body).toEqual({ twoFactorRedirect: true });
        const verified = await agent.post("/two-factor/verify-totp", { code: totp(fixture.totpKey, Date.now()) });
        expect(verified.status, verified.text).toBe(200);
      }
      const row = await t.ctx.db
        .selectFrom("account")
        .select("password")
        .where("userId", "=", user.id)
        .where("providerId", "=", "credential")
        .executeTakeFirstOrThrow();
      expect(row.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    }
    // Better Auth's user ids are kept, so an application's references stay valid.
    const ids = await t.ctx.db.selectFrom("user").select("id").where("email", "like", `%.${tag}@example.com`).execute();
    expect(ids.map((r) => r.id).sort()).toEqual(fixture.users.map((u) => u.id).sort());
    const social = await t.ctx.db
      .selectFrom("account")
      .innerJoin("user", "user.id", "account.userId")
      .select("user.email")
      .where("account.providerId", "=", fixture.social.provider)
      .where("account.accountId", "=", fixture.social.accountId)
      .executeTakeFirst();
    expect(social?.email).toBe(fixture.social.email);
    const owner = await t.ctx.db
      .selectFrom("member")
      .innerJoin("organization", "organization.id", "member.organizationId")
      .innerJoin("user", "user.id", "member.userId")
      .select(["user.email", "member.role"])
      .where("organization.slug", "=", fixture.organization.slug)
      .execute();
    expect(owner).toEqual([{ email: fixture.organization.ownerEmail, role: "owner" }]);

    const again = await runCli([...args, "--commit"], { env });
    expect(again.json<ImportReport>()).toMatchObject({ imported: 0, unchanged: 4 });
  });
});
