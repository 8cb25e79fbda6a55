import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { AuthError, type ErrorKey } from "../../errors.ts";
import { normalizeEmail } from "../../services/email-address.ts";
import { applyEmailChange } from "../../services/email-change.ts";
import {
  readEmailVerificationToken,
  sendVerificationEmail,
  type VerifyEmailFailure,
} from "../../services/email-verification.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { verificationLinkStrategy } from "../../services/sign-in/verification-link.ts";
import { findUserByEmail, markEmailVerified, toPublicUserWire, type UserRecord } from "../../services/users.ts";
import { StatusSchema } from "../../wire/common.ts";
import { PublicUserSchema } from "../../wire/user.ts";
import { setSessionDataCookie } from "../cookies.ts";
import { singleLine } from "../fields.ts";
import { withQueryParam } from "../redirect-url.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";
import type { ResolvedSession } from "../session.ts";
import { rememberedChoice, setSignInCookies, signInRequestOf } from "../sign-in.ts";

const tags = ["Email verification"];

const FAILURE_KEYS: Record<VerifyEmailFailure, ErrorKey> = {
  token_expired: "VERIFY_TOKEN_EXPIRED",
  invalid_token: "VERIFY_INVALID_TOKEN",
  user_not_found: "VERIFY_USER_NOT_FOUND",
  unauthorized: "VERIFY_UNAUTHORIZED",
};

/** A failed verification: back to the app with ?error=code, or 401 with the code as message when there is no callback. */
function verifyFailure(
  c: Context,
  callbackURL: string | undefined,
  failure: VerifyEmailFailure | string,
  key?: ErrorKey,
): Response {
  if (callbackURL) return c.redirect(withQueryParam(callbackURL, "error", failure), 302);
  throw new AuthError(key ?? FAILURE_KEYS[failure as VerifyEmailFailure]);
}

export const sendVerificationEmailRoute = defineRoute({
  method: "POST",
  path: "/send-verification-email",
  summary: "Mail a verification link",
  description:
    "Without a session the answer is the same whether or not the address exists; the mail goes out in the background.",
  tags,
  auth: "optional-session",
  body: z.object({ email: z.email(), callbackURL: singleLine().optional() }),
  response: StatusSchema,
  handler: async ({ ctx, body, session }) => {
    if (session) {
      if (session.user.emailVerified) throw new AuthError("VERIFICATION_EMAIL_ALREADY_VERIFIED");
      if (session.user.email !== normalizeEmail(body.email)) throw new AuthError("VERIFICATION_EMAIL_NOT_YOURS");
      await sendVerificationEmail(ctx, session.user, body.callbackURL);
      return { status: true };
    }
    ctx.background(
      (async () => {
        const user = await findUserByEmail(ctx, body.email);
        if (user && !user.emailVerified) await sendVerificationEmail(ctx, user, body.callbackURL);
      })(),
    );
    return { status: true };
  },
});

/** With auto sign-in: a session for the user who just verified (or the current one, updated). */
async function signInAfterVerification(
  c: Context,
  ctx: AuthContext,
  user: UserRecord,
  session: ResolvedSession | null,
): Promise<void> {
  const verifiedUser = { ...user, emailVerified: true };
  if (session && session.user.id === user.id) {
    setSessionDataCookie(c, ctx, { session: session.session, user: verifiedUser });
    return;
  }
  const request = signInRequestOf(c, ctx, rememberedChoice(c, ctx));
  const signedIn = await signIn(ctx, verificationLinkStrategy, { user: verifiedUser }, request);
  setSignInCookies(c, ctx, signedIn, request);
}

export const verifyEmailRoute = defineRoute({
  method: "GET",
  path: "/verify-email",
  summary: "Follow a verification (or email-change) link",
  description:
    "Redirects to callbackURL, with ?error=token_expired|invalid_token|user_not_found|unauthorized on failure; JSON without a callbackURL.",
  tags,
  auth: "optional-session",
  query: z.object({ token: singleLine(), callbackURL: singleLine().optional() }),
  response: z.object({ status: z.boolean(), user: PublicUserSchema.nullable() }),
  handler: async ({ c, ctx, query, session }) => {
    const { callbackURL } = query;
    const read = await readEmailVerificationToken(ctx, query.token);
    if (!read.ok) return verifyFailure(c, callbackURL, read.failure);
    const user = await findUserByEmail(ctx, read.claims.email);
    if (!user) return verifyFailure(c, callbackURL, "user_not_found");

    if (read.claims.updateTo) {
      // An email change is confirmed by the signed-in owner of the current address only, and only while
      // changing addresses is enabled (turning it off also voids links already mailed).
      if (!session || session.user.id !== user.id || !ctx.config.changeEmail.enabled)
        return verifyFailure(c, callbackURL, "unauthorized");
      const source = requestSource(c, ctx, "user", user.id);
      const changed = await applyEmailChange(ctx, user, read.claims.updateTo, callbackURL, source);
      if (!changed) return verifyFailure(c, callbackURL, "COULDNT_UPDATE_YOUR_EMAIL", "COULDNT_UPDATE_EMAIL");
      setSessionDataCookie(c, ctx, { session: session.session, user: changed });
      if (callbackURL) return c.redirect(callbackURL, 302);
      return { status: true, user: toPublicUserWire(changed) };
    }

    const flipped = await markEmailVerified(ctx, user.id, {
      type: "email_verified",
      outcome: "success",
      method: "link",
      userId: user.id,
      source: requestSource(c, ctx, "user", user.id),
    });
    if (flipped && ctx.config.emailVerification.autoSignInAfterVerification)
      await signInAfterVerification(c, ctx, user, session);
    else if (session && session.user.id === user.id)
      setSessionDataCookie(c, ctx, { session: session.session, user: { ...session.user, emailVerified: true } });
    if (callbackURL) return c.redirect(callbackURL, 302);
    return { status: true, user: null };
  },
});

export const emailVerificationRoutes = [sendVerificationEmailRoute, verifyEmailRoute];
