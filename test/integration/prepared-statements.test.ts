import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStatementNamer } from "../../src/db/prepared-statements.ts";
import { createTestContext, signUp, type TestContext } from "../helpers/context.ts";
import { postgresUnavailableReason } from "../helpers/postgres.ts";

// Hot statements are prepared once per Postgres connection instead of parsed and planned on every call.

describe("statement naming", () => {
  it("names a text once it has been seen three times, and keeps the name", () => {
    const nameFor = createStatementNamer();
    expect(nameFor("select 1")).toBeUndefined();
    expect(nameFor("select 1")).toBeUndefined();
    const name = nameFor("select 1");
    expect(name).toMatch(/^authd_\d+$/);
    expect(nameFor("select 1")).toBe(name);
    expect(nameFor("select 2")).toBeUndefined();
  });
});

describe.skipIf((await postgresUnavailableReason()) !== null)("prepared statements on Postgres", () => {
  let t: TestContext;
  beforeAll(async () => {
    // One connection, so every query below shares the session whose prepared statements are inspected.
    t = await createTestContext({
      dialect: "postgres",
      env: { AUTH_DATABASE_POOL_SIZE: "1", AUTH_SESSION_MEMORY_CACHE: "off" },
    });
  });
  afterAll(() => t.close());

  it("prepares the session lookup once and reuses it", async () => {
    const { agent } = await signUp(t);
    for (let i = 0; i < 6; i += 1)
      expect((await agent.get("/get-session", { query: { disableCookieCache: true } })).status).toBe(200);
    const { rows } = await sql<{
      name: string;
      statement: string;
    }>`select name, statement from pg_prepared_statements`.execute(t.ctx.db);
    const lookups = rows.filter((row) => row.statement.includes(`"session"."tokenHash" as "s_tokenHash"`));
    expect(lookups).toHaveLength(1);
    expect(lookups[0].name).toMatch(/^authd_\d+$/);
  });

  it("survives a schema change under a prepared statement by running it unprepared", async () => {
    const { user } = await signUp(t);
    const find = () => t.ctx.db.selectFrom("user").selectAll().where("id", "=", user.id).executeTakeFirst();
    for (let i = 0; i < 4; i += 1) expect((await find())?.id).toBe(user.id);
    await sql`alter table "user" add column "benchProbe" text`.execute(t.ctx.db);
    expect((await find())?.id).toBe(user.id);
    expect((await find())?.id).toBe(user.id);
  });
});
