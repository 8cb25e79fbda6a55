import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type AccountSection, type FormProblem, type PageState, problemFor } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { isAuthError } from "../../errors.ts";
import { requestSource } from "../security-log.ts";
import type { ResolvedSession } from "../session.ts";
import { accountSession, needsReauthentication, offeredAccountSections, reauthenticate } from "./account-frame.ts";
import { type FormFields, guardForm } from "./guard.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, renderPage } from "./respond.ts";

// How a section of the account page answers (profile, password, sessions,
// delete): a section the configuration does not offer is not there (404); signed out, the browser goes
// through sign-in and back; a form post passes the guard first (403, nothing run), then runs its step,
// and a refusal is drawn on the section with the API's words, or, for a sign-in older than
// account.freshAge, sends the browser through re-authentication and back.

/** A section's page state for the signed-in `session`, with the problem of the last post. */
export type SectionPage = (
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession,
  problem: FormProblem | null,
) => Promise<PageState>;

/**
 * What a form post does once guarded and signed in: its answer (a 303 on success), or a problem of the
 * form the page finds itself (a field left empty, an image URL that is not http(s)), drawn with 400.
 */
export type SectionStep = (
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession,
  fields: FormFields,
) => Promise<Response | FormProblem>;

/** A refusal that a new sign-in lifts: too old for a sensitive change, or for deleting without a password. */
const liftedBySigningIn = (error: unknown): boolean =>
  needsReauthentication(error) || (isAuthError(error) && error.key === "SESSION_EXPIRED");

const notOffered = (c: Context, ctx: AuthContext) =>
  renderPage(c, ctx, { ...commonState(c, ctx), page: "error", code: "NOT_FOUND" }, 404);

/** GET of a section: its page, or sign-in first. */
export function sectionPage(section: AccountSection, page: SectionPage) {
  return async (c: Context, ctx: AuthContext): Promise<Response> => {
    if (!offeredAccountSections(ctx).includes(section)) return notOffered(c, ctx);
    const signedIn = await accountSession(c, ctx, section);
    if ("answer" in signedIn) return signedIn.answer;
    return renderPage(c, ctx, await page(c, ctx, signedIn.session, null));
  };
}

/**
 * A form of a section. `fields` names, per refusal code, the form's field it belongs to (the common names
 * otherwise), so the problem shows beside that field.
 */
export function sectionForm(
  section: AccountSection,
  page: SectionPage,
  step: SectionStep,
  fields?: Readonly<Record<string, string>>,
) {
  return async (c: Context, ctx: AuthContext): Promise<Response> => {
    if (!offeredAccountSections(ctx).includes(section)) return notOffered(c, ctx);
    const guarded = await guardForm(c, ctx);
    const signedIn = await accountSession(c, ctx, section);
    if ("answer" in signedIn) return signedIn.answer;
    const { session } = signedIn;
    const again = async (problem: FormProblem, status: ContentfulStatusCode) =>
      renderPage(c, ctx, await page(c, ctx, session, problem), status);
    if (!guarded.ok) return again({ code: guarded.problem }, 403);
    try {
      const answer = await step(c, ctx, session, guarded.fields);
      return answer instanceof Response ? answer : await again(answer, 400);
    } catch (error) {
      if (liftedBySigningIn(error)) return reauthenticate(c, ctx, section);
      const { code, status } = pageRefusal(error);
      return again(problemFor(code, fields), status);
    }
  };
}

/** The signed-in user as the actor of a section's security events. */
export const userSource = (c: Context, ctx: AuthContext, session: ResolvedSession) =>
  requestSource(c, ctx, "user", session.user.id);
