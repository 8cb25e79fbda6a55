import type { AuthContext } from "../context.ts";
import { KeptOutcomes } from "../platform/kept-outcomes.ts";
import { perContext } from "../platform/per-context.ts";
import { type SessionWithUser, toSessionWire } from "../services/sessions/sessions.ts";
import { toUserWire } from "../services/users.ts";
import type { SessionWithUser as WireSessionWithUser } from "../wire/session.ts";
import { keepJSON } from "./kept-json.ts";

// get-session is asked the same question many times a second (an app's back end asks on every request it
// serves), and most of its answer's cost is turning the same session into the same wire JSON, ISO dates and
// signed cookie again. While this process's copy of a session is current, findSession hands out the same
// session and user objects (sessions/local-cache.ts; a change anywhere replaces them), so what is made from
// them is kept beside them, by identity: a session or user that changed is a new object, and misses.
//
// What is kept is never changed after it is made: the answers are frozen, and their JSON text is made once
// (http/kept-json.ts).

/** get-session's {session, user} for this context, by the session object; valid for that user object only. */
const answers = perContext(() => new WeakMap<object, { user: object; answer: WireSessionWithUser }>());

/** The session and its user on the wire (get-session's answer, the session_data cookie's payload). */
export function sessionAnswer(ctx: AuthContext, data: SessionWithUser): WireSessionWithUser {
  const known = answers(ctx).get(data.session);
  if (known && known.user === data.user) return known.answer;
  const answer = keepJSON({ session: toSessionWire(ctx, data.session), user: toUserWire(ctx, data.user) });
  answers(ctx).set(data.session, { user: data.user, answer });
  return answer;
}

/**
 * How long a signed session_data cookie is handed out again for the same session and user. Its signed
 * expiry is then up to this much earlier than a fresh one's: the copy is trusted up to a second less, and
 * the session is read instead for that second.
 */
export const DATA_COOKIE_REUSE_MS = 1000;

/** Signed session_data values made lately, by the session object. */
const dataCookies = perContext(() => new WeakMap<object, { user: object; value: string; madeAt: number }>());

/** The session_data cookie's value for `data`: one made less than DATA_COOKIE_REUSE_MS ago, else `make()`'s. */
export function sessionDataValue(ctx: AuthContext, data: SessionWithUser, make: () => string): string {
  const now = ctx.now();
  const known = dataCookies(ctx).get(data.session);
  if (known && known.user === data.user && now >= known.madeAt && now - known.madeAt < DATA_COOKIE_REUSE_MS)
    return known.value;
  const value = make();
  dataCookies(ctx).set(data.session, { user: data.user, value, madeAt: now });
  return value;
}

/** What a presented session_data cookie's signature check found: its copy and the expiries to check each time. */
export interface CheckedDataCookie {
  answer: WireSessionWithUser;
  expiresAt: number;
  sessionExpiresAt: number;
}

/** Presented session_data values whose signature this context found good (at most 1,000, each up to 4 KB). */
const checked = perContext(() => new KeptOutcomes<CheckedDataCookie>(1000, 4096));

/**
 * A presented session_data value's signature check, done once per good value (a forged one is never kept):
 * the value is signed data, so the outcome cannot change while the secret does not (a context has one).
 * Expiry and the token it must match stay the caller's to check on every request.
 */
export function checkDataCookie(
  ctx: AuthContext,
  raw: string,
  check: () => CheckedDataCookie | null,
): CheckedDataCookie | null {
  return checked(ctx).get(raw, () => check() ?? undefined) ?? null;
}
