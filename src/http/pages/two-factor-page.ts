import type { Context } from "hono";
import type { FormProblem, TwoFactorMethod } from "../../../ui/web/state.ts";
import { twoFactorProblem } from "../../../ui/web/two-factor.ts";
import type { AuthContext } from "../../context.ts";
import { type AuthError, isAuthError } from "../../errors.ts";
import { readChallenge } from "../../services/two-factor/challenge.ts";
import { sendOtp, verifyBackupCode, verifyOtp, verifyTotp } from "../../services/two-factor/verification.ts";
import { readSignedCookie, twoFactorCookieNames } from "../cookies.ts";
import { resolveSession } from "../session.ts";
import { verificationContext, verifySecondFactor } from "../two-factor.ts";
import { type FormFields, guardForm } from "./guard.ts";
import { commonState } from "./page-state.ts";
import { pageURL, renderPage, seeOther } from "./respond.ts";

// The second-factor step, as a page: where a sign-in that needs a second factor lands (the challenge is in
// the two_factor cookie). Each of its forms posts to a route of its own that runs the same code check as the
// API's route (verifySecondFactor with verifyTotp / verifyOtp / verifyBackupCode, or sendOtp), counted in
// that route's rate-limit counter (mount.ts) and against the account's second-factor lock (the services').

const METHODS: readonly TwoFactorMethod[] = ["totp", "mail", "backup"];

/** The ways the configuration offers: an API route in disabledPaths is not offered on the page either. */
export function offeredMethods(ctx: AuthContext): Record<TwoFactorMethod, boolean> {
  const off = new Set(ctx.config.disabledPaths);
  return {
    totp: !off.has("/two-factor/verify-totp"),
    mail: !off.has("/two-factor/send-otp") && !off.has("/two-factor/verify-otp"),
    backup: !off.has("/two-factor/verify-backup-code"),
  };
}

interface ShownAs {
  method?: string;
  mailSent?: boolean;
  redirect?: string;
  problem?: FormProblem | null;
}

function twoFactorState(c: Context, ctx: AuthContext, shown: ShownAs) {
  const methods = offeredMethods(ctx);
  const asked = METHODS.find((method) => method === shown.method && methods[method]);
  const method = asked ?? METHODS.find((each) => methods[each]) ?? "totp";
  const state = commonState(c, ctx, { redirect: shown.redirect, problem: shown.problem });
  return { ...state, page: "two-factor" as const, method, methods, mailSent: Boolean(shown.mailSent) };
}

/** No live challenge (none, forged, used, expired): the sign-in must start again. */
function signInAgain(c: Context, ctx: AuthContext, redirect?: string): Promise<Response> {
  const state = commonState(c, ctx, { redirect });
  return renderPage(c, ctx, { ...state, page: "error", code: "INVALID_TWO_FACTOR_COOKIE" }, 401);
}

const notFound = (c: Context, ctx: AuthContext) =>
  renderPage(c, ctx, { ...commonState(c, ctx), page: "error", code: "NOT_FOUND" }, 404);

export async function showTwoFactor(c: Context, ctx: AuthContext): Promise<Response> {
  if (!ctx.config.twoFactor.enabled) return notFound(c, ctx);
  try {
    await readChallenge(ctx, readSignedCookie(c, ctx, twoFactorCookieNames(ctx).challenge));
  } catch (error) {
    if (!isAuthError(error)) throw error;
    // Back here after the second factor was done (the browser's back button): say who is signed in.
    const session = await resolveSession(c, ctx, { disableRefresh: true });
    if (!session || session.source === "api-key") return signInAgain(c, ctx);
    const state = commonState(c, ctx);
    const returnTo = state.redirect ?? state.home;
    return renderPage(c, ctx, { ...state, page: "signed-in", email: session.user.email, returnTo });
  }
  const shown = { method: c.req.query("method"), mailSent: c.req.query("sent") === "1" };
  return renderPage(c, ctx, twoFactorState(c, ctx, shown));
}

/** A refused form: the page again with the problem (and a lock's Retry-After), or sign in again. */
async function refused(c: Context, ctx: AuthContext, error: AuthError, shown: ShownAs): Promise<Response> {
  if (error.key === "INVALID_TWO_FACTOR_COOKIE") return signInAgain(c, ctx, shown.redirect);
  const problem = twoFactorProblem(error.code, error.status);
  const answer = await renderPage(c, ctx, twoFactorState(c, ctx, { ...shown, problem }), error.status);
  for (const [name, value] of Object.entries(error.headers ?? {})) answer.headers.set(name, value);
  const retryAfter = error.headers?.["X-Retry-After"];
  if (retryAfter) answer.headers.set("retry-after", retryAfter);
  return answer;
}

type FormStep = (c: Context, ctx: AuthContext, fields: FormFields) => Promise<Response>;

/** Every form of the page: the guard first (403 and nothing run), then the step; a refusal is drawn. */
function twoFactorForm(method: TwoFactorMethod, mailSent: boolean, step: FormStep) {
  return async (c: Context, ctx: AuthContext): Promise<Response> => {
    if (!ctx.config.twoFactor.enabled || !offeredMethods(ctx)[method]) return notFound(c, ctx);
    const guarded = await guardForm(c, ctx);
    if (!guarded.ok)
      return renderPage(c, ctx, twoFactorState(c, ctx, { method, mailSent, problem: { code: guarded.problem } }), 403);
    const shown = { method, mailSent, redirect: guarded.fields.redirect };
    try {
      return await step(c, ctx, guarded.fields);
    } catch (error) {
      if (!isAuthError(error) || error.status >= 500) throw error;
      return refused(c, ctx, error, shown);
    }
  };
}

/** A code checked by `check`: the session's cookies as the API sets them (trust_device when asked), then back. */
function codeStep(check: typeof verifyTotp): FormStep {
  return async (c, ctx, fields) => {
    const code = (fields.code ?? "").trim();
    const trust = fields.trustDevice === "on";
    await verifySecondFactor(c, ctx, null, (context, request) => check(ctx, context, code, request), trust);
    const { redirect, home } = commonState(c, ctx, { redirect: fields.redirect });
    return seeOther(c, redirect ?? home);
  };
}

export const postTotp = twoFactorForm("totp", false, codeStep(verifyTotp));
export const postMailedCode = twoFactorForm("mail", true, codeStep(verifyOtp));
export const postBackupCode = twoFactorForm(
  "backup",
  false,
  codeStep((ctx, context, code, request) => verifyBackupCode(ctx, context, { code }, request)),
);

/** Mail a code for this challenge, then show the field for it. */
export const postSendCode = twoFactorForm("mail", false, async (c, ctx, fields) => {
  await sendOtp(ctx, await verificationContext(c, ctx, null));
  const { redirect } = commonState(c, ctx, { redirect: fields.redirect });
  return seeOther(c, pageURL(ctx, "/two-factor", redirect, { method: "mail", sent: "1" }));
});
