import type { Context } from "hono";
import type { AuthContext } from "../../context.ts";
import { readEmailVerificationToken } from "../../services/email-verification.ts";
import { followVerificationLink } from "../../services/verification-link.ts";
import { resolveSession } from "../session.ts";
import { rememberedChoice, setVerificationLinkCookies, signInRequestOf } from "../sign-in.ts";
import { guardForm } from "./guard.ts";
import { linkFailure, linkFields, linkReturnAddress } from "./mailed-links.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";

// The landing of a verification (or email-change) link opened in a browser: GET {api}/verify-email sends
// it here. Drawing the page consumes nothing; its Continue button posts the token, and the post runs the
// same service as the API route (followVerificationLink) and sets the same cookies.

export async function showVerifyEmail(c: Context, ctx: AuthContext): Promise<Response> {
  const state = commonState(c, ctx);
  const { token, callbackURL } = linkFields(c.req.query());
  if (c.req.query("done") === "1")
    return renderPage(c, ctx, {
      ...state,
      page: "verify-email",
      token: "",
      change: false,
      callbackURL: null,
      done: true,
    });
  // Reading the token is only checking a signature: it tells an expired or broken link at once.
  const read = await readEmailVerificationToken(ctx, token);
  if (!read.ok) return linkFailure(c, ctx, read.failure);
  const returnTo = state.redirect ? null : linkReturnAddress(ctx, null, callbackURL);
  const change = Boolean(read.claims.updateTo);
  return renderPage(c, ctx, { ...state, page: "verify-email", token, change, callbackURL: returnTo, done: false });
}

export async function postVerifyEmail(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return linkFailure(c, ctx, guarded.problem, 403);
  const { token, callbackURL } = linkFields(guarded.fields);
  const { redirect } = commonState(c, ctx, { redirect: guarded.fields.redirect });
  const returnTo = linkReturnAddress(ctx, redirect, callbackURL);
  const session = await resolveSession(c, ctx);
  const request = signInRequestOf(c, ctx, rememberedChoice(c, ctx));
  try {
    const input = { token, callbackURL: returnTo ?? undefined, signedInUser: session?.user ?? null };
    const outcome = await followVerificationLink(ctx, input, request);
    if (outcome.kind === "failed") return linkFailure(c, ctx, outcome.failure);
    setVerificationLinkCookies(c, ctx, outcome, session, request);
    if (outcome.kind === "verified" && outcome.signedIn?.kind === "challenge")
      return seeOther(c, pageURL(ctx, "/two-factor", redirect));
  } catch (error) {
    const refusal = pageRefusal(error);
    return linkFailure(c, ctx, refusal.code, refusal.status);
  }
  return seeOther(c, returnTo ?? pageURL(ctx, "/verify-email", null, { done: "1" }));
}
