import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { ERRORS, isAuthError } from "../../errors.ts";
import { requireValidEmail } from "../../services/email-address.ts";
import { sendMagicLink } from "../../services/magic-link/magic-link.ts";
import { magicLinkStrategy } from "../../services/magic-link/sign-in.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { setSignInCookies, signInRequestOf } from "../sign-in.ts";
import { rememberCodeAddress } from "./code-address.ts";
import { guardForm } from "./guard.ts";
import { linkFailure } from "./mailed-links.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";
import { trustedReturnAddress } from "./return-address.ts";
import { signInPage } from "./sign-in-pages.ts";

// Magic links as pages: "Email me a sign-in link" on the sign-in page (the same service as POST
// /sign-in/magic-link, and the same answer for every address), and the landing of the mailed link opened
// in a browser (GET {api}/magic-link/verify sends it here): drawing it consumes nothing, and its Continue
// button posts the token to the same sign-in as the API's GET, then goes on to the link's callbackURL.

const absolute = (ctx: AuthContext, path: string) => new URL(path, ctx.baseURL).href;

/**
 * Where a browser goes once signed in by a page: the return address, else the app, else the pages' own
 * sign-in page (which shows "signed in"), never the daemon's bare home page.
 */
export function signedInTarget(ctx: AuthContext, redirect: string | null): string {
  return redirect ?? ctx.config.appURL ?? absolute(ctx, pageURL(ctx, "/sign-in", null));
}

export async function postSendMagicLink(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return renderPage(c, ctx, signInPage(c, ctx, "", { code: guarded.problem }), 403);
  if (!ctx.config.magicLink.enabled) return linkFailure(c, ctx, "MAGIC_LINK_DISABLED", 404);
  const { fields } = guarded;
  const identifier = (fields.identifier ?? "").trim();
  const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
  let email: string;
  try {
    email = requireValidEmail(identifier);
  } catch (error) {
    if (!isAuthError(error)) throw error;
    const problem = { code: error.code, field: "identifier" };
    return renderPage(c, ctx, signInPage(c, ctx, identifier, problem, fields.redirect), 400);
  }
  sendMagicLink(ctx, {
    email,
    callbackURL: signedInTarget(ctx, redirect),
    errorCallbackURL: absolute(ctx, pageURL(ctx, "/error", null)),
  });
  // With email codes on, the link's mail carries a sign-in code too: the code page knows the address.
  if (ctx.config.emailOTP.enabled) rememberCodeAddress(c, ctx, email);
  return seeOther(c, pageURL(ctx, "/check-mail", redirect, { kind: "magic-link" }));
}

const TARGETS = ["callbackURL", "newUserCallbackURL", "errorCallbackURL"] as const;
type Targets = Record<(typeof TARGETS)[number], string | null>;

/** The link's three targets, each trusted or absent; null when one was given and is not trusted. */
function linkTargets(values: Record<string, string | undefined>, ctx: AuthContext): Targets | null {
  const targets: Targets = { callbackURL: null, newUserCallbackURL: null, errorCallbackURL: null };
  for (const name of TARGETS) {
    const raw = values[name];
    if (!raw) continue;
    const trusted = trustedReturnAddress(ctx, raw);
    if (!trusted) return null;
    targets[name] = trusted;
  }
  return targets;
}

export function showMagicLink(c: Context, ctx: AuthContext): Promise<Response> {
  const token = c.req.query("token") ?? "";
  if (!ctx.config.magicLink.enabled) return linkFailure(c, ctx, "MAGIC_LINK_DISABLED", 404);
  if (!token) return linkFailure(c, ctx, "INVALID_TOKEN");
  const targets = linkTargets(c.req.query(), ctx);
  if (!targets) return linkFailure(c, ctx, ERRORS.INVALID_CALLBACK_URL.code, 403);
  return renderPage(c, ctx, { ...commonState(c, ctx), page: "magic-link", token, ...targets });
}

/** Where the signed-in browser goes: the daemon's bare home page (a link mailed with no app URL) is no end. */
function linkDestination(ctx: AuthContext, redirect: string | null, targets: Targets, isNewUser: boolean): string {
  const chosen = (isNewUser ? targets.newUserCallbackURL : null) ?? redirect ?? targets.callbackURL;
  if (!chosen || (!ctx.config.appURL && (chosen === absolute(ctx, "/") || chosen === "/")))
    return signedInTarget(ctx, null);
  return chosen;
}

export async function postMagicLink(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return linkFailure(c, ctx, guarded.problem, 403);
  if (!ctx.config.magicLink.enabled) return linkFailure(c, ctx, "MAGIC_LINK_DISABLED", 404);
  const { fields } = guarded;
  const targets = linkTargets(fields, ctx);
  if (!targets) return linkFailure(c, ctx, ERRORS.INVALID_CALLBACK_URL.code, 403);
  const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
  const request = signInRequestOf(c, ctx, undefined);
  try {
    const signedIn = await signIn(ctx, magicLinkStrategy, { token: fields.token ?? "" }, request);
    if (signedIn.kind === "refused")
      return targets.errorCallbackURL
        ? seeOther(c, `${targets.errorCallbackURL}?error=${signedIn.refusal}`)
        : linkFailure(c, ctx, signedIn.refusal);
    setSignInCookies(c, ctx, signedIn, request);
    if (signedIn.kind === "challenge") return seeOther(c, pageURL(ctx, "/two-factor", redirect));
    return seeOther(c, linkDestination(ctx, redirect, targets, signedIn.isNewUser));
  } catch (error) {
    const refusal = pageRefusal(error);
    return linkFailure(c, ctx, refusal.code, refusal.status);
  }
}
