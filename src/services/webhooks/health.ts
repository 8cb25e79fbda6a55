import type { AuthContext } from "../../context.ts";
import type { AttemptObserver } from "./delivery.ts";
import type { AttemptResult } from "./send.ts";

// What the operator reads in the log about failing webhook endpoints: one warning when an endpoint starts
// failing, then at most one a minute while it keeps failing (a receiver down for a day must not flood the
// log with an attempt line per retry of every event), and one info line when it answers 2xx again. The
// state is this daemon's: with several daemons each says what its own attempts saw.

const WARN_EVERY_MS = 60_000;

interface Failing {
  since: number;
  lastWarnedAt: number;
  /** Failed attempts since the last warning that were not logged. */
  unlogged: number;
  total: number;
}

/**
 * The URL as it may be logged: no query string or fragment, where receivers commonly carry a token (the
 * endpoint id names the endpoint exactly; `authd webhooks list` shows the whole URL).
 */
function loggableURL(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search || parsed.hash ? "?…" : ""}`;
  } catch {
    return "(not a URL)";
  }
}

function reason(result: AttemptResult): string {
  return result.error ?? `HTTP ${result.status}`;
}

/** An observer for the worker's attempts that writes the lines above. */
export function createDeliveryHealthLog(ctx: AuthContext): AttemptObserver {
  const failing = new Map<string, Failing>();
  return (endpoint, result) => {
    const now = ctx.now();
    const state = failing.get(endpoint.id);
    const where = { endpointId: endpoint.id, url: loggableURL(endpoint.url) };
    if (result.ok) {
      if (!state) return;
      failing.delete(endpoint.id);
      ctx.logger.info("webhook endpoint recovered", {
        ...where,
        status: result.status,
        failedAttempts: state.total,
        failingSince: new Date(state.since).toISOString(),
      });
      return;
    }
    if (state && now - state.lastWarnedAt < WARN_EVERY_MS) {
      state.unlogged += 1;
      state.total += 1;
      return;
    }
    const next: Failing = state
      ? { ...state, lastWarnedAt: now, unlogged: 0, total: state.total + 1 }
      : { since: now, lastWarnedAt: now, unlogged: 0, total: 1 };
    failing.set(endpoint.id, next);
    ctx.logger.warn("webhook delivery failing", {
      ...where,
      reason: reason(result),
      status: result.status ?? undefined,
      failingSince: new Date(next.since).toISOString(),
      failedAttempts: next.total,
      // The failures since the previous warning that were not logged one by one.
      unloggedSinceLastWarning: state ? state.unlogged : undefined,
    });
  };
}
