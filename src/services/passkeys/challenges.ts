import type { AuthContext } from "../../context.ts";
import { generateRandomString } from "../../crypto/random.ts";
import {
  consumeVerification,
  deleteExpiredVerifications,
  insertVerification,
} from "../../db/repositories/verifications.ts";
import { AuthError } from "../../errors.ts";

// WebAuthn challenges: one verification row per ceremony, found through a random handle that only the
// browser which asked holds (in a signed, HttpOnly cookie; see src/http/passkey-cookie.ts). A challenge
// is single-use: the verify step deletes the row in the same statement that reads it (DELETE ...
// RETURNING), so of two verifies with one handle only one gets the challenge, whatever the outcome. It is
// short-lived (passkey.challengeExpiresIn, checked on read) and records its ceremony and user, so a
// registration challenge cannot finish a sign-in, nor one user's challenge register another's passkey.

const IDENTIFIER_PREFIX = "passkey:";

export type Ceremony = "registration" | "authentication";

export interface Challenge {
  ceremony: Ceremony;
  expectedChallenge: string;
  /** The user the challenge was issued to ("" for a sign-in by someone not signed in). */
  userId: string;
}

/** Store a challenge; answers the handle the browser keeps for it. Expired challenges are swept meanwhile. */
export async function issueChallenge(ctx: AuthContext, challenge: Challenge): Promise<string> {
  const handle = generateRandomString(32);
  const now = ctx.now();
  const expiresAt = now + ctx.config.passkey.challengeExpiresIn * 1000;
  await insertVerification(ctx.db, `${IDENTIFIER_PREFIX}${handle}`, JSON.stringify(challenge), expiresAt, now);
  ctx.background(deleteExpiredVerifications(ctx.db, IDENTIFIER_PREFIX, now));
  return handle;
}

/**
 * Use up the challenge a handle names. CHALLENGE_NOT_FOUND when there is no handle, the challenge was used
 * already, has expired, or belongs to the other ceremony.
 */
export async function consumeChallenge(
  ctx: AuthContext,
  handle: string | null,
  ceremony: Ceremony,
): Promise<Challenge> {
  if (!handle) throw new AuthError("CHALLENGE_NOT_FOUND");
  const row = await consumeVerification(ctx.db, `${IDENTIFIER_PREFIX}${handle}`);
  if (!row || Number(row.expiresAt) <= ctx.now()) throw new AuthError("CHALLENGE_NOT_FOUND");
  const challenge = parseChallenge(row.value);
  if (!challenge || challenge.ceremony !== ceremony) throw new AuthError("CHALLENGE_NOT_FOUND");
  return challenge;
}

function parseChallenge(value: string): Challenge | null {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== "object" || parsed === null) return null;
    const { ceremony, expectedChallenge, userId } = parsed as Record<string, unknown>;
    if (ceremony !== "registration" && ceremony !== "authentication") return null;
    if (typeof expectedChallenge !== "string" || typeof userId !== "string") return null;
    return { ceremony, expectedChallenge, userId };
  } catch {
    return null;
  }
}
