import type { AuthContext } from "../../../context.ts";
import { AuthError } from "../../../errors.ts";
import { type Actor, actorFrom } from "../../../services/organizations/actor.ts";
import { findUserById } from "../../../services/users.ts";

export const tags = ["Organization"];

/** The actor of a call that may come from the server naming a userId instead of carrying a session. */
export async function serverActor(ctx: AuthContext, userId: string | undefined): Promise<Actor> {
  if (!userId) throw new AuthError("UNAUTHORIZED");
  const user = await findUserById(ctx, userId);
  if (!user) throw new AuthError("ORG_USER_NOT_FOUND");
  return actorFrom(user, null);
}
