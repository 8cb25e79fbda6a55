import { afterAll, beforeAll, expect, it } from "vitest";
import type { V1UserInput } from "../../src/services/import/format.ts";
import { type RecordStream, runImport } from "../../src/services/import/run.ts";
import { createTestContext, describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";

// An import batch is written in multi-row inserts (issue 33: a million users in minutes), and must decide
// exactly as records written one by one: a repeated source id, a username or a provider account met
// earlier in the same batch, an id or an address taken in the database, and records written one by one (a
// second factor) in the middle of the batch.

const streamOf = (records: V1UserInput[]): RecordStream => ({
  header: { hashConfigs: {} },
  async *records() {
    for (const [index, record] of records.entries()) yield { position: `user ${index + 1}`, record };
  },
});

const at = "2024-01-01T00:00:00.000Z";
const user = (id: string, fields: Partial<V1UserInput> = {}): V1UserInput => ({
  id,
  email: `${id}@batch.example`,
  emailVerified: true,
  name: id,
  createdAt: at,
  updatedAt: at,
  ...fields,
});

describeEachDialect("import batches", (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
  });
  afterAll(() => t.close());

  const run = (records: V1UserInput[], batchSize = 100) =>
    runImport(t.ctx, streamOf(records), {
      source: "batch-test",
      commit: true,
      onConflict: "skip",
      allowInsecureHashes: false,
      batchSize,
    });
  const accountsOf = (provider: string, accountId: string) =>
    t.ctx.db
      .selectFrom("account")
      .select("userId")
      .where("providerId", "=", provider)
      .where("accountId", "=", accountId)
      .execute();

  it("decides inside one batch as record by record, and writes every row once", async () => {
    const taken = await signUp(t, { email: "taken@batch.example" });
    const report = await run([
      user("b-one", { username: "shared_name", accounts: [{ provider: "github", accountId: "gh-1" }] }),
      user("b-two", { username: "shared_name" }),
      user("b-2fa", {
        accounts: [{ provider: "github", accountId: "gh-2" }],
        twoFactor: { enabled: true, totpSecret: "a-totp-secret-of-twenty", backupCodes: [] },
      }),
      user("b-three", { accounts: [{ provider: "github", accountId: "gh-2" }] }),
      user("b-four", { email: "taken@batch.example" }),
      user(taken.user.id, { email: "other-id@batch.example" }),
    ]);
    expect(report).toMatchObject({ imported: 4, conflicts: 1, refused: 1 });
    expect(report.problems.map((p) => p.problem)).toEqual([
      "username belongs to an existing user",
      "email belongs to an existing user",
    ]);
    // gh-2 went to the second-factor user written one by one; the later record did not take it.
    const owner = await t.ctx.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "b-2fa@batch.example")
      .executeTakeFirstOrThrow();
    expect(await accountsOf("github", "gh-2")).toEqual([{ userId: owner.id }]);
    expect((await accountsOf("github", "gh-1")).length).toBe(1);
    // A taken id gets a new one; the address decides who the user is.
    const moved = await t.ctx.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "other-id@batch.example")
      .executeTakeFirstOrThrow();
    expect(moved.id).not.toBe(taken.user.id);
    // Run again: the source's ids are known, nothing changes.
    expect(await run([user("b-one"), user("b-three")])).toMatchObject({ imported: 0, unchanged: 2 });
  });

  it("writes across batch boundaries the same way (batch of 2)", async () => {
    const records = Array.from({ length: 7 }, (_, i) =>
      user(`x-${i}`, { accounts: [{ provider: "google", accountId: `g-${i % 3}` }] }),
    );
    const report = await run(records, 2);
    expect(report).toMatchObject({ imported: 7, refused: 0 });
    for (const n of [0, 1, 2]) expect((await accountsOf("google", `g-${n}`)).length).toBe(1);
    const count = await t.ctx.db
      .selectFrom("importedUser")
      .select("userId")
      .where("source", "=", "batch-test")
      .execute();
    expect(count.length).toBeGreaterThanOrEqual(7);
  });
});
