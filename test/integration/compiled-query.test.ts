import { afterEach, beforeEach, expect, it } from "vitest";
import { compiledOnce } from "../../src/db/compiled-query.ts";
import type { Db } from "../../src/db/schema.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";

// Hot statements are built once and re-bound per call: the values must land in the right places, constants
// the builder put in the SQL must stay, and a transaction must reuse its database's compiled statement.

describeEachDialect("compiledOnce", (dialect) => {
  let t: TestContext;
  beforeEach(async () => {
    t = await createTestContext({ dialect });
    const now = Date.now();
    for (const n of [1, 2, 3])
      await t.ctx.db
        .insertInto("user")
        .values({
          id: `u${n}`,
          name: `User ${n}`,
          email: `u${n}@example.com`,
          emailVerified: n !== 2,
          createdAt: now,
          updatedAt: now,
          role: "user",
        })
        .execute();
  });
  afterEach(() => t.close());

  it("binds each call's values in place of the marks, keeps constants, and builds once", async () => {
    let builds = 0;
    const find = compiledOnce((db: Db, name: string, id: string) => {
      builds += 1;
      return db
        .selectFrom("user")
        .select(["id", "email"])
        .where("emailVerified", "=", true)
        .where((eb) => eb.or([eb("name", "=", name), eb("id", "=", id)]))
        .orderBy("id");
    });
    expect(await find(t.ctx.db, "User 1", "u3")).toEqual([
      { id: "u1", email: "u1@example.com" },
      { id: "u3", email: "u3@example.com" },
    ]);
    // u2 matches by name but is not verified: the constant from the builder still applies.
    expect(await find(t.ctx.db, "User 2", "nobody")).toEqual([]);
    expect(await find(t.ctx.db, "nobody", "u1")).toEqual([{ id: "u1", email: "u1@example.com" }]);
    await t.ctx.db.transaction().execute(async (trx) => {
      expect(await find(trx, "User 3", "nobody")).toEqual([{ id: "u3", email: "u3@example.com" }]);
    });
    expect(builds).toBe(1);
  });

  it("a statement sent while a transaction holds the connection waits for it, and is not part of it", async () => {
    // Given a transaction that renamed u1 and waits, holding the connection (SQLite has one)
    const rename = compiledOnce((db: Db, name: string, id: string) =>
      db.updateTable("user").set({ name }).where("id", "=", id).returning(["id", "name"]),
    );
    const findName = compiledOnce((db: Db, id: string) => db.selectFrom("user").select("name").where("id", "=", id));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let renamedInside = () => {};
    const inside = new Promise<void>((resolve) => (renamedInside = resolve));
    const transaction = t.ctx.db
      .transaction()
      .execute(async (trx) => {
        await rename(trx, "inside", "u1");
        renamedInside();
        await held;
        throw new Error("roll back");
      })
      .catch((error: Error) => error.message);
    await inside;
    // When statements outside it are sent meanwhile (a read of u1, a rename of u2)
    const read = findName(t.ctx.db, "u1");
    const write = rename(t.ctx.db, "outside", "u2");
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    // Then the transaction rolls back alone: the read saw no uncommitted name, the write outside stays
    expect(await transaction).toBe("roll back");
    expect(await read).toEqual([{ name: "User 1" }]);
    expect(await write).toEqual([{ id: "u2", name: "outside" }]);
    expect(await findName(t.ctx.db, "u1")).toEqual([{ name: "User 1" }]);
    expect(await findName(t.ctx.db, "u2")).toEqual([{ name: "outside" }]);
  });

  it("a value is data, never SQL", async () => {
    const find = compiledOnce((db: Db, email: string) => db.selectFrom("user").select("id").where("email", "=", email));
    expect(await find(t.ctx.db, "x' or '1'='1")).toEqual([]);
    expect(await find(t.ctx.db, "u2@example.com")).toEqual([{ id: "u2" }]);
  });

  it("refuses a statement that ignores one of its parameters", async () => {
    const broken = compiledOnce((db: Db, _unused: string) => db.selectFrom("user").select("id"));
    await expect(broken(t.ctx.db, "x")).rejects.toThrow(/uses 0 of 1 parameters/);
  });
});
