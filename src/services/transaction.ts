import type { AuthContext } from "../context.ts";

// Services own transactions. A service that changes rows and records the security event describing the
// change runs both in one transaction: `work` receives a context whose `db` is the transaction, and every
// service it calls with that context (the audit row included) writes through it. Called inside a
// transaction already, it joins it (Kysely has no nested transactions), so services compose.
//
// Inside `work`, use only the given context: on SQLite the database has one connection, and a query on
// the outer handle would wait for the transaction that waits for it.

export function withTransaction<T>(ctx: AuthContext, work: (tx: AuthContext) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return work(ctx);
  return ctx.db.transaction().execute((trx) => work({ ...ctx, db: trx }));
}
