import type { Context } from "hono";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { sendMagicLink } from "../../services/magic-link/magic-link.ts";
import { magicLinkStrategy } from "../../services/magic-link/sign-in.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { toPublicUserWire } from "../../services/users.ts";
import { StatusSchema } from "../../wire/common.ts";
import { TwoFactorRedirectSchema } from "../../wire/two-factor.ts";
import { PublicUserSchema } from "../../wire/user.ts";
import { singleLine } from "../fields.ts";
import { browserLanding } from "../pages/mailed-links.ts";
import { defineRoute } from "../route.ts";
import { setSignInCookies, signInRequestOf } from "../sign-in.ts";

const tags = ["Magic link"];

export const sendMagicLinkRoute = defineRoute({
  method: "POST",
  path: "/sign-in/magic-link",
  startsSession: true,
  summary: "Mail a sign-in link",
  description:
    "Always answers {status: true}: known, unknown and banned addresses alike are mailed a link (unknown ones only while sign-up by link is on).",
  tags,
  body: z.object({
    email: z.email(),
    name: singleLine().optional(),
    callbackURL: singleLine().optional(),
    newUserCallbackURL: singleLine().optional(),
    errorCallbackURL: singleLine().optional(),
  }),
  response: StatusSchema,
  handler: ({ ctx, body }) => {
    sendMagicLink(ctx, body);
    return { status: true };
  },
});

/**
 * Where a redirect goes: relative targets against the app users return to (AUTH_APP_URL, else the base URL),
 * not against authd, which has no page there. Only safe relative paths get here (the route refused the rest),
 * so the result stays on the app's origin.
 */
const resolved = (ctx: AuthContext, url: string): string => new URL(url, ctx.appURL).href;

/** A refused link: back to the error target with ?error=… ("?" appended as Better Auth does), no cookie. */
const refuse = (c: Context, errorURL: string, error: string) => c.redirect(`${errorURL}?error=${error}`, 302);

export const verifyMagicLinkRoute = defineRoute({
  method: "GET",
  path: "/magic-link/verify",
  summary: "Follow a sign-in link",
  description:
    "Signs in (or up) and redirects to callbackURL, newUserCallbackURL for a new user; without callbackURL answers {token, user}. A used, unknown or expired link redirects to errorCallbackURL?error=INVALID_TOKEN|EXPIRED_TOKEN. With the pages on, a browser (Accept naming text/html) is sent (303) to the pages' Continue page instead, and nothing is consumed.",
  tags,
  query: z.object({
    token: singleLine(),
    callbackURL: singleLine().optional(),
    newUserCallbackURL: singleLine().optional(),
    errorCallbackURL: singleLine().optional(),
  }),
  // All three targets are checked before the link is used, and refused with one answer.
  redirectRefusal: "INVALID_CALLBACK_URL",
  response: z.union([z.object({ token: z.string(), user: PublicUserSchema }), TwoFactorRedirectSchema]),
  handler: async ({ c, ctx, query }) => {
    // A browser opening the mailed link gets the page's Continue button: a mail scanner's GET consumes nothing.
    // The targets go there resolved as this route resolves them (relative ones against the app).
    const target = (url: string | undefined) => (url ? resolved(ctx, url) : undefined);
    const landing = browserLanding(c, ctx, "/magic-link/verify", query.token, target(query.callbackURL), {
      newUserCallbackURL: target(query.newUserCallbackURL),
      errorCallbackURL: target(query.errorCallbackURL),
    });
    if (landing) return landing;
    const callbackURL = resolved(ctx, query.callbackURL || "/");
    const newUserURL = query.newUserCallbackURL ? resolved(ctx, query.newUserCallbackURL) : callbackURL;
    const errorURL = query.errorCallbackURL ? resolved(ctx, query.errorCallbackURL) : callbackURL;
    const request = signInRequestOf(c, ctx, undefined);
    const signedIn = await signIn(ctx, magicLinkStrategy, { token: query.token }, request);
    if (signedIn.kind === "refused") return refuse(c, errorURL, signedIn.refusal);
    setSignInCookies(c, ctx, signedIn, request);
    // With two-factor on, no session starts: JSON says so, a browser goes on to the app with the challenge cookie.
    if (!query.callbackURL)
      return signedIn.kind === "challenge"
        ? { twoFactorRedirect: true as const }
        : { token: signedIn.session.token, user: toPublicUserWire(signedIn.user) };
    return c.redirect(signedIn.isNewUser ? newUserURL : callbackURL, 302);
  },
});

export const magicLinkRoutes = [sendMagicLinkRoute, verifyMagicLinkRoute];
