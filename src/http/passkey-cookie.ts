import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { AuthError, isAuthError } from "../errors.ts";
import { authCookieName, clearCookie, clearingCookieHeader, readSignedCookie, setSignedCookie } from "./cookies.ts";

// The passkey challenge cookie (Better Auth's `better-auth-passkey`): a signed, HttpOnly, SameSite=Lax
// cookie holding the random handle of the browser's pending challenge, never the challenge itself. A
// verify step reads it, and the cookie is cleared on every verify answer, success or refusal: the
// challenge it named is used up either way (src/services/passkeys/challenges.ts).

const challengeCookieName = (ctx: AuthContext) => authCookieName(ctx, "better-auth-passkey");

export function setChallengeCookie(c: Context, ctx: AuthContext, handle: string): void {
  setSignedCookie(c, ctx, challengeCookieName(ctx), handle, ctx.config.passkey.challengeExpiresIn);
}

/** The handle of this browser's challenge; null when the cookie is missing or forged. */
export function readChallengeCookie(c: Context, ctx: AuthContext): string | null {
  return readSignedCookie(c, ctx, challengeCookieName(ctx));
}

/** Run a verify step: the challenge cookie is cleared on its answer, a refusal included. */
export async function withChallengeSpent<T>(c: Context, ctx: AuthContext, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    clearCookie(c, ctx, challengeCookieName(ctx));
    return result;
  } catch (error) {
    if (!isAuthError(error)) throw error;
    const { message, details, cause } = error;
    const headers = { ...error.headers, "set-cookie": clearingCookieHeader(ctx, challengeCookieName(ctx)) };
    throw new AuthError(error.key, { message, details, cause, headers });
  }
}
