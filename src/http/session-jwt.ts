import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import { issueUserJWT } from "../services/jwt/tokens.ts";
import type { SessionWithUser } from "../wire/session.ts";
import { exposeHeader } from "./answer-headers.ts";

// The JWT plugin's header on get-session: other services get the session user's JWT without a second call.

/** get-session's answer, with the session user's JWT in `set-auth-jwt` when the feature is on. */
export async function withSessionJWT(c: Context, ctx: AuthContext, answer: SessionWithUser): Promise<SessionWithUser> {
  if (!ctx.config.jwt.enabled) return answer;
  c.header("set-auth-jwt", await issueUserJWT(ctx, answer.user, answer.session.impersonatedBy));
  exposeHeader(c, "set-auth-jwt");
  return answer;
}
