import type { AuthContext } from "../context.ts";
import type { UserRow } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { normalizeEmail } from "./email-address.ts";
import { createEmailVerificationToken, sendVerificationEmail, verificationLink } from "./email-verification.ts";
import { type EventSource, recordSecurityEvent } from "./security-events.ts";
import { changeEmail, findUserByEmail } from "./users.ts";

// Changing the address (spec §4). An unverified address changes at once and the new one gets a
// verification mail. A verified address is only replaced after its owner confirms from the current
// address: the confirmation link is a verification token holding {email: current, updateTo: new}.

export type EmailChangeOutcome = { changed: UserRow } | { confirmationSent: true };

export async function requestEmailChange(
  ctx: AuthContext,
  user: UserRow,
  requestedEmail: string,
  callbackURL: string | undefined,
  source: EventSource,
): Promise<EmailChangeOutcome> {
  if (!ctx.config.changeEmail.enabled) throw new AuthError("CHANGE_EMAIL_DISABLED");
  const newEmail = normalizeEmail(requestedEmail);
  if (newEmail === user.email) throw new AuthError("EMAIL_IS_THE_SAME");
  if (await findUserByEmail(ctx, newEmail)) throw new AuthError("COULDNT_UPDATE_EMAIL");

  if (!user.emailVerified) {
    const event = { type: "email_changed", outcome: "success", method: "unverified-address" } as const;
    const changed = await changeEmail(ctx, user.id, newEmail, { ...event, userId: user.id, source });
    if (!changed) throw new AuthError("COULDNT_UPDATE_EMAIL");
    await sendVerificationEmail(ctx, changed, callbackURL);
    return { changed };
  }

  const token = await createEmailVerificationToken(ctx, { email: user.email, updateTo: newEmail });
  await recordSecurityEvent(ctx, { type: "email_change_requested", outcome: "success", userId: user.id, source });
  ctx.sendMail({
    kind: "confirm-email-change",
    to: user.email,
    values: {
      name: user.name,
      email: user.email,
      newEmail,
      link: verificationLink(ctx, token, callbackURL),
      linkExpiresIn: ctx.config.emailVerification.expiresIn,
    },
  });
  return { confirmationSent: true };
}

/**
 * Complete a confirmed change: the new address replaces the old one, unverified, and gets its own
 * verification mail. Null when the new address belongs to someone else by now.
 */
export async function applyEmailChange(
  ctx: AuthContext,
  user: UserRow,
  newEmail: string,
  callbackURL: string | undefined,
  source: EventSource,
): Promise<UserRow | null> {
  const event = { type: "email_changed", outcome: "success", method: "confirmed", userId: user.id, source } as const;
  const changed = await changeEmail(ctx, user.id, normalizeEmail(newEmail), event);
  if (changed) await sendVerificationEmail(ctx, changed, callbackURL);
  return changed;
}
