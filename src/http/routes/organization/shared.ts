import type { Context } from "hono";
import type { AuthContext } from "../../../context.ts";
import { AuthError } from "../../../errors.ts";
import { type Actor, actorFrom } from "../../../services/organizations/actor.ts";
import { findUserById } from "../../../services/users.ts";
import { setSessionDataCookie } from "../../cookies.ts";
import { requestSource } from "../../security-log.ts";
import { holdsSessionToken, type ResolvedSession } from "../../session.ts";

export const tags = ["Organization"];

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

/** The actor of a call that may come from the server naming a userId instead of carrying a session. */
export async function serverActor(ctx: AuthContext, userId: string | undefined): Promise<Actor> {
  if (!userId) throw new AuthError("UNAUTHORIZED");
  const user = await findUserById(ctx, userId);
  if (!user) throw new AuthError("ORG_USER_NOT_FOUND");
  return actorFrom(user, null);
}
