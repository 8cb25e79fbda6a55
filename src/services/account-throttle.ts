import type { AuthContext } from "../context.ts";
import { hmacSha256Base64Url } from "../crypto/hmac.ts";
import { findUserByEmail, findUserByUsername } from "../db/repositories/users.ts";
import { KeyedGate } from "../platform/keyed-work.ts";
import { perContext } from "../platform/per-context.ts";
import { type RateLimitDecision, tooManyRequests } from "../platform/rate-limit.ts";
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

/** Attempts on one account in this process, fewer than maxFailures at a time (provePassword, throttleCodeCheck). */
const passwordAttempts = perContext(() => new KeyedGate());

/**
 * What is counted: password attempts for an email or a username, or guesses of mailed one-time codes for an
 * email (a count of its own, so that someone guessing passwords does not also lock the owner out of codes).
 */
type GuessedIdentifier = ThrottleIdentifier | { emailCode: string };
/** …and sign-in mails (links, codes) sent to an email. */
type CountedIdentifier = GuessedIdentifier | { mailedTo: string };

/** The counter's key: a keyed hash, so the storage holds no submitted emails or usernames. */
function throttleKey(ctx: AuthContext, identifier: CountedIdentifier): string {
  let name: string;
  if ("email" in identifier) name = `email:${identifier.email.toLowerCase()}`;
  else if ("username" in identifier) name = `username:${identifier.username.toLowerCase()}`;
  else if ("emailCode" in identifier) name = `email-code:${identifier.emailCode.toLowerCase()}`;
  else name = `mailed-to:${identifier.mailedTo.toLowerCase()}`;
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
  identifier: GuessedIdentifier,
  decision: RateLimitDecision,
  source: EventSource,
): void {
  const slot = claimLogSlot(ctx, "account-throttle", key);
  if (!slot) return;
  ctx.background(
    (async () => {
      const user =
        "username" in identifier
          ? await findUserByUsername(ctx.db, identifier.username)
          : await findUserByEmail(ctx.db, "email" in identifier ? identifier.email : identifier.emailCode);
      const kind = "email" in identifier ? "email" : "username" in identifier ? "username" : "email-code";
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

/** Count one attempt; TOO_MANY_REQUESTS (logged) when the count was already full. */
async function countAttempt(
  ctx: AuthContext,
  key: string,
  identifier: GuessedIdentifier,
  source: EventSource,
): Promise<void> {
  const { window, maxFailures } = ctx.config.accountThrottle;
  const decision = await ctx.rateLimitStore.consume(key, window, maxFailures, ctx.now());
  if (decision.allowed) return;
  recordThrottled(ctx, key, identifier, decision, source);
  throw tooManyRequests(decision);
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
  return passwordAttempts(ctx).run(key, Math.max(1, options.maxFailures - 1), async () => {
    await countAttempt(ctx, key, identifier, source);
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

/**
 * Check a mailed one-time code for `email` under the throttle: every check counts (the email's code count,
 * apart from its password count), refused with TOO_MANY_REQUESTS once full; a check that succeeds (does
 * not throw) clears the count. A code dies after a few wrong tries; this also bounds how many codes an
 * attacker spreading requests over many addresses can try for one account.
 */
export async function throttleCodeCheck<T>(
  ctx: AuthContext,
  email: string,
  check: () => Promise<T>,
  source: EventSource,
): Promise<T> {
  const options = ctx.config.accountThrottle;
  if (!options.enabled) return check();
  const identifier = { emailCode: email };
  const key = throttleKey(ctx, identifier);
  return passwordAttempts(ctx).run(key, Math.max(1, options.maxFailures - 1), async () => {
    await countAttempt(ctx, key, identifier, source);
    const result = await check();
    await ctx.rateLimitStore.reset(key);
    return result;
  });
}

/**
 * Whether a sign-in link or code may be mailed to `email` now: at most `maxFailures` such mails per address
 * and `window`, whatever client addresses ask, so nobody can flood a mailbox from many addresses. The
 * callers answer the same either way (the mail is simply not sent).
 */
export async function claimSignInMail(ctx: AuthContext, email: string): Promise<boolean> {
  return (await consumeSignInMail(ctx, email)).allowed;
}

/** claimSignInMail with the decision (how long until the budget opens again), for callers that may refuse. */
export async function consumeSignInMail(ctx: AuthContext, email: string): Promise<RateLimitDecision> {
  const options = ctx.config.accountThrottle;
  if (!options.enabled) return { allowed: true, retryAfter: 0 };
  const key = throttleKey(ctx, { mailedTo: email });
  return ctx.rateLimitStore.consume(key, options.window, options.maxFailures, ctx.now());
}
