import type { AuthContext } from "../context.ts";
import { hmacSha256Base64Url } from "../crypto/hmac.ts";
import { findUserByEmail, findUserByUsername } from "../db/repositories/users.ts";
import { type RateLimitDecision, tooManyRequests } from "./rate-limit.ts";
import { claimLogSlot, type EventSource, recordSecurityEvent } from "./security-events.ts";

// The per-account throttle: the per-address rate limit does not stop a guesser who spreads attempts
// over many addresses, so password attempts are also counted per account, whatever address they come
// from, in the rate-limit storage (shared by every daemon of a deployment).
//
// - An attempt is counted before the password is checked, and refused with 429 once the count is full:
//   guesses sent at the same time cannot slip past the count, and a refused guess is never evaluated.
// - The count belongs to the identifier the caller submitted (an email or a username), known or not, so
//   an unknown email fills up and answers exactly like a known one.
// - A correct password, a password reset and an administrator's new password clear the account's
//   counts. Someone who holds an account locked by keeping its count full is answered the same way as
//   the owner; a reset (the mailed link) lets the owner in at once.

export type ThrottleIdentifier = { email: string } | { username: string };

/** The counter's key: a keyed hash, so the storage holds no submitted emails or usernames. */
function throttleKey(ctx: AuthContext, identifier: ThrottleIdentifier): string {
  const name =
    "email" in identifier ? `email:${identifier.email.toLowerCase()}` : `username:${identifier.username.toLowerCase()}`;
  return `account:${hmacSha256Base64Url(ctx.secret, name)}`;
}

type ProvenUser = { email: string; username?: string | null };

/**
 * Log that an account's count is full (security.account_throttled): one line per account and minute, as
 * anyone can cause it at will. The user is looked up after the answer has gone, so that a known account is
 * not a little slower to refuse than an unknown one.
 */
function recordThrottled(
  ctx: AuthContext,
  key: string,
  identifier: ThrottleIdentifier,
  decision: RateLimitDecision,
  source: EventSource,
): void {
  const slot = claimLogSlot(ctx, "account-throttle", key);
  if (!slot) return;
  ctx.background(
    (async () => {
      const user =
        "email" in identifier
          ? await findUserByEmail(ctx.db, identifier.email)
          : await findUserByUsername(ctx.db, identifier.username);
      const kind = "email" in identifier ? "email" : "username";
      await recordSecurityEvent(ctx, {
        type: "account_throttled",
        outcome: "failure",
        identifier: kind,
        retryAfter: decision.retryAfter,
        ...slot,
        userId: user?.id ?? null,
        source,
      });
    })(),
  );
}

/**
 * Check a password under the throttle. `check` answers the user whose password it proved, or nothing.
 * Throws TOO_MANY_REQUESTS (429, X-Retry-After) without running `check` when the identifier's count is
 * full (logged as coming from `source`); a proven password clears the user's counts.
 */
export async function provePassword<U extends ProvenUser>(
  ctx: AuthContext,
  identifier: ThrottleIdentifier,
  check: () => Promise<U | null | undefined>,
  source: EventSource,
): Promise<U | null> {
  const options = ctx.config.accountThrottle;
  if (!options.enabled) return (await check()) ?? null;
  const key = throttleKey(ctx, identifier);
  // Attempts count from the moment they start, so correct sign-ins for one account made at the same time
  // could fill the count themselves: fewer than maxFailures of them run at once in one process.
  return ctx.local.passwordAttempts.run(key, Math.max(1, options.maxFailures - 1), async () => {
    const decision = await ctx.rateLimitStore.consume(key, options.window, options.maxFailures, ctx.now());
    if (!decision.allowed) {
      recordThrottled(ctx, key, identifier, decision, source);
      throw tooManyRequests(decision);
    }
    const user = await check();
    if (!user) return null;
    await clearPasswordAttempts(ctx, user);
    return user;
  });
}

/** Forget the attempts counted against a user's email and username (the password was proven or replaced). */
export async function clearPasswordAttempts(ctx: AuthContext, user: ProvenUser): Promise<void> {
  if (!ctx.config.accountThrottle.enabled) return;
  const identifiers: ThrottleIdentifier[] = [{ email: user.email }];
  if (user.username) identifiers.push({ username: user.username });
  await Promise.all(identifiers.map((identifier) => ctx.rateLimitStore.reset(throttleKey(ctx, identifier))));
}
