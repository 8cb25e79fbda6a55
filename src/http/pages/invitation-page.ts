import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { FormProblem } from "../../../ui/web/state.ts";
import type { AuthContext } from "../../context.ts";
import { AuthError } from "../../errors.ts";
import { acceptInvitation, getInvitation, rejectInvitation } from "../../services/organizations/invitations.ts";
import { asActor } from "../organization-actor.ts";
import { type ResolvedSession, resolveSession } from "../session.ts";
import { guardForm } from "./guard.ts";
import { linkFailure } from "./mailed-links.ts";
import { commonState } from "./page-state.ts";
import { pageRefusal, pageURL, renderPage, seeOther } from "./respond.ts";

// An organization invitation as a page: {pages}/invitation/<id> (the invitation mail's link with the pages
// on), or ?id=<id>. It shows the invitation only as GET /organization/get-invitation would: to its signed-in
// recipient, through the same service; a signed-out browser learns nothing of it and is offered sign-in
// and sign-up, which come back here. Accept and Decline post to page routes that call the services of
// /organization/accept-invitation and /organization/reject-invitation.

const MAX_ID_LENGTH = 256;

const invitationPath = (id: string) => `/invitation/${encodeURIComponent(id)}`;

interface Shown {
  id: string;
  redirect?: string;
  /** A refusal of the post that led here; it wins over the page's own. */
  problem?: FormProblem;
  status?: ContentfulStatusCode;
}

async function invitationPage(c: Context, ctx: AuthContext, shown: Shown): Promise<Response> {
  // The session first: a signed-in user's page is in the language they chose.
  const session = await resolveSession(c, ctx, { disableRefresh: true });
  const state = commonState(c, ctx, { redirect: shown.redirect });
  const here = pageURL(ctx, invitationPath(shown.id), state.redirect);
  const page = {
    page: "invitation" as const,
    invitationId: shown.id,
    invitation: null,
    email: null,
    signIn: pageURL(ctx, "/sign-in", here),
    signUp: pageURL(ctx, "/sign-up", here),
    here,
    done: null,
  };
  if (!session) return renderPage(c, ctx, { ...state, ...page }, shown.status ?? 200);
  let problem = shown.problem ?? null;
  let status = shown.status ?? 200;
  try {
    const details = await asActor(c, ctx, session, (actor) => getInvitation(ctx, actor, shown.id));
    const { organizationName, inviterEmail, role } = details;
    const invitation = { organizationName, inviterEmail, role };
    return renderPage(c, ctx, { ...state, ...page, email: session.user.email, invitation, problem }, status);
  } catch (error) {
    const refusal = pageRefusal(error);
    problem ??= { code: refusal.code };
    if (!shown.status) status = refusal.status;
  }
  return renderPage(c, ctx, { ...state, ...page, email: session.user.email, problem }, status);
}

function invitationIdOf(raw: string | undefined): string | null {
  return raw && raw.length <= MAX_ID_LENGTH ? raw : null;
}

export function showInvitation(c: Context, ctx: AuthContext): Promise<Response> {
  if (!ctx.config.organization.enabled) return linkFailure(c, ctx, "NOT_FOUND", 404);
  const id = invitationIdOf(c.req.param("id") ?? c.req.query("id"));
  if (!id) return linkFailure(c, ctx, new AuthError("INVITATION_NOT_FOUND").code);
  if (c.req.query("done") === "rejected") {
    const state = commonState(c, ctx);
    const here = pageURL(ctx, invitationPath(id), state.redirect);
    const page = {
      page: "invitation",
      invitationId: id,
      invitation: null,
      email: null,
      here,
      done: "rejected",
    } as const;
    return renderPage(c, ctx, { ...state, ...page, signIn: here, signUp: here });
  }
  return invitationPage(c, ctx, { id });
}

/**
 * Accept or reject an invitation as the signed-in user, through the services of accept-invitation and
 * reject-invitation (the account page's organizations section answers its invitations the same way).
 */
export async function answerAsInvitee(
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession,
  invitationId: string,
  answer: "accept" | "reject",
): Promise<void> {
  await asActor(c, ctx, session, async (actor) => {
    await (answer === "accept"
      ? acceptInvitation(ctx, actor, invitationId)
      : rejectInvitation(ctx, actor, invitationId));
  });
}

async function answerInvitation(c: Context, ctx: AuthContext, answer: "accept" | "reject"): Promise<Response> {
  if (!ctx.config.organization.enabled) return linkFailure(c, ctx, "NOT_FOUND", 404);
  const guarded = await guardForm(c, ctx);
  if (!guarded.ok) return linkFailure(c, ctx, guarded.problem, 403);
  const id = invitationIdOf(guarded.fields.invitationId);
  if (!id) return linkFailure(c, ctx, new AuthError("INVITATION_NOT_FOUND").code);
  const { redirect, home } = commonState(c, ctx, { redirect: guarded.fields.redirect });
  const shown = { id, redirect: guarded.fields.redirect };
  const session = await resolveSession(c, ctx);
  // Signed out meanwhile: the page again, asking to sign in first (the API answers 401 for this).
  if (!session) return invitationPage(c, ctx, { ...shown, status: 401 });
  try {
    await answerAsInvitee(c, ctx, session, id, answer);
  } catch (error) {
    const { code, status } = pageRefusal(error);
    return invitationPage(c, ctx, { ...shown, problem: { code }, status });
  }
  if (answer === "accept") return seeOther(c, redirect ?? home);
  return seeOther(c, pageURL(ctx, invitationPath(id), redirect, { done: "rejected" }));
}

export const postAcceptInvitation = (c: Context, ctx: AuthContext) => answerInvitation(c, ctx, "accept");
export const postRejectInvitation = (c: Context, ctx: AuthContext) => answerInvitation(c, ctx, "reject");
