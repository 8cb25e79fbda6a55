import * as z from "zod";
import { AuthError } from "../../errors.ts";
import {
  listOwnSessions,
  ownRevocationEvent,
  revokeOwnSession,
  revokeSession,
  revokeUserSessions,
  signOutEvent,
  toListedSessionWire,
} from "../../services/sessions/sessions.ts";
import { StatusSchema, SuccessSchema } from "../../wire/common.ts";
import { SessionSchema, SessionWithUserSchema } from "../../wire/session.ts";
import { clearSessionCookies, readSessionDataCookie } from "../cookies.ts";
import { singleLine } from "../fields.ts";
import { noteUser } from "../middleware/request-log.ts";
import { defineRoute, queryBoolean } from "../route.ts";
import { requestSource } from "../security-log.ts";
import { readPresentedSessionToken, readPresentedSessionTokens, resolveSession } from "../session.ts";
import { sessionAnswer } from "../session-answers.ts";
import { withSessionJWT } from "../session-jwt.ts";

const tags = ["Session"];

export const getSession = defineRoute({
  method: "GET",
  path: "/get-session",
  summary: "The current session and user, or null",
  tags,
  query: z.object({ disableCookieCache: queryBoolean.optional(), disableRefresh: queryBoolean.optional() }),
  response: SessionWithUserSchema.nullable(),
  handler: async ({ c, ctx, query }) => {
    const token = readPresentedSessionToken(c, ctx);
    if (token && ctx.config.session.cookieCache.enabled && !query.disableCookieCache) {
      const cached = readSessionDataCookie(c, ctx, token);
      if (cached) {
        noteUser(c, cached.user.id);
        return withSessionJWT(c, ctx, cached);
      }
    }
    const current = await resolveSession(c, ctx, { disableRefresh: query.disableRefresh, renewCacheCookie: true });
    if (!current) return null;
    return withSessionJWT(c, ctx, sessionAnswer(ctx, current));
  },
});

export const listSessions = defineRoute({
  method: "GET",
  path: "/list-sessions",
  summary: "The caller's live sessions",
  description:
    "Each session's token is a handle for revoke-session (the stored hash of the token), not a credential: identify the current session by id.",
  tags,
  auth: "session",
  response: z.array(SessionSchema),
  handler: async ({ ctx, session }) => {
    return (await listOwnSessions(ctx, session.user.id)).map((row) => toListedSessionWire(ctx, row));
  },
});

export const revokeSessionRoute = defineRoute({
  method: "POST",
  path: "/revoke-session",
  summary: "Revoke one of the caller's sessions by handle or token",
  description: "token is the token field of a session from list-sessions (its handle) or the session token itself.",
  tags,
  auth: "session",
  body: z.object({ token: singleLine() }),
  response: StatusSchema,
  handler: async ({ c, ctx, body, session }) => {
    // Only the caller's own sessions: another user's is refused (401) and left alone.
    const source = requestSource(c, ctx);
    await revokeOwnSession(ctx, body.token, session.user.id, (revoked) =>
      ownRevocationEvent(session.user.id, source, "session", 1, revoked.id),
    );
    return { status: true };
  },
});

export const revokeSessions = defineRoute({
  method: "POST",
  path: "/revoke-sessions",
  summary: "Revoke all of the caller's sessions",
  tags,
  auth: "session",
  response: StatusSchema,
  handler: async ({ c, ctx, session }) => {
    const source = requestSource(c, ctx);
    await revokeUserSessions(ctx, session.user.id, undefined, (count) =>
      ownRevocationEvent(session.user.id, source, "user", count),
    );
    clearSessionCookies(c, ctx);
    return { status: true };
  },
});

export const revokeOtherSessions = defineRoute({
  method: "POST",
  path: "/revoke-other-sessions",
  summary: "Revoke all of the caller's sessions but the current one",
  tags,
  auth: "session",
  response: StatusSchema,
  handler: async ({ c, ctx, session }) => {
    const source = requestSource(c, ctx);
    await revokeUserSessions(ctx, session.user.id, session.session, (count) =>
      ownRevocationEvent(session.user.id, source, "user", count),
    );
    return { status: true };
  },
});

export const signOut = defineRoute({
  method: "POST",
  path: "/sign-out",
  summary: "End the current session and clear its cookies",
  tags,
  response: SuccessSchema,
  handler: async ({ c, ctx }) => {
    // Every session the request presents ends (a bearer token and a cookie of another session alike).
    const tokens = readPresentedSessionTokens(c, ctx);
    clearSessionCookies(c, ctx);
    if (tokens.length === 0) throw new AuthError("FAILED_TO_GET_SESSION");
    for (const token of tokens) await revokeSession(ctx, token, signOutEvent(requestSource(c, ctx)));
    return { success: true };
  },
});

export const sessionRoutes = [
  getSession,
  listSessions,
  revokeSessionRoute,
  revokeSessions,
  revokeOtherSessions,
  signOut,
];
