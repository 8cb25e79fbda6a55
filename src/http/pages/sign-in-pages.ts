import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FormProblem, SignInMethods } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { ERRORS } from "../../errors.ts";
import { requireValidEmail } from "../../services/email-address.ts";
import { passkeysWorkOnPages } from "../../services/passkeys/relying-party.ts";
import { revokeSession, signOutEvent } from "../../services/sessions/sessions.ts";
import { emailPasswordStrategy, usernamePasswordStrategy } from "../../services/sign-in/password.ts";
import { signIn } from "../../services/sign-in/pipeline.ts";
import type { SignInRequest } from "../../services/sign-in/strategy.ts";
import { clearSessionCookies } from "../cookies.ts";
import { requestSource } from "../security-log.ts";
import { readPresentedSessionTokens, resolveSession } from "../session.ts";
import { setSignInCookies, signInRequestOf } from "../sign-in.ts";
import { type FormFields, guardForm } from "./guard.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";
import { socialButtons } from "./social-form-targets.ts";

// Sign in and sign out, as pages: the same pipeline and session services as POST /sign-in/email,
// /sign-in/username and /sign-out, with the answer drawn as a page instead of JSON.

function signInMethods(ctx: AuthContext): SignInMethods {
  const { emailAndPassword, username, magicLink, emailOTP } = ctx.config;
  return {
    password: emailAndPassword.enabled,
    username: username.enabled,
    signUp: emailAndPassword.enabled && !emailAndPassword.disableSignUp,
    passkey: passkeysWorkOnPages(ctx),
    magicLink: magicLink.enabled,
    emailCode: emailOTP.enabled,
    social: socialButtons(ctx),
  };
}

/** The sign-in page's state, with the identifier typed and the problem of the last post. */
export function signInPage(
  c: Context,
  ctx: AuthContext,
  identifier: string,
  problem: FormProblem | null,
  redirect?: string,
) {
  const notice = c.req.query("notice") === "password-reset" ? ("password-reset" as const) : null;
  const state = commonState(c, ctx, { redirect, problem });
  return { ...state, page: "sign-in" as const, methods: signInMethods(ctx), identifier, notice };
}

export async function showSignIn(c: Context, ctx: AuthContext): Promise<Response> {
  // ?identifier= fills the field (an OpenID client's login_hint); ?fresh=1 asks for a sign-in even when the
  // browser has one (prompt=login, max_age), so the form is shown to the signed-in too.
  // The session first: a signed-in user's page is in the language they chose.
  const session = await resolveSession(c, ctx, { disableRefresh: true });
  const state = signInPage(c, ctx, (c.req.query("identifier") ?? "").slice(0, 320), null);
  if (session && session.source !== "api-key" && c.req.query("fresh") !== "1") {
    const returnTo = state.redirect ?? state.home;
    return renderPage(c, ctx, { ...state, page: "signed-in", email: session.user.email, returnTo });
  }
  return renderPage(c, ctx, state);
}

async function runSignIn(ctx: AuthContext, fields: FormFields, request: SignInRequest) {
  const identifier = (fields.identifier ?? "").trim();
  const password = fields.password ?? "";
  if (ctx.config.username.enabled && identifier !== "" && !identifier.includes("@"))
    return signIn(ctx, usernamePasswordStrategy, { username: identifier, password }, request);
  return signIn(ctx, emailPasswordStrategy, { email: requireValidEmail(identifier), password }, request);
}

export async function postSignIn(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return renderPage(c, ctx, signInPage(c, ctx, "", { code: guarded.problem }), 403);
  const { fields } = guarded;
  const identifier = (fields.identifier ?? "").trim();
  const again = (problem: FormProblem, status: ContentfulStatusCode) =>
    renderPage(c, ctx, signInPage(c, ctx, identifier, problem, fields.redirect), status);
  if (!ctx.config.emailAndPassword.enabled) return again({ code: ERRORS.EMAIL_PASSWORD_DISABLED.code }, 400);
  const request = signInRequestOf(c, ctx, fields.rememberMe === "on");
  try {
    const signedIn = await runSignIn(ctx, fields, request);
    if (signedIn.kind === "refused")
      return again({ code: ERRORS[signedIn.refusal].code }, ERRORS[signedIn.refusal].status);
    setSignInCookies(c, ctx, signedIn, request);
    const state = commonState(c, ctx, { redirect: fields.redirect });
    if (signedIn.kind === "challenge") return seeOther(c, pageURL(ctx, "/two-factor", state.redirect));
    return seeOther(c, state.redirect ?? state.home);
  } catch (error) {
    const { code, status } = pageRefusal(error);
    const field = code === "INVALID_EMAIL" ? { field: "identifier" } : {};
    return again({ code, ...field }, status);
  }
}

export async function postSignOut(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return renderPage(c, ctx, { ...commonState(c, ctx), page: "error", code: guarded.problem }, 403);
  const tokens = readPresentedSessionTokens(c, ctx);
  clearSessionCookies(c, ctx);
  for (const token of tokens) await revokeSession(ctx, token, signOutEvent(requestSource(c, ctx)));
  return seeOther(c, pageURL(ctx, "/signed-out", commonState(c, ctx, { redirect: guarded.fields.redirect }).redirect));
}

export function showSignedOut(c: Context, ctx: AuthContext): Promise<Response> {
  return renderPage(c, ctx, { ...commonState(c, ctx), page: "signed-out" });
}

export function showError(c: Context, ctx: AuthContext): Promise<Response> {
  const code = (c.req.query("error") ?? "unknown").slice(0, 100);
  return renderPage(c, ctx, { ...commonState(c, ctx), page: "error", code });
}
