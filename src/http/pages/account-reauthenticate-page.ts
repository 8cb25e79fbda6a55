import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FormProblem } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { ERRORS } from "../../errors.ts";
import { listPasskeyRows } from "../../services/passkeys/passkeys.ts";
import { passkeysWorkOnPages } from "../../services/passkeys/relying-party.ts";
import { hasPassword } from "../../services/passwords.ts";
import { revokeSession, signOutEvent, updateSession } from "../../services/sessions/sessions.ts";
import type { SignInStep } from "../../services/sign-in/gate.ts";
import { emailPasswordStrategy } from "../../services/sign-in/password.ts";
import { reauthenticate } from "../../services/sign-in/reauthentication.ts";
import type { SignInRequest } from "../../services/sign-in/strategy.ts";
import { challengeSignedInUser, requiresSecondFactor } from "../../services/two-factor/gate.ts";
import type { UserRecord } from "../../services/users.ts";
import { clearSessionCookies } from "../cookies.ts";
import { requestSource } from "../security-log.ts";
import { type ResolvedSession, resolveSession } from "../session.ts";
import { rememberedChoice, setSignInCookies, signInRequestOf } from "../sign-in.ts";
import { type FormFields, guardForm } from "./guard.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";

// /account/reauthenticate?redirect=<a path of the account page>: a sensitive change found the sign-in older
// than account.freshAge, so the user proves who they are again and comes back. Each way signs in again as
// the signed-in user through the sign-in pipeline (services/sign-in/reauthentication.ts): the password (a
// plain form), a passkey (account-reauthenticate-passkey.ts, with JavaScript), or, for an account without a
// password, the second factor (a challenge, finished on the second-factor page). The new session's
// createdAt is now; the browser's old session ends. Any account can also sign out and sign in again.

/** Where the browser goes back to: a path of the account page (the account page itself otherwise). */
export function reauthenticationBack(ctx: AuthContext, raw: string | undefined): string {
  const base = ctx.config.pages.basePath;
  if (!raw || raw.length > 512 || !raw.startsWith(base)) return base;
  const url = new URL(raw, "http://account.invalid");
  const inside = url.pathname === base || url.pathname.startsWith(`${base}/`);
  return url.origin === "http://account.invalid" && inside ? `${url.pathname}${url.search}` : base;
}

/** The browser's own session (a cookie), or null. */
export async function browserSession(c: Context, ctx: AuthContext): Promise<ResolvedSession | null> {
  const session = await resolveSession(c, ctx);
  return session?.source === "cookie" ? session : null;
}

async function reauthenticationPage(
  c: Context,
  ctx: AuthContext,
  user: UserRecord,
  back: string,
  problem: FormProblem | null,
) {
  const password = ctx.config.emailAndPassword.enabled && (await hasPassword(ctx, user.id));
  const passkey = passkeysWorkOnPages(ctx) && (await listPasskeyRows(ctx, user.id)).length > 0;
  const methods = { password, passkey, secondFactor: !password && requiresSecondFactor(ctx, user) };
  const state = commonState(c, ctx, { redirect: back, problem });
  return { ...state, page: "account-reauthenticate" as const, email: user.email, methods };
}

export async function showReauthenticate(c: Context, ctx: AuthContext): Promise<Response> {
  const back = reauthenticationBack(ctx, c.req.query("redirect"));
  const session = await browserSession(c, ctx);
  // Signed out meanwhile: signing in is the fresh proof.
  if (!session) return c.redirect(pageURL(ctx, "/sign-in", back), 302);
  return renderPage(c, ctx, await reauthenticationPage(c, ctx, session.user, back, null));
}

/**
 * The browser signed in again (or is challenged for its second factor): its old session ends, the new one
 * keeps the old one's active organization, and the cookies change. Answers where the browser goes next.
 */
export async function signedInAgain(
  c: Context,
  ctx: AuthContext,
  previous: ResolvedSession,
  step: SignInStep & { user: UserRecord },
  request: SignInRequest,
  back: string,
): Promise<string> {
  await revokeSession(ctx, previous.session.token);
  clearSessionCookies(c, ctx);
  const { activeOrganizationId, activeTeamId } = previous.session;
  if (step.kind === "session" && activeOrganizationId) {
    const carried = await updateSession(ctx, step.session, { activeOrganizationId, activeTeamId });
    step = { ...step, session: carried ?? step.session };
  }
  setSignInCookies(c, ctx, step, request);
  if (step.kind === "challenge") return pageURL(ctx, "/two-factor", back);
  const location = new URL(back, "http://account.invalid");
  location.searchParams.set("notice", "notice.account.reauthenticated");
  return `${location.pathname}${location.search}`;
}

type ReauthenticationStep = (
  ctx: AuthContext,
  session: ResolvedSession,
  fields: FormFields,
  request: SignInRequest,
) => Promise<FormProblem | (SignInStep & { user: UserRecord })>;

/** A form of the page: the guard (403, nothing run), the signed-in browser, the step; refusals drawn on the page. */
function reauthenticationForm(step: ReauthenticationStep) {
  return async (c: Context, ctx: AuthContext): Promise<Response> => {
    const guarded = await guardForm(c, ctx);
    const back = reauthenticationBack(ctx, guarded.ok ? guarded.fields.redirect : c.req.query("redirect"));
    const session = await browserSession(c, ctx);
    if (!session) return seeOther(c, pageURL(ctx, "/sign-in", back));
    const again = async (problem: FormProblem, status: ContentfulStatusCode) =>
      renderPage(c, ctx, await reauthenticationPage(c, ctx, session.user, back, problem), status);
    if (!guarded.ok) return again({ code: guarded.problem }, 403);
    const request = signInRequestOf(c, ctx, rememberedChoice(c, ctx));
    try {
      const result = await step(ctx, session, guarded.fields, request);
      if ("code" in result) return again(result, result.code === "INVALID_PASSWORD" ? 401 : 400);
      return seeOther(c, await signedInAgain(c, ctx, session, result, request, back));
    } catch (error) {
      const { code, status } = pageRefusal(error);
      return again({ code }, status);
    }
  };
}

/** The password of the signed-in account (the identifier is the session's, never the form's). */
export const postReauthenticate = reauthenticationForm(async (ctx, session, fields, request) => {
  if (!ctx.config.emailAndPassword.enabled) return { code: ERRORS.EMAIL_PASSWORD_DISABLED.code };
  const input = { email: session.user.email, password: fields.password ?? "" };
  const result = await reauthenticate(ctx, session.user, emailPasswordStrategy, input, request, "MISMATCH");
  return result.kind === "refused" ? { code: "INVALID_PASSWORD", field: "password" } : result;
});

/** The second factor alone, for an account without a password: a challenge, then the second-factor page. */
export const postReauthenticateSecondFactor = reauthenticationForm(async (ctx, session, _fields, request) => {
  if (ctx.config.emailAndPassword.enabled && (await hasPassword(ctx, session.user.id)))
    return { code: "USE_YOUR_PASSWORD" };
  const challengeId = await challengeSignedInUser(ctx, session.user, request);
  return { kind: "challenge", challengeId, user: session.user };
});

/** Any account: sign out here, and sign in again by any way the sign-in page offers, coming back after. */
export async function postSignInAgain(c: Context, ctx: AuthContext): Promise<Response> {
  const guarded = await guardForm(c, ctx);
  const back = reauthenticationBack(ctx, guarded.ok ? guarded.fields.redirect : c.req.query("redirect"));
  const session = await browserSession(c, ctx);
  if (!session) return seeOther(c, pageURL(ctx, "/sign-in", back));
  if (!guarded.ok) {
    const page = await reauthenticationPage(c, ctx, session.user, back, { code: guarded.problem });
    return renderPage(c, ctx, page, 403);
  }
  await revokeSession(ctx, session.session.token, signOutEvent(requestSource(c, ctx)));
  clearSessionCookies(c, ctx);
  return seeOther(c, pageURL(ctx, "/sign-in", back));
}
