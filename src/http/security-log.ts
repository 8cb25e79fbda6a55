import type { Context } from "hono";
import type { AuthContext } from "../context.ts";
import type { AdminActor } from "../services/admin.ts";
import { type RequestOrigin, sourceOf } from "../services/request-origin.ts";
import type { ActorType, EventSource, Impersonation } from "../services/security-events.ts";
import { clientAddress } from "./client-address.ts";
import { noteUser } from "./middleware/request-log.ts";

// Where a request came from, for the services that record security events (src/services/security-events.ts
// writes them; the flows record them, not the routes). The source of each is who acted, with the client's
// address (the one rate limits and sessions use, so forwarding headers count only from trusted proxies) and
// user agent; a user named as the actor is named in the request's log line too.

/** The impersonation a request's session is: who acts as whom, and until when (the pages' banner shows it). */
export interface ImpersonationNote extends Impersonation {
  userName: string;
  userEmail: string;
  /** When the impersonation session ends by itself (epoch ms). */
  expiresAt: number;
}

declare module "hono" {
  interface ContextVariableMap {
    /** The request's session is an administrator's impersonation (noted when the session is resolved). */
    impersonation: ImpersonationNote;
  }
}

/** The session the request acts with is an impersonation: every event the request causes names both ids. */
export function noteImpersonation(c: Context, note: ImpersonationNote): void {
  c.set("impersonation", note);
}

/** The impersonation the request's session is, once the session was resolved; null for any other. */
export function impersonationOf(c: Context): ImpersonationNote | null {
  return c.get("impersonation") ?? null;
}

export function requestOrigin(c: Context, ctx: AuthContext): RequestOrigin {
  const note = impersonationOf(c);
  return {
    ip: clientAddress(c, ctx),
    userAgent: c.req.header("user-agent") ?? null,
    noteUser: (userId) => noteUser(c, userId),
    ...(note ? { impersonation: { adminId: note.adminId, userId: note.userId } } : {}),
  };
}

export function requestSource(
  c: Context,
  ctx: AuthContext,
  actorType: ActorType = "anonymous",
  actorId: string | null = null,
): EventSource {
  return sourceOf(requestOrigin(c, ctx), actorType, actorId);
}

/** An /admin route's caller: the server (server token) or the administrator signed in. */
export function adminRequestSource(c: Context, ctx: AuthContext, actor: AdminActor): EventSource {
  return actor.kind === "server" ? requestSource(c, ctx, "server") : requestSource(c, ctx, "admin", actor.userId);
}
