// The AUTH_* environment variables: which config field each sets and how its text is read (load.ts layers
// them over the config file). Exported for the README's generated table and the unknown-variable warning.

type Kind = "string" | "int" | "on-off" | "list";
export interface EnvBinding {
  env: string;
  path: string[];
  kind: Kind;
  min?: number;
  max?: number;
}

const binding = (env: string, path: string, kind: Kind = "string", min?: number, max?: number): EnvBinding => ({
  env,
  path: path.split("."),
  kind,
  min,
  max,
});

/** Environment variables and the config fields they set. Exported for the README's generated table. */
export const ENV_BINDINGS: EnvBinding[] = [
  binding("AUTH_HOST", "host"),
  binding("PORT", "port", "int", 1, 65535),
  binding("AUTH_PORT", "port", "int", 1, 65535),
  binding("AUTH_BASE_URL", "baseURL"),
  binding("AUTH_BASE_PATH", "basePath"),
  binding("AUTH_APP_URL", "appURL"),
  binding("AUTH_SECRET", "secret"),
  binding("AUTH_SECRET_PREVIOUS", "previousSecrets", "list"),
  binding("AUTH_DATABASE_URL", "databaseURL"),
  binding("AUTH_DATABASE_POOL_SIZE", "databasePoolSize", "int", 1, 1000),
  binding("AUTH_REDIS_URL", "redisURL"),
  binding("AUTH_REDIS_KEY_PREFIX", "redisKeyPrefix"),
  binding("AUTH_REDIS_TIMEOUT_MS", "redisTimeoutMs", "int", 10, 60_000),
  binding("AUTH_SMTP_URL", "smtpURL"),
  binding("AUTH_MAIL_FROM", "mailFrom"),
  binding("AUTH_MAIL_TEMPLATES", "mailTemplates"),
  binding("AUTH_DEV_OUTBOX", "devOutbox"),
  binding("AUTH_SERVER_TOKEN", "serverToken"),
  binding("AUTH_APP_NAME", "appName"),
  binding("AUTH_TWO_FACTOR", "twoFactor.enabled", "on-off"),
  binding("AUTH_TRUSTED_ORIGINS", "trustedOrigins", "list"),
  binding("AUTH_TRUSTED_PROXIES", "trustedProxies", "list"),
  binding("AUTH_TRUSTED_PROXY_HEADERS", "trustedProxyHeaders", "list"),
  binding("AUTH_SESSION_COOKIE_CACHE", "session.cookieCache.enabled", "on-off"),
  binding("AUTH_SESSION_MEMORY_CACHE", "session.memoryCache.enabled", "on-off"),
  binding("AUTH_RATE_LIMIT", "rateLimit.enabled", "on-off"),
  binding("AUTH_RATE_LIMIT_STORAGE", "rateLimit.storage"),
  binding("AUTH_ACCOUNT_THROTTLE", "accountThrottle.enabled", "on-off"),
  binding("AUTH_REQUIRE_EMAIL_VERIFICATION", "emailAndPassword.requireEmailVerification", "on-off"),
  binding("AUTH_SEND_VERIFICATION_ON_SIGN_UP", "emailVerification.sendOnSignUp", "on-off"),
  binding("AUTH_CHANGE_EMAIL", "changeEmail.enabled", "on-off"),
  binding("AUTH_DELETE_USER", "deleteUser.enabled", "on-off"),
  binding("AUTH_DELETE_USER_VERIFICATION", "deleteUser.requireVerification", "on-off"),
  binding("AUTH_TEAMS", "organization.teams.enabled", "on-off"),
  binding("AUTH_MAGIC_LINK", "magicLink.enabled", "on-off"),
  binding("AUTH_EMAIL_OTP", "emailOTP.enabled", "on-off"),
  binding("AUTH_API_KEY_METADATA", "apiKey.enableMetadata", "on-off"),
  binding("AUTH_API_KEY_MEMORY_CACHE", "apiKey.memoryCache", "on-off"),
  binding("AUTH_PASSKEY", "passkey.enabled", "on-off"),
  binding("AUTH_PASSKEY_RP_ID", "passkey.rpID"),
  binding("AUTH_PASSKEY_ORIGIN", "passkey.origin", "list"),
  binding("AUTH_JWT", "jwt.enabled", "on-off"),
  binding("AUTH_JWT_ALGORITHM", "jwt.algorithm"),
  binding("AUTH_JWT_ISSUER", "jwt.issuer"),
  binding("AUTH_JWT_AUDIENCE", "jwt.audience", "list"),
  binding("AUTH_JWT_EXPIRES_IN", "jwt.expiresIn", "int", 10, 31_536_000),
  binding("AUTH_BEARER", "bearer.enabled", "on-off"),
  binding("AUTH_PAGES", "pages.enabled", "on-off"),
  binding("AUTH_CONSOLE", "console.enabled", "on-off"),
  binding("AUTH_PAGES_BASE_PATH", "pages.basePath"),
  binding("AUTH_DEFAULT_LANGUAGE", "pages.defaultLanguage"),
  binding("AUTH_FORWARD_AUTH", "forwardAuth.enabled", "on-off"),
  binding("AUTH_OIDC_PROVIDER", "oidcProvider.enabled", "on-off"),
  binding("AUTH_OIDC_ISSUER", "oidcProvider.issuer"),
  binding("AUTH_FORWARD_AUTH_SIGN_IN_URL", "forwardAuth.signInURL"),
  binding("AUTH_API_REFERENCE", "apiReference.enabled", "on-off"),
  binding("AUTH_METRICS", "metrics.enabled", "on-off"),
  binding("AUTH_METRICS_ADDRESS", "metrics.address"),
  binding("AUTH_AUDIT_RETENTION", "audit.retentionDays", "int", 1),
  binding("AUTH_WEBHOOKS", "webhooks.enabled", "on-off"),
  binding("AUTH_WEBHOOK_ALLOWED_PRIVATE", "webhooks.allowedPrivateDestinations", "list"),
  binding("AUTH_WEBHOOK_TIMEOUT_MS", "webhooks.timeoutMs", "int", 100),
  binding("AUTH_WEBHOOK_LOG_RETENTION", "webhooks.logRetention"),
  binding("AUTH_LOG_LEVEL", "logLevel"),
  binding("AUTH_LOG_FORMAT", "logFormat"),
  binding("AUTH_STARTUP_TIMEOUT", "startupTimeoutSeconds", "int", 0, 3600),
  binding("AUTH_API_KEY_USAGE_WRITES", "apiKey.usageWrites"),
];

export const SOCIAL_ENV = /^AUTH_SOCIAL_([A-Z0-9_]+?)_(CLIENT_ID|CLIENT_SECRET|ISSUER|TRUSTED)$/;
const SOCIAL_FIELDS: Record<string, { field: string; kind: Kind }> = {
  CLIENT_ID: { field: "clientId", kind: "string" },
  CLIENT_SECRET: { field: "clientSecret", kind: "string" },
  ISSUER: { field: "issuer", kind: "string" },
  TRUSTED: { field: "trusted", kind: "on-off" },
};
export const SOCIAL_SUFFIXES = Object.keys(SOCIAL_FIELDS);

export type Tree = Record<string, unknown>;

export function setPath(tree: Tree, path: string[], value: unknown): void {
  let node = tree;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Tree;
  }
  node[path[path.length - 1]] = value;
}

function parseEnvValue(
  raw: string,
  b: { env: string; kind: Kind; min?: number; max?: number },
  problems: string[],
): unknown {
  const value = raw.trim();
  if (b.kind === "int") {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < (b.min ?? -Infinity) || n > (b.max ?? Infinity)) {
      problems.push(`${b.env}: expected an integer between ${b.min} and ${b.max}`);
      return undefined;
    }
    return n;
  }
  if (b.kind === "on-off") {
    const lowered = value.toLowerCase();
    if (["on", "true", "1", "yes"].includes(lowered)) return true;
    if (["off", "false", "0", "no"].includes(lowered)) return false;
    problems.push(`${b.env}: expected on or off`);
    return undefined;
  }
  if (b.kind === "list")
    return value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  return value;
}

/**
 * The configuration the AUTH_* variables set, as a tree to layer over the file's. A malformed value is a
 * problem naming its variable; `sources` learns which variable set each key, for the schema's messages.
 */
export function envTree(
  env: Record<string, string | undefined>,
  problems: string[],
  sources: Map<string, string>,
): Tree {
  const fromEnv: Tree = {};
  for (const b of ENV_BINDINGS) {
    const raw = env[b.env];
    if (raw === undefined || raw === "") continue;
    const value = parseEnvValue(raw, b, problems);
    if (value === undefined) continue;
    setPath(fromEnv, b.path, value);
    sources.set(b.path.join("."), b.env);
  }
  for (const [name, raw] of Object.entries(env)) {
    const match = SOCIAL_ENV.exec(name);
    if (!match || raw === undefined || raw === "") continue;
    const id = match[1].toLowerCase();
    const spec = SOCIAL_FIELDS[match[2]];
    const value = parseEnvValue(raw, { env: name, kind: spec.kind }, problems);
    if (value === undefined) continue;
    setPath(fromEnv, ["social", id, spec.field], value);
    sources.set(`social.${id}.${spec.field}`, name);
  }
  return fromEnv;
}
