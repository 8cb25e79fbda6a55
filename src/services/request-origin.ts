import type { ActorType, EventSource, Impersonation } from "./security-events.ts";

// Where a request came from, as the services need it: a plain value the HTTP layer builds (the client
// address that rate limits and sessions use, the user agent), never a request object, so the same flows
// run for the pages, the API and the console.

export interface RequestOrigin {
  /** The client's address (forwarding headers count only from trusted proxies); null when unknown. */
  ip: string | null;
  /** The User-Agent header as sent; null when absent. */
  userAgent: string | null;
  /** Told the user an event names as its actor, so the front end's request log can name them too. */
  noteUser?: (userId: string) => void;
  /** The request's session is an administrator's impersonation: its events name both (security-events.ts). */
  impersonation?: Impersonation;
}

/** The security-log source of an event caused from `origin`: anonymous unless an actor is named. */
export function sourceOf(
  origin: RequestOrigin,
  actorType: ActorType = "anonymous",
  actorId: string | null = null,
): EventSource {
  if (actorType === "user" && actorId) origin.noteUser?.(actorId);
  const source: EventSource = { actorType, actorId, ip: origin.ip, userAgent: origin.userAgent };
  return origin.impersonation ? { ...source, impersonation: origin.impersonation } : source;
}
