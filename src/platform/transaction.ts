import type { Kysely, Transaction } from "kysely";
import type { Database, Db } from "../db/schema.ts";

// Services own transactions. A service that changes rows and records the security event describing the
// change runs both in one transaction: `work` receives a context whose `db` is the transaction, and every
// service it calls with that context (the audit row included) writes through it. Called inside a
// transaction already, it joins it (Kysely has no nested transactions), so services compose.
//
// Inside `work`, use only the given context: on SQLite the database has one connection, and a query on
// the outer handle would wait for the transaction that waits for it.

/** Work to run after a commit; it is given the database the transaction was opened on (no longer the transaction). */
type AfterCommitHook = (db: Kysely<Database>) => void;

const afterCommitHooks = new WeakMap<object, AfterCommitHook[]>();

/**
 * Run `hook` once the transaction `db` has committed (at once when `db` is no transaction). Hooks of a
 * transaction opened by `withTransaction` or `inTransaction` run after its commit; a rolled-back one drops them.
 */
export function afterCommit(db: Db, hook: AfterCommitHook): void {
  if (!db.isTransaction) {
    hook(db);
    return;
  }
  afterCommitHooks.get(db)?.push(hook);
}

/** `db.transaction().execute(work)`, running the after-commit hooks registered on the transaction. */
export async function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  let hooks: AfterCommitHook[] = [];
  const result = await db.transaction().execute((trx) => {
    hooks = [];
    afterCommitHooks.set(trx, hooks);
    return work(trx);
  });
  for (const hook of hooks) hook(db);
  return result;
}

/** Run `work` with a copy of the context (AuthContext) whose `db` is a transaction, or joins the one it is in. */
export function withTransaction<C extends { db: Kysely<Database> }, T>(
  ctx: C,
  work: (tx: C) => Promise<T>,
): Promise<T> {
  if (ctx.db.isTransaction) return work(ctx);
  return inTransaction(ctx.db, (trx) => work({ ...ctx, db: trx }));
}
