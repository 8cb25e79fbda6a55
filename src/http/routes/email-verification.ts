import type { Context } from "hono";
import * as z from "zod";
import { AuthError, type ErrorKey } from "../../errors.ts";
import { resendOwnVerificationEmail, sendVerificationEmail } from "../../services/email-verification.ts";
import { findUserByEmail, toPublicUserWire } from "../../services/users.ts";
import { followVerificationLink, type VerificationLinkFailure } from "../../services/verification-link.ts";
import { StatusSchema } from "../../wire/common.ts";
import { PublicUserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { browserLanding } from "../pages/mailed-links.ts";
import { withQueryParam } from "../redirect-url.ts";
import { defineRoute } from "../route.ts";
import { rememberedChoice, setVerificationLinkCookies, signInRequestOf } from "../sign-in.ts";

const tags = ["Email verification"];

const FAILURE_KEYS: Record<VerificationLinkFailure, ErrorKey> = {
  token_expired: "VERIFY_TOKEN_EXPIRED",
  invalid_token: "VERIFY_INVALID_TOKEN",
  user_not_found: "VERIFY_USER_NOT_FOUND",
  unauthorized: "VERIFY_UNAUTHORIZED",
  COULDNT_UPDATE_YOUR_EMAIL: "COULDNT_UPDATE_EMAIL",
};

/** A failed verification: back to the app with ?error=code, or 401 with the code as message when there is no callback. */
function verifyFailure(c: Context, callbackURL: string | undefined, failure: VerificationLinkFailure): Response {
  if (callbackURL) return c.redirect(withQueryParam(callbackURL, "error", failure), 302);
  throw new AuthError(FAILURE_KEYS[failure]);
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
      await resendOwnVerificationEmail(ctx, session.user, body.email, body.callbackURL);
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

export const verifyEmailRoute = defineRoute({
  method: "GET",
  path: "/verify-email",
  summary: "Follow a verification (or email-change) link",
  description:
    "Redirects to callbackURL, with ?error=token_expired|invalid_token|user_not_found|unauthorized on failure; JSON without a callbackURL. With the pages on, a browser (Accept naming text/html) is sent (303) to the pages' Continue page instead, and nothing is consumed.",
  tags,
  auth: "optional-session",
  query: z.object({ token: singleLine(), callbackURL: singleLine().optional() }),
  response: z.object({ status: z.boolean(), user: PublicUserSchema.nullable() }),
  handler: async ({ c, ctx, query, session }) => {
    const { token, callbackURL } = query;
    // A browser opening the mailed link gets the page's Continue button: a mail scanner's GET consumes nothing.
    const landing = browserLanding(c, ctx, "/verify-email", token, callbackURL);
    if (landing) return landing;
    const request = signInRequestOf(c, ctx, rememberedChoice(c, ctx));
    const outcome = await followVerificationLink(
      ctx,
      { token, callbackURL, signedInUser: session?.user ?? null },
      request,
    );
    if (outcome.kind === "failed") return verifyFailure(c, callbackURL, outcome.failure);
    setVerificationLinkCookies(c, ctx, outcome, session, request);
    if (callbackURL) return c.redirect(callbackURL, 302);
    return { status: true, user: outcome.kind === "email-changed" ? toPublicUserWire(outcome.user) : null };
  },
});

export const emailVerificationRoutes = [sendVerificationEmailRoute, verifyEmailRoute];
