import type { Context } from "hono";
import { problemFor } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { assertOtpEmail } from "../../services/email-address.ts";
import { verifyEmailCodeAndSignIn } from "../../services/email-otp/sign-in.ts";
import { rememberedChoice, setSignInCookies, signInRequestOf } from "../sign-in.ts";
import { rememberedCodeAddress } from "./code-address.ts";
import { guardForm } from "./guard.ts";
import { linkFailure } from "./mailed-links.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";

// The code the verification mail carries while email codes are on, typed instead of opening the link (on
// another device, or after a scanner spent the link's click): the same service as POST /email-otp/verify-email,
// its wrong tries counted the same way, and the same cookies when it signs the person in.

function codePage(c: Context, ctx: AuthContext, email: string, code: string | null, redirect?: string) {
  const state = commonState(c, ctx, { redirect, problem: code ? problemFor(code) : null });
  return { ...state, page: "verify-email-code" as const, email };
}

export function showVerifyEmailCode(c: Context, ctx: AuthContext): Promise<Response> {
  if (!ctx.config.emailOTP.enabled) return linkFailure(c, ctx, "EMAIL_CODE_DISABLED", 404);
  // After a sign-up on these pages, the address it was mailed to (a signed cookie, never the URL).
  const email = rememberedCodeAddress(c, ctx);
  return renderPage(c, ctx, codePage(c, ctx, email, null));
}

export async function postVerifyEmailCode(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return renderPage(c, ctx, codePage(c, ctx, "", guarded.problem), 403);
  if (!ctx.config.emailOTP.enabled) return linkFailure(c, ctx, "EMAIL_CODE_DISABLED", 404);
  const { fields } = guarded;
  const email = (fields.email ?? "").trim();
  const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
  const request = signInRequestOf(c, ctx, rememberedChoice(c, ctx));
  try {
    assertOtpEmail(email);
    const { user, signedIn } = await verifyEmailCodeAndSignIn(ctx, { email, otp: (fields.otp ?? "").trim() }, request);
    if (signedIn) setSignInCookies(c, ctx, { ...signedIn, user }, request);
    if (signedIn?.kind === "challenge") return seeOther(c, pageURL(ctx, "/two-factor", redirect));
  } catch (error) {
    const { code, status } = pageRefusal(error);
    return renderPage(c, ctx, codePage(c, ctx, email, code, fields.redirect), status);
  }
  return seeOther(c, redirect ?? pageURL(ctx, "/verify-email", null, { done: "1" }));
}
