import type { AuthContext } from "../../context.ts";
import * as apiKeys from "../../db/repositories/api-keys.ts";
import { perContext } from "../../platform/per-context.ts";
import { forgetApiKeyRows } from "./rows.ts";

// Expired keys are deleted in the background after key operations (at most once every CLEANUP_INTERVAL_MS per
// context), and all at once by POST /api-key/delete-all-expired-api-keys.

const CLEANUP_INTERVAL_MS = 10_000;

/** When this context last swept expired keys (ms), or null before its first sweep. */
const lastSweep = perContext((): { at: number | null } => ({ at: null }));

/** Delete every expired key now; returns how many went. */
export async function deleteAllExpiredApiKeys(ctx: AuthContext): Promise<number> {
  lastSweep(ctx).at = ctx.now();
  const deleted = await apiKeys.deleteExpiredApiKeys(ctx.db, ctx.now());
  if (deleted > 0) await forgetApiKeyRows(ctx, ctx.db);
  return deleted;
}

/** After a key operation: sweep expired keys in the background, at most once every 10 seconds. */
export function scheduleExpiredApiKeyCleanup(ctx: AuthContext): void {
  const last = lastSweep(ctx).at;
  if (last !== null && ctx.now() - last < CLEANUP_INTERVAL_MS) return;
  ctx.background(deleteAllExpiredApiKeys(ctx));
}
