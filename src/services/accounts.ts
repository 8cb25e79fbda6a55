import type { AuthContext } from "../context.ts";
import { deleteAccount, listAccountsByUserId } from "../db/repositories/accounts.ts";
import { lockUser } from "../db/repositories/users.ts";
import type { SessionRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { inTransaction } from "../platform/transaction.ts";
import type { LinkedAccount } from "../wire/account.ts";
import { isoDate } from "../wire/common.ts";
import { isSessionFresh } from "./sessions/sessions.ts";

/** The user's linked accounts (credential and social) as list-accounts shows them: no secret among them. */
export async function listAccounts(ctx: AuthContext, userId: string): Promise<LinkedAccount[]> {
  const rows = await listAccountsByUserId(ctx.db, userId);
  return rows.map((row) => ({
    id: row.id,
    provider: row.providerId,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
    accountId: row.accountId,
    scopes: row.scope ? row.scope.split(",").filter(Boolean) : [],
  }));
}

/**
 * Remove one of the session's user's linked accounts; the session must be fresh (session.freshAge). The
 * user's row is locked first (Postgres; SQLite transactions are serial), so two concurrent unlinks of a
 * user's last two accounts cannot both see "one other remains".
 */
export async function unlinkAccount(
  ctx: AuthContext,
  session: SessionRow,
  providerId: string,
  accountId?: string,
): Promise<void> {
  if (!isSessionFresh(ctx, session)) throw new AuthError("SESSION_NOT_FRESH");
  const { userId } = session;
  await inTransaction(ctx.db, async (trx) => {
    await lockUser(trx, ctx.database.dialect, userId);
    const accounts = await listAccountsByUserId(trx, userId);
    if (accounts.length === 1 && !ctx.config.account.accountLinking.allowUnlinkingAll)
      throw new AuthError("FAILED_TO_UNLINK_LAST_ACCOUNT");
    const target = accounts.find(
      (a) => a.providerId === providerId && (accountId === undefined || a.accountId === accountId),
    );
    if (!target) throw new AuthError("ACCOUNT_NOT_FOUND");
    await deleteAccount(trx, target.id);
  });
}
