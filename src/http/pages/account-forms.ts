import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AccountSection, FormProblem } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import type { ResolvedSession } from "../session.ts";
import {
  accountSession,
  backToSection,
  needsReauthentication,
  offeredAccountSections,
  reauthenticate,
} from "./account-frame.ts";
import { type FormFields, guardForm } from "./guard.ts";
import { linkFailure } from "./mailed-links.ts";
import { pageRefusal } from "./respond.ts";

// The way every section of the account page is drawn and takes its forms without JavaScript: a section
// the configuration does not offer is not found; signed out, the browser goes through sign-in and back; a
// form passes the guard (Origin, form token), then runs the same service as the API and goes back to the
// section with a notice, or draws the section again with the refusal; a stale sign-in goes through
// re-authentication first.

/** A section drawn for its signed-in user, with a problem to show and the status to answer with. */
export type DrawSection = (
  session: ResolvedSession,
  problem?: FormProblem | null,
  status?: ContentfulStatusCode,
) => Promise<Response>;

const notOffered = (c: Context, ctx: AuthContext, section: AccountSection) =>
  offeredAccountSections(ctx).includes(section) ? null : linkFailure(c, ctx, "NOT_FOUND", 404);

/** GET of a section: the section drawn for the browser's own session. */
export async function showAccountSection(
  c: Context,
  ctx: AuthContext,
  section: AccountSection,
  draw: DrawSection,
): Promise<Response> {
  const refused = notOffered(c, ctx, section);
  if (refused) return refused;
  const signedIn = await accountSession(c, ctx, section);
  if ("answer" in signedIn) return signedIn.answer;
  return draw(signedIn.session);
}

/**
 * POST of a section's form. `act` does the change and answers the notice to show back on the section (a
 * notice.account.* key), or a page of its own (a key shown once, the provider's authorization page).
 */
export async function takeAccountForm(
  c: Context,
  ctx: AuthContext,
  section: AccountSection,
  draw: DrawSection,
  act: (session: ResolvedSession, fields: FormFields) => Promise<string | Response>,
): Promise<Response> {
  const refused = notOffered(c, ctx, section);
  if (refused) return refused;
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return linkFailure(c, ctx, guarded.problem, 403);
  const signedIn = await accountSession(c, ctx, section);
  if ("answer" in signedIn) return signedIn.answer;
  try {
    const done = await act(signedIn.session, guarded.fields);
    return typeof done === "string" ? backToSection(c, ctx, section, done) : done;
  } catch (error) {
    if (needsReauthentication(error)) return reauthenticate(c, ctx, section);
    const { code, status } = pageRefusal(error);
    return draw(signedIn.session, { code }, status);
  }
}
