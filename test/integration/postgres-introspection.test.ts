import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { POSTGRES_URL, postgresUnavailableReason } from "../helpers/postgres.ts";

// The migrator asks Kysely's introspection whether its bookkeeping tables exist. authd's Postgres dialect
// reads authd's own schema only (src/db/one-schema-dialect.ts): another schema's tables are not seen, and a
// schema another process drops meanwhile cannot fail a start-up ("schema … does not exist").

const postgresSkipped = await postgresUnavailableReason();

describe.skipIf(postgresSkipped !== null)("Postgres introspection of authd's schema [postgres]", () => {
  let t: TestContext;
  const other = `t_other_${Date.now().toString(36)}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    t = await createTestContext({ dialect: "postgres" });
    // Another tenant's schema in the same database, with tables of the same names
    await admin(`create schema ${other}; create table ${other}."user" (id text, tenant text);
      create table ${other}.authd_migration (name text)`);
  });
  afterAll(async () => {
    await admin(`drop schema if exists ${other} cascade`);
    await t.close();
  });

  it("lists authd's tables and columns in its own schema, nothing of another schema", async () => {
    const schema = t.ctx.database.schema;
    const tables = await t.ctx.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([schema]));
    const user = tables.find((table) => table.name === "user");
    expect(user?.columns.map((column) => column.name)).toEqual(expect.arrayContaining(["id", "email", "name"]));
    expect(user?.columns.map((column) => column.name)).not.toContain("tenant");
    expect(tables.map((table) => table.name)).toContain("authd_migration");
    expect(await t.ctx.db.introspection.getSchemas()).toEqual([{ name: schema }]);
  });

  it("is unaffected by a schema dropped while it reads", async () => {
    // Many schemas come and go beside it while it introspects over and over
    const churn = Array.from({ length: 8 }, (_, i) => `${other}_churn${i}`);
    let stop = false;
    const churning = (async () => {
      while (!stop)
        for (const name of churn)
          await admin(`create schema if not exists ${name}; create table if not exists ${name}.t (a int);
            drop schema ${name} cascade`);
    })();
    try {
      for (let round = 0; round < 40; round++)
        expect((await t.ctx.db.introspection.getTables()).length).toBeGreaterThan(10);
    } finally {
      stop = true;
      await churning;
    }
  });
});
