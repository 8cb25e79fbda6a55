import { sql } from "kysely";
import type { AuthContext } from "../context.ts";
import { listAccountsByUserId } from "../db/repositories/accounts.ts";
import { AuthError } from "../errors.ts";

/**
 * Remove one linked account. The user's row is locked first (Postgres; SQLite transactions are serial),
 * so two concurrent unlinks of a user's last two accounts cannot both see "one other remains".
 */
export async function unlinkAccount(ctx: AuthContext, userId: string, providerId: string, accountId?: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (ctx.database.dialect === "postgres") await sql`select 1 from "user" where id = ${userId} for update`.execute(trx);
    const accounts = await listAccountsByUserId(trx, userId);
    if (accounts.length === 1 && !ctx.config.account.accountLinking.allowUnlinkingAll) throw new AuthError("FAILED_TO_UNLINK_LAST_ACCOUNT");
    const target = accounts.find((a) => a.providerId === providerId && (accountId === undefined || a.accountId === accountId));
    if (!target) throw new AuthError("ACCOUNT_NOT_FOUND");
    await trx.deleteFrom("account").where("id", "=", target.id).execute();
  });
}
