import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { parseImportedHash } from "../../src/crypto/imported-hash.ts";
import { fromBetterAuth } from "../../src/crypto/imported-hash-forms.ts";
import type { ImportReport } from "../../src/services/import/run.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import {
  argon2Hash,
  bcryptHash,
  betterAuthHash,
  djangoPbkdf2,
  FIREBASE_VECTOR,
  md5Hex,
} from "../helpers/foreign-hashes.ts";
import { writeInterchangeFile } from "../helpers/interchange.ts";
import { totp } from "../helpers/two-factor.ts";
import { runCli } from "./run.ts";

// Each test here runs the CLI several times, a process each that loads the source: beside the Chromium files
// on two cores of a slower machine one such test took over 30 s (alone: 3-4 s).
vi.setConfig({ testTimeout: 90_000 });

// Issue 33: `authd import authd FILE` reads authd.v1, a dry run unless --commit; every imported user signs in
// over HTTP with the password they had, and is rehashed; `authd export` writes it back the same.

type Report = ImportReport;

const TOTP_SECRET = "imported-totp-secret-0123456789ab";

describeEachDialect("authd import authd / authd export", (dialect) => {
  let t: TestContext;
  let env: Record<string, string>;
  let dir: string;
  let run: string;
  beforeAll(async () => {
    t = await createTestContext({ dialect, realTime: true });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
    dir = mkdtempSync(join(tmpdir(), "authd-import-"));
    run = Math.random().toString(36).slice(2, 8);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const email = (name: string) => `${name}.${run}@example.com`;
  const userCount = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom("user")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const signIn = (address: string, password: string) => t.agent().post("/sign-in/email", { email: address, password });
  const storedHash = async (address: string) =>
    (
      await t.ctx.db
        .selectFrom("account")
        .innerJoin("user", "user.id", "account.userId")
        .select("account.password")
        .where("user.email", "=", address)
        .where("account.providerId", "=", "credential")
        .executeTakeFirst()
    )?.password;

  it("a dry run counts, lists the problems, writes nothing and exits 2; --commit imports, and a re-run changes nothing", async () => {
    const owner = await signUp(t, { email: email("owner"), password: "owners-own-password" });
    await t.ctx.db.updateTable("user").set({ emailVerified: true }).where("id", "=", owner.user.id).execute();
    const users = [
      { id: `b-${run}`, email: email("bcrypt"), password: bcryptHash("bcrypt-password") },
      { id: `a-${run}`, email: email("argon"), password: argon2Hash("argon-password") },
      { id: `d-${run}`, email: email("django"), password: djangoPbkdf2("django-password") },
      { id: `ba-${run}`, email: email("better"), password: fromBetterAuth(await betterAuthHash("better-password")) },
      {
        id: `f-${run}`,
        email: email("firebase"),
        password: `$firebase-scrypt$config=project$${FIREBASE_VECTOR.salt}$${FIREBASE_VECTOR.hash}`,
      },
      { id: `m-${run}`, email: email("md5"), password: `$md5$${md5Hex("md5-password")}` },
      {
        id: `t-${run}`,
        email: email("totp"),
        password: bcryptHash("totp-password"),
        twoFactor: { enabled: true, totpSecret: TOTP_SECRET, backupCodes: ["aaaaa-bbbbb", "ccccc-ddddd"] },
        accounts: [{ provider: "github", accountId: `gh-${run}` }],
        organizations: [{ id: `org-${run}`, slug: `org-${run}`, name: "Imported Org", role: "owner" }],
      },
      // Hostile: another system's record claiming the address of a verified user here, with its own password.
      { id: `x-${run}`, email: owner.email, password: bcryptHash("attackers-password") },
      // Absurd cost: a gigabyte of argon2 memory per attempt.
      { id: `c-${run}`, email: email("costly"), password: "$argon2id$v=19$m=1048576,t=3,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5" },
      { id: `bad-${run}`, email: "not-an-address", password: null },
    ];
    const header = { hashConfigs: { project: { kind: "firebase-scrypt", ...FIREBASE_VECTOR.config } } };
    const file = writeInterchangeFile(dir, "users.jsonl", users, header);
    const before = await userCount();

    const dry = await runCli(["import", "authd", file, "--json"], { env });
    expect(dry.code, dry.stderr).toBe(2);
    const report = dry.json<Report>();
    expect(report).toMatchObject({ committed: false, records: 10, imported: 6, conflicts: 1, refused: 3 });
    expect(report.hashKinds).toEqual({
      bcrypt: 2,
      argon2id: 1,
      "pbkdf2-sha256": 1,
      "better-auth-scrypt": 1,
      "firebase-scrypt": 1,
    });
    const problem = (id: string) => report.problems.find((p) => p.record === `line ${id}`)?.problem;
    expect(problem("7")).toMatch(/md5 is insecure.*--allow-insecure-hashes/);
    expect(problem("9")).toBe("email belongs to an existing user");
    expect(problem("10")).toMatch(/argon2 memory \(KiB\) 1048576/);
    expect(problem("11")).toMatch(/^email/);
    expect(dry.stderr).toMatch(/^authd: the dry run found problems/);
    expect(dry.stderr.trim().split("\n")).toHaveLength(1);
    expect(await userCount()).toBe(before);

    const commit = await runCli(["import", "authd", file, "--commit", "--allow-insecure-hashes", "--json"], { env });
    expect(commit.code, commit.stderr).toBe(0);
    expect(commit.json<Report>()).toMatchObject({
      committed: true,
      imported: 7,
      conflicts: 1,
      refused: 2,
      insecureHashes: 1,
    });
    expect(await userCount()).toBe(before + 7);

    // The timing floor: a hash shaped like one imported (kind and cost), matching no one's, is remembered.
    const floor = await t.ctx.db
      .selectFrom("authdSetting")
      .select("value")
      .where("key", "=", "import.slowest-hash")
      .executeTakeFirstOrThrow();
    expect(Object.keys(report.hashKinds)).toContain(parseImportedHash(floor.value).kind);
    const stored = await t.ctx.db.selectFrom("account").select("password").execute();
    expect(stored.map((row) => row.password)).not.toContain(floor.value);

    const again = await runCli(["import", "authd", file, "--commit", "--allow-insecure-hashes", "--json"], { env });
    expect(again.json<Report>()).toMatchObject({ imported: 0, unchanged: 7 });
    expect(await userCount()).toBe(before + 7);

    // Every imported user signs in with the old password, which is then authd's own; a wrong one is refused.
    const passwords: [string, string][] = [
      ["bcrypt", "bcrypt-password"],
      ["argon", "argon-password"],
      ["django", "django-password"],
      ["better", "better-password"],
      ["firebase", FIREBASE_VECTOR.password],
      ["md5", "md5-password"],
    ];
    for (const [name, password] of passwords) {
      expect((await signIn(email(name), `${password}-wrong`)).status, name).toBe(401);
      expect((await storedHash(email(name)))?.startsWith("$"), name).toBe(true);
      const ok = await signIn(email(name), password);
      expect(ok.status, `${name}: ${ok.text}`).toBe(200);
      expect(await storedHash(email(name)), name).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    }

    // The TOTP secret came along: its codes are accepted after the password.
    const challenged = t.agent();
    expect((await challenged.post("/sign-in/email", { email: email("totp"), password: "totp-password" })).body).toEqual(
      {
        twoFactorRedirect: true,
      },
    );
    const code = totp(Buffer.from(TOTP_SECRET, "utf8"), Date.now());
    const verified = await challenged.post("/two-factor/verify-totp", { code });
    expect(verified.status, verified.text).toBe(200);

    // The verified owner's account was not taken over: their password works, the record's does not.
    expect((await signIn(owner.email, "attackers-password")).status).toBe(401);
    expect((await signIn(owner.email, "owners-own-password")).status).toBe(200);
  });

  it("merge joins a record to an existing user only when both are verified, and never replaces their password", async () => {
    const verified = await signUp(t, { email: email("merge-ok"), password: "merge-owner-password" });
    await t.ctx.db.updateTable("user").set({ emailVerified: true }).where("id", "=", verified.user.id).execute();
    const unverified = await signUp(t, { email: email("merge-no"), password: "merge-other-password" });
    const file = writeInterchangeFile(dir, "merge.jsonl", [
      {
        id: `mo-${run}`,
        email: verified.email,
        password: bcryptHash("merge-record-password"),
        accounts: [{ provider: "github", accountId: `merged-${run}` }],
      },
      { id: `mn-${run}`, email: unverified.email, password: bcryptHash("merge-record-password") },
    ]);
    const merged = await runCli(["import", "authd", file, "--commit", "--on-conflict", "merge", "--json"], { env });
    expect(merged.json<Report>()).toMatchObject({ merged: 1, refused: 1 });
    expect(merged.json<Report>().problems[0].problem).toMatch(/merge needs both sides verified/);
    const links = await t.ctx.db
      .selectFrom("account")
      .select("providerId")
      .where("userId", "=", verified.user.id)
      .orderBy("providerId")
      .execute();
    expect(links.map((l) => l.providerId)).toEqual(["credential", "github"]);
    expect((await signIn(verified.email, "merge-record-password")).status).toBe(401);
    expect((await signIn(verified.email, "merge-owner-password")).status).toBe(200);
    expect((await signIn(unverified.email, "merge-record-password")).status).toBe(401);
  });

  it("--on-conflict fail writes nothing when any email exists", async () => {
    const existing = await signUp(t, { email: email("fail-existing") });
    const file = writeInterchangeFile(dir, "fail.jsonl", [
      { id: `fn-${run}`, email: email("fail-new"), password: bcryptHash("whatever-1") },
      { id: `fe-${run}`, email: existing.email, password: bcryptHash("whatever-2") },
    ]);
    const result = await runCli(["import", "authd", file, "--commit", "--on-conflict", "fail"], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^authd: 1 emails belong to existing users \(--on-conflict fail\); nothing written\n$/,
    );
    expect(await storedHash(email("fail-new"))).toBeUndefined();
  });

  it("carries each user's language both ways, and refuses a record whose language authd has no catalogue for", async () => {
    const users = [
      { id: `de-${run}`, email: email("deutsch"), password: null, language: "de" },
      { id: `none-${run}`, email: email("browser"), password: null, language: null },
      { id: `xx-${run}`, email: email("klingon"), password: null, language: "tlh" },
    ];
    const file = writeInterchangeFile(dir, "languages.jsonl", users);
    const commit = await runCli(["import", "authd", file, "--commit", "--json"], { env });
    const report = commit.json<Report>();
    expect(report).toMatchObject({ imported: 2, refused: 1 });
    expect(report.problems.find((p) => p.record === "line 4")?.problem).toMatch(/^language/);
    const language = async (address: string) =>
      (await t.ctx.db.selectFrom("user").select("language").where("email", "=", address).executeTakeFirst())?.language;
    expect(await language(email("deutsch"))).toBe("de");
    expect(await language(email("browser"))).toBeNull();
    expect(await language(email("klingon"))).toBeUndefined();
    const exported = await runCli(["export"], { env });
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line));
    expect(lines.find((line) => line.email === email("deutsch"))?.language).toBe("de");
    expect(lines.find((line) => line.email === email("browser"))?.language).toBeNull();
  });

  it("export → import into an empty database → export gives the same lines; secrets only into a 0600 file", async () => {
    const noFile = await runCli(["export", "--include-secrets"], { env });
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/--output/);

    const first = join(dir, "first.jsonl");
    const exported = await runCli(["export", "--include-secrets", "--output", first, "--json"], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(statSync(first).mode & 0o777).toBe(0o600);
    expect(exported.stderr).toMatch(/0600/);

    const empty = await createTestContext({ dialect });
    try {
      const emptyEnv = { AUTH_DATABASE_URL: empty.ctx.config.databaseURL };
      const imported = await runCli(["import", "authd", first, "--commit", "--allow-insecure-hashes", "--json"], {
        env: emptyEnv,
      });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.json<Report>().refused).toBe(0);
      const second = join(dir, "second.jsonl");
      expect((await runCli(["export", "--include-secrets", "--output", second], { env: emptyEnv })).code).toBe(0);
      const withoutTime = (path: string) => readFileSync(path, "utf8").replace(/"exportedAt":"[^"]+",/, "");
      expect(withoutTime(second)).toBe(withoutTime(first));
      expect(readFileSync(second, "utf8")).toContain(TOTP_SECRET);

      // Without --include-secrets: no hash, no TOTP secret, no backup code.
      const plain = await runCli(["export"], { env: emptyEnv });
      expect(plain.code).toBe(0);
      expect(plain.stdout).not.toContain(TOTP_SECRET);
      expect(plain.stdout).not.toMatch(/"password"|backupCodes|\$2b\$/);
      expect(plain.stdout.trim().split("\n").length).toBe(imported.json<Report>().imported + 1);
    } finally {
      await empty.close();
    }
  });
});
