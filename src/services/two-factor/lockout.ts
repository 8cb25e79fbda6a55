import type { AuthContext } from "../../context.ts";
import {
  deleteVerificationById,
  findVerificationById,
  insertVerificationIfAbsent,
  replaceVerificationIfUnchanged,
} from "../../db/repositories/verifications.ts";
import type { Db, UserRow } from "../../db/schema.ts";
import type { AuthError } from "../../errors.ts";
import { tooManyRequests } from "../../platform/rate-limit.ts";
import { type EventSource, recordSecurityEvent } from "../security-events.ts";

// The per-account bound on second-factor guesses (NIST SP 800-63B §5.2.2). A challenge voids itself after
// a few wrong codes, but a new password step gives a new challenge and a correct password clears the
// password throttle, so someone who knows the password could otherwise guess codes without end. Here every
// attempt of a challenge (TOTP, backup code, mailed code; wrong, expired or replayed) counts against the
// account, whatever challenge or address it comes from, and only a success or an operator clears the count.
//
// - twoFactor.maxFailures attempts in a row lock the second factor for twoFactor.lockout seconds; while the
//   count stays full, every further failure locks it again for twice as long (up to 24 hours), so after the
//   bound a guesser gets one try per cool-down. Each lock is logged and mailed to the owner.
// - An attempt is counted before its code is checked, with a compare-and-set on one record per user, so
//   guesses sent at the same time cannot slip past the bound: the attempt that fills it sets the lock.
// - The record lives in the database (the verification table, one row per user under a fixed id), not in
//   the rate-limit storage: it must outlive restarts whatever that storage is (memory by default), and a
//   cool-down that grows does not fit its fixed windows.

const PREFIX = "two-factor-lock:";
/** The longest cool-down, whatever the number of locks. */
export const MAX_LOCKOUT_SECONDS = 86_400;
/** A count with no new failure for this long is forgotten (the record expires). */
const FORGET_AFTER_MS = 90 * 86_400_000;

interface LockState {
  /** Attempts since the last success (counted when they start). */
  failures: number;
  /** Locks since the last success: the next cool-down is lockout × 2^lockouts. */
  lockouts: number;
  /** Epoch ms until which attempts are refused (0: never locked). */
  lockedUntil: number;
}

const FRESH: LockState = { failures: 0, lockouts: 0, lockedUntil: 0 };

const recordId = (userId: string) => `${PREFIX}${userId}`;
const encode = (state: LockState) => `${state.failures}:${state.lockouts}:${state.lockedUntil}`;

function decode(value: string): LockState {
  const [failures, lockouts, lockedUntil] = value.split(":").map((part) => Number(part) || 0);
  return { failures: failures ?? 0, lockouts: lockouts ?? 0, lockedUntil: lockedUntil ?? 0 };
}

/** The cool-down of the n-th lock (n ≥ 1) since the last success, in seconds. */
export function lockoutSeconds(ctx: AuthContext, lock: number): number {
  return Math.min(MAX_LOCKOUT_SECONDS, ctx.config.twoFactor.lockout * 2 ** Math.max(0, lock - 1));
}

function lockedRefusal(lockedUntil: number, now: number): AuthError {
  return tooManyRequests({ allowed: false, retryAfter: Math.max(1, Math.ceil((lockedUntil - now) / 1000)) });
}

async function readState(ctx: AuthContext, userId: string) {
  const record = await findVerificationById(ctx.db, recordId(userId));
  const live = record !== undefined && Number(record.expiresAt) > ctx.now();
  return { record, state: live ? decode(record.value) : FRESH };
}

/** TOO_MANY_REQUESTS (429, X-Retry-After) while the user's second factor is locked. */
export async function assertSecondFactorOpen(ctx: AuthContext, userId: string): Promise<void> {
  const { state } = await readState(ctx, userId);
  const now = ctx.now();
  if (state.lockedUntil > now) throw lockedRefusal(state.lockedUntil, now);
}

/** One counted attempt: whether it filled the count (and so locked the second factor), and for how long. */
export interface CountedAttempt {
  failures: number;
  /** Seconds of the lock this attempt set; null when it set none. */
  locked: number | null;
}

/**
 * Count one second-factor attempt of a challenge before its code is checked; TOO_MANY_REQUESTS (429,
 * X-Retry-After: the rest of the cool-down) without counting while the second factor is locked.
 */
export async function countSecondFactorAttempt(ctx: AuthContext, userId: string): Promise<CountedAttempt> {
  const id = recordId(userId);
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const { record, state } = await readState(ctx, userId);
    const now = ctx.now();
    if (state.lockedUntil > now) throw lockedRefusal(state.lockedUntil, now);
    const failures = state.failures + 1;
    const locked = failures >= ctx.config.twoFactor.maxFailures ? lockoutSeconds(ctx, state.lockouts + 1) : null;
    const next: LockState =
      locked === null
        ? { ...state, failures }
        : { failures, lockouts: state.lockouts + 1, lockedUntil: now + locked * 1000 };
    const write = { value: encode(next), expiresAt: Math.max(next.lockedUntil, now) + FORGET_AFTER_MS, now };
    const counted = record
      ? await replaceVerificationIfUnchanged(ctx.db, id, record.value, write)
      : await insertVerificationIfAbsent(ctx.db, { id, ...write });
    if (counted) return { failures, locked };
  }
  // Contention this heavy is itself an attack: refuse rather than check a code uncounted.
  throw lockedRefusal(ctx.now() + 1000, ctx.now());
}

/** A successful second factor, an operator's reset or a removed second factor: the count starts over. */
export async function clearSecondFactorFailures(ctx: AuthContext, userId: string, db: Db = ctx.db): Promise<void> {
  await deleteVerificationById(db, recordId(userId));
}

/** A failed attempt that locked the second factor: the event, and a mail telling the owner. */
export async function announceLock(
  ctx: AuthContext,
  user: UserRow,
  attempt: CountedAttempt & { locked: number },
  source: EventSource,
): Promise<void> {
  await recordSecurityEvent(ctx, {
    type: "two_factor_locked",
    outcome: "failure",
    failures: attempt.failures,
    lockedFor: attempt.locked,
    userId: user.id,
    source,
  });
  ctx.sendMail({
    kind: "two-factor-locked",
    to: user.email,
    values: {
      name: user.name,
      email: user.email,
      failures: attempt.failures,
      lockedFor: attempt.locked,
      lockedUntil: ctx.now() + attempt.locked * 1000,
    },
  });
}
