import type { Context } from "hono";
import type { FormProblem } from "../../../ui/web/state.ts";
import { problemFor } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { assertOtpEmail } from "../../services/email-address.ts";
import { sendCode } from "../../services/email-otp/email-otp.ts";
import { emailCodeStrategy } from "../../services/email-otp/sign-in.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import { setSignInCookies, signInRequestOf } from "../sign-in.ts";
import { rememberCodeAddress, rememberedCodeAddress } from "./code-address.ts";
import { guardForm } from "./guard.ts";
import { signedInTarget } from "./magic-link-pages.ts";
import { linkFailure } from "./mailed-links.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";
import { signInPage } from "./sign-in-pages.ts";

// Email codes as pages: "Email me a code" on the sign-in page mails a sign-in code (the same service as
// POST /email-otp/send-verification-otp with type sign-in, the same answer for every address), then the
// code page posts the typed code to the same sign-in as POST /sign-in/email-otp.

export async function postSendEmailCode(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return renderPage(c, ctx, signInPage(c, ctx, "", { code: guarded.problem }), 403);
  if (!ctx.config.emailOTP.enabled) return linkFailure(c, ctx, "EMAIL_CODE_DISABLED", 404);
  const { fields } = guarded;
  const email = (fields.identifier ?? "").trim();
  try {
    assertOtpEmail(email);
  } catch (error) {
    const { code, status } = pageRefusal(error);
    return renderPage(c, ctx, signInPage(c, ctx, email, { code, field: "identifier" }, fields.redirect), status);
  }
  sendCode(ctx, email, "sign-in");
  rememberCodeAddress(c, ctx, email);
  const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
  return seeOther(c, pageURL(ctx, "/email-code", redirect));
}

function codePage(c: Context, ctx: AuthContext, email: string, problem: FormProblem | null, redirect?: string) {
  const state = commonState(c, ctx, { redirect, problem });
  return { ...state, page: "email-code" as const, email, returnTo: signedInTarget(ctx, state.redirect) };
}

export function showEmailCode(c: Context, ctx: AuthContext): Promise<Response> {
  if (!ctx.config.emailOTP.enabled) return linkFailure(c, ctx, "EMAIL_CODE_DISABLED", 404);
  const email = rememberedCodeAddress(c, ctx);
  if (!email) return Promise.resolve(seeOther(c, pageURL(ctx, "/sign-in", commonState(c, ctx).redirect)));
  return renderPage(c, ctx, codePage(c, ctx, email, null));
}

export async function postEmailCode(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return renderPage(c, ctx, codePage(c, ctx, "", { code: guarded.problem }), 403);
  if (!ctx.config.emailOTP.enabled) return linkFailure(c, ctx, "EMAIL_CODE_DISABLED", 404);
  const { fields } = guarded;
  const email = fields.email ?? "";
  const request = signInRequestOf(c, ctx, undefined);
  try {
    const signedIn = await signIn(ctx, emailCodeStrategy, { email, otp: (fields.otp ?? "").trim() }, request);
    setSignInCookies(c, ctx, signedIn, request);
    const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
    if (signedIn.kind === "challenge") return seeOther(c, pageURL(ctx, "/two-factor", redirect));
    return seeOther(c, signedInTarget(ctx, redirect));
  } catch (error) {
    const { code, status } = pageRefusal(error);
    return renderPage(c, ctx, codePage(c, ctx, email, problemFor(code), fields.redirect), status);
  }
}
