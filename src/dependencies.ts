// What authd depends on (the database, Redis, the SMTP server), named the way an operator reads it, and the
// failures to reach them as one line: `postgres 127.0.0.1:5432/authd: connection refused`. Never a password.

/** A dependency that cannot be reached or used as configured: the operator's to fix, never a bug. */
export class DependencyError extends Error {
  constructor(
    /** What failed and where: `postgres 127.0.0.1:5432/authd`, `redis localhost:6379`, `sqlite ./authd.db`. */
    readonly target: string,
    /** Why, in a few words (no stack, no password). */
    readonly reason: string,
    /** Whether waiting may help (the server is not up yet), as opposed to a wrong password or name. */
    readonly retryable = false,
  ) {
    super(`${target}: ${reason}`);
    this.name = "DependencyError";
  }
}

/** `postgres host:port/database`, `redis host:port`, `smtp host:port`, `sqlite PATH`: where, without secrets. */
export function describeTarget(url: string): string {
  if (url.startsWith("sqlite://")) return `sqlite ${url.slice("sqlite://".length)}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.split("://")[0] || "unknown";
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  const kind = scheme.startsWith("postgres")
    ? "postgres"
    : scheme.replace(/^(rediss|smtps)$/, (tls) => tls.slice(0, -1));
  const defaults: Record<string, string> = {
    postgres: "5432",
    redis: "6379",
    smtp: scheme === "smtps" ? "465" : "587",
  };
  const host = `${parsed.hostname}:${parsed.port || defaults[kind] || ""}`;
  const database = kind === "postgres" ? decodeURIComponent(parsed.pathname.replace(/^\//, "")) : "";
  return `${kind} ${host}${database ? `/${database}` : ""}`;
}

// Node, pg, Postgres (SQLSTATE), Bun's Redis client and nodemailer codes: the reason, and whether to wait.
const REASONS: Record<string, [string, boolean]> = {
  ECONNREFUSED: ["connection refused", true],
  ECONNRESET: ["connection reset", true],
  ETIMEDOUT: ["timed out", true],
  ETIMEOUT: ["timed out", true],
  ENOTFOUND: ["host not found", true],
  EAI_AGAIN: ["host not found (DNS not answering)", true],
  EHOSTUNREACH: ["host unreachable", true],
  ENETUNREACH: ["network unreachable", true],
  ERR_REDIS_CONNECTION_CLOSED: ["connection refused or closed", true],
  ERR_REDIS_CONNECTION_TIMEOUT: ["timed out", true],
  "57P03": ["the database system is starting up", true],
  "57P01": ["the database server is shutting down", true],
  "53300": ["too many connections", true],
  "08006": ["connection lost", true],
  SQLITE_BUSY: ["the database file is locked by another process (busy)", true],
  SQLITE_BUSY_SNAPSHOT: ["the database file is locked by another process (busy)", true],
  SQLITE_BUSY_RECOVERY: ["the database file is locked by another process (busy)", true],
  SQLITE_BUSY_TIMEOUT: ["the database file is locked by another process (busy)", true],
  EAUTH: ["authentication failed (check the user and password in the URL)", false],
};

// Postgres answers these with a message that names the role or the database; it is shown as it is.
const POSTGRES_MESSAGES = new Set(["28P01", "28000", "3D000", "3F000", "42501"]);

function firstLine(text: string): string {
  return text.split("\n")[0].trim();
}

/** Unwrap causes (a failed migration wraps the driver's error) down to the one that carries a code. */
function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const code = (current as { code?: unknown } | null)?.code;
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (typeof code === "string" || cause === undefined || cause === null) return current;
    current = cause;
  }
  return current;
}

// pg's own failures carry no code, only these messages.
const PG_CONNECTION_MESSAGES: [RegExp, string][] = [
  [/Connection terminated/i, "connection lost"],
  [/timeout exceeded when trying to connect/i, "timed out"],
  [/Client has encountered a connection error/i, "connection lost"],
];

// Redis answers these while it cannot serve for now (loading its data, a failover, a long script, out of
// memory): an outage like a refused connection. Any other server error (a wrong type, a script's bug) is
// a reply, not an outage.
const REDIS_UNAVAILABLE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|OOM)\b/;

/** The one-line reason of a failure to reach or use a dependency, and whether waiting may help. */
export function describeFailure(error: unknown): { reason: string; retryable: boolean } {
  const cause = rootCause(error);
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? firstLine(cause.message) : firstLine(String(cause));
  if (typeof code === "string") {
    if (POSTGRES_MESSAGES.has(code)) return { reason: message, retryable: false };
    const known = REASONS[code];
    if (known) return { reason: known[0], retryable: known[1] };
    // nodemailer wraps the socket's code: ESOCKET / ECONNECTION with "connect ECONNREFUSED …".
    const inner = /\b(E[A-Z_]+)\b/.exec(message)?.[1];
    if (inner && REASONS[inner]) return { reason: REASONS[inner][0], retryable: REASONS[inner][1] };
  }
  if (code === "ERR_REDIS_SERVER_ERROR" && REDIS_UNAVAILABLE_REPLIES.test(message))
    return { reason: message, retryable: true };
  for (const [pattern, reason] of PG_CONNECTION_MESSAGES) if (pattern.test(message)) return { reason, retryable: true };
  if (/timeout|timed out/i.test(message)) return { reason: "timed out", retryable: true };
  return { reason: message || "failed", retryable: false };
}

/** The DependencyError for `url` (a database, Redis or SMTP URL) that failed with `error`. */
export function dependencyError(url: string, error: unknown): DependencyError {
  if (error instanceof DependencyError) return error;
  const { reason, retryable } = describeFailure(error);
  return new DependencyError(describeTarget(url), reason, retryable);
}

/** Whether an error is a dependency's (a driver's connection or server error), not a bug of authd. */
export function isConnectionFailure(error: unknown): boolean {
  const cause = rootCause(error);
  if (cause instanceof Error && PG_CONNECTION_MESSAGES.some(([pattern]) => pattern.test(cause.message))) return true;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code in REASONS || POSTGRES_MESSAGES.has(code) || code.startsWith("ERR_REDIS"));
}

/** Whether a failure is Redis's (Bun's client codes) rather than the database's. */
export function isRedisFailure(error: unknown): boolean {
  const code = (rootCause(error) as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_REDIS");
}

/**
 * Whether a request failed because a dependency is down for now (refused, lost, timed out, busy, starting
 * up): the answer is 503 with Retry-After, so clients and proxies try again. A misconfiguration (a wrong
 * password) and a bug are not outages: waiting cannot cure them.
 */
export function isOutage(error: unknown): boolean {
  return isConnectionFailure(error) && describeFailure(error).retryable;
}
