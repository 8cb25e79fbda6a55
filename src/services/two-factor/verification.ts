import type { AuthContext } from "../../context.ts";
import { matchTotpStep } from "../../crypto/totp.ts";
import * as repository from "../../db/repositories/two-factor.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError, isAuthError } from "../../errors.ts";
import { tooManyRequests } from "../../platform/rate-limit.ts";
import { consumeSignInMail } from "../account-throttle.ts";
import type { RequestOrigin } from "../request-origin.ts";
import { type EventSource, recordSecurityEvent, type TwoFactorMethod } from "../security-events.ts";
import type { CreateSessionOptions, LiveSession } from "../sessions/sessions.ts";
import { rotateSession } from "../sessions/sessions.ts";
import { signInEvent } from "../sign-in/events.ts";
import { startSession } from "../sign-in/start-session.ts";
import { updateUser } from "../users.ts";
import { type Challenge, consumeChallenge, countWrongCode } from "./challenge.ts";
import {
  announceLock,
  assertSecondFactorOpen,
  clearSecondFactorFailures,
  countSecondFactorAttempt,
} from "./lockout.ts";
import { redeemCode, sendCode } from "./mailed-code.ts";
import { encryptBackupCodes, findBackupCode, readTwoFactor } from "./store.ts";

// The second factor, in one of two contexts: a signed-in user (whose first verified code turns two-factor
// on) or a sign-in's challenge (whose verified code, used up together with the challenge, starts the
// session). Wrong codes in a challenge count against it (see challenge.ts), and every attempt of a
// challenge counts against the account until a success (see lockout.ts).

export type VerificationContext =
  | { kind: "session"; user: UserRow; session: LiveSession }
  | { kind: "challenge"; challenge: Challenge };

/** What a verification did: nothing new, the caller's session replaced, or a sign-in completed. */
export type VerificationResult =
  | { outcome: "unchanged"; user: UserRow; session: LiveSession | null }
  | { outcome: "rotated" | "signed-in"; user: UserRow; session: LiveSession };

export interface VerificationRequest {
  /** The new session's options, for a challenge (address, agent, rememberMe). */
  sessionOptions: CreateSessionOptions;
  source: EventSource;
  /** Where the request came from: a completed sign-in's sign_in event names the user from there. */
  origin: RequestOrigin;
}

function userOf(context: VerificationContext): UserRow {
  return context.kind === "session" ? context.user : context.challenge.user;
}

async function refuse(
  ctx: AuthContext,
  context: VerificationContext,
  factor: TwoFactorMethod,
  reason: "invalid_code" | "replayed" | "expired" | "too_many_attempts",
  source: EventSource,
): Promise<void> {
  await recordSecurityEvent(ctx, {
    type: "two_factor_verification",
    outcome: "failure",
    factor,
    reason,
    userId: userOf(context).id,
    source,
  });
}

/** A verified factor: the session context's first one turns two-factor on; a challenge's completes the sign-in. */
async function succeed(
  ctx: AuthContext,
  context: VerificationContext,
  request: VerificationRequest,
  turnsOn: boolean,
): Promise<VerificationResult> {
  if (context.kind === "challenge") {
    await consumeChallenge(ctx, context.challenge);
    const { user } = context.challenge;
    const event = () => signInEvent({ method: "two-factor" }, user.id, request.origin);
    return { outcome: "signed-in", user, session: await startSession(ctx, user, { ...request.sessionOptions, event }) };
  }
  const { user, session } = context;
  if (!turnsOn || user.twoFactorEnabled) return { outcome: "unchanged", user, session };
  const updated = (await updateUser(ctx, user.id, { twoFactorEnabled: true })) ?? user;
  await recordSecurityEvent(ctx, {
    type: "two_factor_enabled",
    outcome: "success",
    userId: user.id,
    source: request.source,
  });
  return { outcome: "rotated", user: updated, session: await rotateSession(ctx, session) };
}

/**
 * Run one verification. In a challenge it is first counted against the account (refused while the second
 * factor is locked); a success clears the count, and a failure that filled it announces the lock. A
 * signed-in user's verifications are not counted: they proved a second factor already.
 */
async function countedAttempt<T>(
  ctx: AuthContext,
  context: VerificationContext,
  source: EventSource,
  verify: () => Promise<T>,
): Promise<T> {
  if (context.kind !== "challenge") return verify();
  const { user } = context.challenge;
  const attempt = await countSecondFactorAttempt(ctx, user.id);
  let result: T;
  try {
    result = await verify();
  } catch (error) {
    if (attempt.locked !== null) await announceLock(ctx, user, { ...attempt, locked: attempt.locked }, source);
    throw error;
  }
  await clearSecondFactorFailures(ctx, user.id);
  return result;
}

export function verifyTotp(
  ctx: AuthContext,
  context: VerificationContext,
  code: string,
  request: VerificationRequest,
): Promise<VerificationResult> {
  return countedAttempt(ctx, context, request.source, () => checkTotp(ctx, context, code, request));
}

async function checkTotp(
  ctx: AuthContext,
  context: VerificationContext,
  code: string,
  request: VerificationRequest,
): Promise<VerificationResult> {
  const user = userOf(context);
  const record = await readTwoFactor(ctx, user.id);
  if (!record) throw new AuthError("TOTP_NOT_ENABLED");
  const step = matchTotpStep(record.secret, code, ctx.now(), ctx.config.twoFactor.totpWindow);
  if (step === null) {
    await refuse(ctx, context, "totp", "invalid_code", request.source);
    if (context.kind === "challenge") await countWrongCode(ctx, context.challenge);
    throw new AuthError("INVALID_CODE");
  }
  // RFC 6238 §5.2: a code that completed a sign-in cannot complete another (nor can an older one).
  if (context.kind === "challenge" && !(await repository.claimTotpStep(ctx.db, user.id, step))) {
    await refuse(ctx, context, "totp", "replayed", request.source);
    throw new AuthError("INVALID_CODE");
  }
  return succeed(ctx, context, request, true);
}

function codeKey(context: VerificationContext): string {
  return context.kind === "challenge" ? context.challenge.id : `${context.user.id}-${context.session.id}`;
}

/**
 * Mail a code to a user whose two-factor is on (OTP_NOT_ENABLED before the first verification). Nothing is
 * mailed while the second factor is locked, nor past the address's budget of sign-in mails (the one magic
 * links and email codes share): TOO_MANY_REQUESTS, and the code already mailed stays valid.
 */
export async function sendOtp(ctx: AuthContext, context: VerificationContext): Promise<void> {
  const user = userOf(context);
  if (!user.twoFactorEnabled) throw new AuthError("OTP_NOT_ENABLED");
  if (context.kind === "challenge") await assertSecondFactorOpen(ctx, user.id);
  const budget = await consumeSignInMail(ctx, user.email);
  if (!budget.allowed) throw tooManyRequests(budget);
  await sendCode(ctx, codeKey(context), user);
}

export function verifyOtp(
  ctx: AuthContext,
  context: VerificationContext,
  code: string,
  request: VerificationRequest,
): Promise<VerificationResult> {
  return countedAttempt(ctx, context, request.source, async () => {
    try {
      await redeemCode(ctx, codeKey(context), code);
    } catch (error) {
      if (isAuthError(error)) {
        const reasons = { OTP_HAS_EXPIRED: "expired", TOO_MANY_CODE_ATTEMPTS: "too_many_attempts" } as const;
        const reason =
          error.key === "OTP_HAS_EXPIRED" || error.key === "TOO_MANY_CODE_ATTEMPTS"
            ? reasons[error.key]
            : "invalid_code";
        await refuse(ctx, context, "otp", reason, request.source);
        // A new code (send-otp) starts its own tries, so the challenge counts wrong codes across all of them.
        if (reason === "invalid_code" && context.kind === "challenge") await countWrongCode(ctx, context.challenge);
      }
      throw error;
    }
    return succeed(ctx, context, request, true);
  });
}

/** Use up one backup code; of concurrent uses of one code, one succeeds. */
async function redeemBackupCode(ctx: AuthContext, context: VerificationContext, code: string, source: EventSource) {
  const user = userOf(context);
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const record = await readTwoFactor(ctx, user.id);
    if (!record) throw new AuthError("BACKUP_CODES_ARENT_ENABLED");
    const index = findBackupCode(record.backupCodes, code);
    if (index === -1) break;
    const remaining = record.backupCodes.filter((_, i) => i !== index);
    const replacement = encryptBackupCodes(ctx, remaining);
    if (await repository.replaceBackupCodesIf(ctx.db, user.id, record.row.backupCodes, replacement)) return;
  }
  await refuse(ctx, context, "backup-code", "invalid_code", source);
  if (context.kind === "challenge") await countWrongCode(ctx, context.challenge);
  throw new AuthError("INVALID_BACKUP_CODE");
}

/** A backup code; with disableSession it is only checked and used (no session, the challenge stays). */
export async function verifyBackupCode(
  ctx: AuthContext,
  context: VerificationContext,
  input: { code: string; disableSession?: boolean },
  request: VerificationRequest,
): Promise<VerificationResult> {
  return countedAttempt(ctx, context, request.source, async () => {
    await redeemBackupCode(ctx, context, input.code, request.source);
    if (input.disableSession)
      return {
        outcome: "unchanged",
        user: userOf(context),
        session: context.kind === "session" ? context.session : null,
      };
    return succeed(ctx, context, request, false);
  });
}
