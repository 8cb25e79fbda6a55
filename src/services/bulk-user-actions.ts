import type { AuthContext } from "../context.ts";
import { AuthError } from "../errors.ts";
import { withTransaction } from "../platform/transaction.ts";
import { type BanOptions, banUser, revokeSessionsOf, unbanUser } from "./admin.ts";
import type { EventSource } from "./security-events.ts";
import { findUserById } from "./users.ts";

// Operators' actions on many users at once (the web console's users list): ban, unban, sign out. One call
// acts on every user chosen in one transaction, through the same function as the single action, so each
// user gets the same change and the same security event, naming the acting operator. Users that no longer
// exist are skipped and reported, not an error: the list the operator chose from may be a minute old.

/** The most users one call acts on (a page of the console's list at most). */
export const BULK_USER_LIMIT = 100;

export interface BulkOutcome {
  /** The users acted on. */
  done: string[];
  /** Chosen, but needing nothing (unban: not banned). */
  unchanged: string[];
  /** Chosen, but no longer there. */
  missing: string[];
}

function chosen(userIds: readonly string[]): string[] {
  const unique = [...new Set(userIds.map((id) => id.trim()).filter((id) => id.length > 0))];
  // The console's forms never send these (a confirmation lists at most a page); a crafted one is refused whole.
  if (unique.length === 0) throw new AuthError("VALIDATION_ERROR", { message: "No users chosen" });
  if (unique.length > BULK_USER_LIMIT)
    throw new AuthError("VALIDATION_ERROR", { message: `At most ${BULK_USER_LIMIT} users at once` });
  return unique;
}

async function eachUser(
  ctx: AuthContext,
  userIds: readonly string[],
  act: (tx: AuthContext, user: NonNullable<Awaited<ReturnType<typeof findUserById>>>) => Promise<boolean>,
): Promise<BulkOutcome> {
  const ids = chosen(userIds);
  return withTransaction(ctx, async (tx) => {
    const outcome: BulkOutcome = { done: [], unchanged: [], missing: [] };
    for (const id of ids) {
      const user = await findUserById(tx, id);
      if (!user) outcome.missing.push(id);
      else if (await act(tx, user)) outcome.done.push(id);
      else outcome.unchanged.push(id);
    }
    return outcome;
  });
}

/** Ban every user chosen and end their sessions; refused whole when the operator is among them. */
export async function banUsers(
  ctx: AuthContext,
  userIds: readonly string[],
  options: BanOptions,
  source: EventSource,
): Promise<BulkOutcome> {
  if (source.actorId !== null && chosen(userIds).includes(source.actorId))
    throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
  return eachUser(ctx, userIds, async (tx, user) => {
    await banUser(tx, user.id, options, source);
    return true;
  });
}

/** Lift the ban of every user chosen who has one (an expired one too: its flag goes). */
export function unbanUsers(ctx: AuthContext, userIds: readonly string[], source: EventSource): Promise<BulkOutcome> {
  return eachUser(ctx, userIds, async (tx, user) => {
    if (!user.banned) return false;
    await unbanUser(tx, user.id, source);
    return true;
  });
}

/** End every session of every user chosen: one `session_revoked` event per user, with its count. */
export async function revokeSessionsOfUsers(
  ctx: AuthContext,
  userIds: readonly string[],
  source: EventSource,
): Promise<BulkOutcome & { sessions: number }> {
  let sessions = 0;
  const outcome = await eachUser(ctx, userIds, async (tx, user) => {
    sessions += await revokeSessionsOf(tx, { userId: user.id }, source);
    return true;
  });
  return { ...outcome, sessions };
}
