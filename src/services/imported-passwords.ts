import { randomBytes } from "node:crypto";
import type { AuthContext } from "../context.ts";
import { dummyLike, type ImportedHash, isImportedHash, parseImportedHash } from "../crypto/imported-hash.ts";
import { verifyImportedHash } from "../crypto/imported-hash-verify.ts";
import { replacePasswordIf } from "../db/repositories/accounts.ts";
import { findSetting, upsertSetting } from "../db/repositories/settings.ts";
import type { AccountRow, Db } from "../db/schema.ts";
import { perContext } from "../platform/per-context.ts";
import { withTransaction } from "../platform/transaction.ts";
import { type EventSource, recordSecurityEvent } from "./security-events.ts";

// Passwords of imported users (issue 33): checked against the hash their old system made, then replaced by
// authd's own scrypt on the first success. And the timing that keeps imported accounts from standing out:
// while an imported hash slower than authd's own may remain, every password check (known, imported or
// unknown account) lasts at least as long as checking the slowest imported kind does here.

/**
 * Check a password against a credential account's hash, whichever kind it holds. An imported hash that
 * matches is replaced by authd's own (compare-and-swap: a concurrent upgrade or change wins) and the
 * upgrade recorded as `password_upgraded`, by `source` (the user proving it; asked only then, so that a
 * failed attempt names nobody).
 */
export async function verifyAccountPassword(
  ctx: AuthContext,
  account: Pick<AccountRow, "id" | "userId" | "password">,
  password: string,
  source: () => EventSource,
): Promise<boolean> {
  const stored = account.password;
  if (!stored) return false;
  if (!isImportedHash(stored)) return ctx.passwords.verify(stored, password);
  if (!(await verifyImportedHash(stored, password))) return false;
  const from = parseImportedHash(stored).kind;
  // Hash before the transaction: scrypt takes tens of milliseconds and must not hold a write lock meanwhile.
  const upgraded = await ctx.passwords.hash(password);
  await withTransaction(ctx, async (tx) => {
    if (await replacePasswordIf(tx.db, account.id, stored, upgraded, tx.now()))
      await recordSecurityEvent(tx, {
        type: "password_upgraded",
        outcome: "success",
        from,
        userId: account.userId,
        source: source(),
      });
  });
  return true;
}

const SLOWEST_KEY = "import.slowest-hash";

/** How long verifying `text` takes here, in milliseconds (a wrong password: the whole derivation runs). */
async function timeVerification(text: string): Promise<number> {
  const started = performance.now();
  await verifyImportedHash(text, "authd-timing-equaliser");
  return performance.now() - started;
}

/**
 * After an import: remember a hash shaped like the slowest of `hashes` (kind and cost; random salt and key, so
 * no password matches it) unless one slower is remembered already. Measured here, where the import runs.
 */
export async function rememberSlowestImportedHash(db: Db, hashes: Iterable<ImportedHash>): Promise<void> {
  const byShape = new Map<string, ImportedHash>();
  for (const hash of hashes)
    byShape.set(
      dummyLike(hash, (n) => Buffer.alloc(n)),
      hash,
    );
  let slowest: { text: string; ms: number } | null = null;
  const known = await findSetting(db, SLOWEST_KEY);
  if (known) slowest = { text: known, ms: await timeVerification(known) };
  for (const hash of byShape.values()) {
    const text = dummyLike(hash, randomBytes);
    const ms = await timeVerification(text);
    if (!slowest || ms > slowest.ms) slowest = { text, ms };
  }
  if (slowest && slowest.text !== known) await upsertSetting(db, SLOWEST_KEY, slowest.text);
}

const REFRESH_MS = 60_000;

interface Floor {
  readAt: number;
  text: string | undefined;
  ms: Promise<number>;
}

const floors = perContext(() => ({ current: null as Floor | null }));

/**
 * What a wrong password against the slowest imported kind costs at sign-in: its check, then authd's own
 * (checkPassword runs both, so that a cheap legacy hash does not answer faster than a native account).
 */
async function timeImportedCheck(ctx: AuthContext, text: string): Promise<number> {
  const started = performance.now();
  await verifyImportedHash(text, "authd-timing-equaliser");
  await ctx.passwords.verifyAgainstDummy("authd-timing-equaliser");
  return performance.now() - started;
}

/** The least time a password check takes in this process: checking the slowest imported kind (0 when none). */
async function checkFloor(ctx: AuthContext): Promise<number> {
  const state = floors(ctx);
  const now = Date.now();
  if (!state.current || now - state.current.readAt > REFRESH_MS) {
    const text = await findSetting(ctx.db, SLOWEST_KEY);
    if (state.current?.text !== text || !state.current) {
      state.current = { readAt: now, text, ms: text ? timeImportedCheck(ctx, text) : Promise.resolve(0) };
    } else state.current.readAt = now;
  }
  return state.current.ms;
}

/** Wait until a password check begun at `started` (performance.now()) has lasted the floor. */
export async function lastAtLeastTheFloor(ctx: AuthContext, started: number): Promise<void> {
  const floor = await checkFloor(ctx);
  const left = floor - (performance.now() - started);
  if (left > 1) await new Promise((resolve) => setTimeout(resolve, left));
}
