import type { AuthContext } from "../../context.ts";
import { generateRandomString, LETTERS, sha256Base64Url } from "../../crypto/random.ts";
import {
  consumeVerification,
  deleteExpiredVerifications,
  insertVerification,
} from "../../db/repositories/verifications.ts";
import { claimSignInMail } from "../account-throttle.ts";
import { signInCodeForMail } from "../email-otp/email-otp.ts";
import { findUserByEmail } from "../users.ts";

// Magic links: a token of 32 random letters mailed as {api}/magic-link/verify?token=…&callbackURL=…, stored
// as a verification record whose identifier is magic-link:{SHA-256 of the token} (only the hash is at rest:
// a leaked database holds no usable link) and whose value is the email and name it was asked for. Using a
// link deletes the record in the same statement that reads it, so a link signs in once however many
// requests carry it at the same moment.

const TOKEN_LENGTH = 32;
const PREFIX = "magic-link:";

export function magicLinkIdentifier(token: string): string {
  return `${PREFIX}${sha256Base64Url(token)}`;
}

export interface MagicLinkRequest {
  email: string;
  name?: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
}

/**
 * The mailed URL: token first, then callbackURL and the other two only when given. Without a callbackURL the
 * link returns to AUTH_APP_URL, as verification and reset links do; with none set, to "/" (Better Auth's).
 */
export function magicLinkURL(ctx: AuthContext, token: string, request: MagicLinkRequest): string {
  const query = new URLSearchParams({ token, callbackURL: request.callbackURL || ctx.config.appURL || "/" });
  if (request.newUserCallbackURL) query.set("newUserCallbackURL", request.newUserCallbackURL);
  if (request.errorCallbackURL) query.set("errorCallbackURL", request.errorCallbackURL);
  return `${ctx.apiURL}/magic-link/verify?${query.toString()}`;
}

/**
 * Mail a link (and, while email codes are on, a sign-in code beside it). Everything that depends on the address (the lookup when sign-up is off, the token, the
 * mail) runs in the background, so every address gets the same answer, equally fast.
 */
export function sendMagicLink(ctx: AuthContext, request: MagicLinkRequest): void {
  const options = ctx.config.magicLink;
  ctx.background(
    (async () => {
      if (options.disableSignUp && !(await findUserByEmail(ctx, request.email))) {
        ctx.logger.debug("magic link asked for an unknown email while sign-up by link is off");
        return;
      }
      if (!(await claimSignInMail(ctx, request.email))) {
        ctx.logger.debug("magic link not sent: too many sign-in mails to this address");
        return;
      }
      const token = generateRandomString(TOKEN_LENGTH, LETTERS);
      const now = ctx.now();
      const value = JSON.stringify({ email: request.email, name: request.name ?? null });
      await insertVerification(ctx.db, magicLinkIdentifier(token), value, now + options.expiresIn * 1000, now);
      const code = await signInCodeForMail(ctx, request.email);
      ctx.sendMail({
        kind: "magic-link",
        to: request.email,
        values: {
          email: request.email,
          link: magicLinkURL(ctx, token, request),
          linkExpiresIn: options.expiresIn,
          code: code?.code ?? null,
          codeExpiresIn: code?.expiresIn ?? null,
        },
      });
    })(),
  );
}

export type MagicLinkUse =
  | { ok: true; email: string; name: string | null }
  | { ok: false; failure: "INVALID_TOKEN" | "EXPIRED_TOKEN" };

function readValue(value: string): { email: string; name: string | null } | null {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== "object" || parsed === null || !("email" in parsed) || typeof parsed.email !== "string")
      return null;
    const name = "name" in parsed && typeof parsed.name === "string" ? parsed.name : null;
    return { email: parsed.email, name };
  } catch {
    return null;
  }
}

/** Use a link: its record is deleted whatever the outcome (an expired link answers EXPIRED_TOKEN once). */
export async function redeemMagicLink(ctx: AuthContext, token: string): Promise<MagicLinkUse> {
  const row = await consumeVerification(ctx.db, magicLinkIdentifier(token));
  // Links never followed would stay forever: each use sweeps the expired ones.
  ctx.background(deleteExpiredVerifications(ctx.db, PREFIX, ctx.now()));
  if (!row) return { ok: false, failure: "INVALID_TOKEN" };
  if (Number(row.expiresAt) <= ctx.now()) return { ok: false, failure: "EXPIRED_TOKEN" };
  const claims = readValue(row.value);
  return claims ? { ok: true, ...claims } : { ok: false, failure: "INVALID_TOKEN" };
}
