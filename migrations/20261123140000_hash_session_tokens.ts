import { createHash } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";

// Session tokens were stored in clear, so a copy of the database was a set of live sessions. From here on
// the session table keeps only the SHA-256 of each token (base64url) in "tokenHash", which stays unique and
// stays the lookup key. Rows are converted in place: a session signed in before the upgrade keeps working,
// because its cookie carries the token and the server hashes what it receives.
//
// The hash is spelled out here instead of imported: a migration has to do what it did the day it shipped,
// whatever the application's code becomes (src/services/sessions/sessions.ts hashes the same way, and a test checks
// that an old cookie still signs in after this runs).
//
// down() cannot give the tokens back (that is the point): it empties the table, so everyone signs in again.

type AnyDb = Kysely<any>;
type AnyTransaction = Transaction<any>;

const BATCH = 500;

const hashToken = (token: string) => createHash("sha256").update(token).digest("base64url");

// Postgres runs each migration in a transaction already; SQLite's migrator does not, and a half-converted
// table (some rows hashed, some not, with nothing to tell them apart) must not survive a crash.
function inTransaction(db: AnyDb, work: (trx: AnyTransaction) => Promise<void>): Promise<void> {
  return db.isTransaction ? work(db as AnyTransaction) : db.transaction().execute(work);
}

export async function up(db: AnyDb): Promise<void> {
  await inTransaction(db, async (trx) => {
    // Renaming keeps the column's NOT NULL and its unique index on both dialects.
    await trx.schema.alterTable("session").renameColumn("token", "tokenHash").execute();
    let after = "";
    for (;;) {
      const rows: { id: string; tokenHash: string }[] = await trx
        .selectFrom("session")
        .select(["id", "tokenHash"])
        .where("id", ">", after)
        .orderBy("id")
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      // One statement per batch; a hash (43 characters) never equals a token (32), so the unique index
      // cannot trip over a half-updated batch.
      const hashed = sql.join(
        rows.map((row) => sql`when ${row.id} then ${hashToken(row.tokenHash)}`),
        sql` `,
      );
      await trx
        .updateTable("session")
        .set({ tokenHash: sql`case ${sql.ref("id")} ${hashed} end` })
        .where(
          "id",
          "in",
          rows.map((row) => row.id),
        )
        .execute();
      after = rows[rows.length - 1].id;
    }
  });
}

export async function down(db: AnyDb): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom("session").execute();
    await trx.schema.alterTable("session").renameColumn("tokenHash", "token").execute();
  });
}
