import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { type Actor, actorFrom } from "../services/organizations/actor.ts";
import { setSessionDataCookie } from "./cookies.ts";
import { requestSource } from "./security-log.ts";
import { holdsSessionToken, type ResolvedSession } from "./session.ts";

// The signed-in caller of an organization operation, shared by the organization routes and the invitation
// page (which calls the same services as accept-invitation and reject-invitation).

/**
 * Runs an organization operation for the signed-in caller and, when it moved the session's active
 * organization or team, rewrites the cached session cookie so get-session shows the change at once.
 */
export async function asActor<T>(
  c: Context,
  ctx: AuthContext,
  session: ResolvedSession,
  work: (actor: Actor) => Promise<T>,
): Promise<T> {
  const actor = actorFrom(session.user, session.session, requestSource(c, ctx, "user", session.user.id));
  const result = await work(actor);
  if (actor.sessionChanged && actor.session && holdsSessionToken(session))
    setSessionDataCookie(c, ctx, { session: actor.session, user: actor.user });
  return result;
}
