import { readFileSync } from "node:fs";
import type * as z from "zod";
import { isAddressOrRange } from "../ip-address.ts";
import { withoutRefusedValues } from "./refused-values.ts";
import { type Config, ConfigSchema } from "./schema.ts";
import { secretProblems } from "./secret-rules.ts";

// Configuration layers, later wins: schema defaults, the JSON config file, AUTH_* environment
// variables, command-line flags. Every problem becomes one line naming where the bad value came from.

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
  }
}

type Kind = "string" | "int" | "on-off" | "list";
interface EnvBinding {
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
  binding("AUTH_FORWARD_AUTH", "forwardAuth.enabled", "on-off"),
  binding("AUTH_FORWARD_AUTH_SIGN_IN_URL", "forwardAuth.signInURL"),
  binding("AUTH_API_REFERENCE", "apiReference.enabled", "on-off"),
  binding("AUTH_METRICS", "metrics.enabled", "on-off"),
  binding("AUTH_METRICS_ADDRESS", "metrics.address"),
  binding("AUTH_AUDIT_RETENTION", "audit.retentionDays", "int", 1),
  binding("AUTH_WEBHOOKS", "webhooks.enabled", "on-off"),
  binding("AUTH_WEBHOOK_ALLOWED_PRIVATE", "webhooks.allowedPrivateDestinations", "list"),
  binding("AUTH_WEBHOOK_TIMEOUT_MS", "webhooks.timeoutMs", "int", 100),
  binding("AUTH_LOG_LEVEL", "logLevel"),
  binding("AUTH_LOG_FORMAT", "logFormat"),
  binding("AUTH_STARTUP_TIMEOUT", "startupTimeoutSeconds", "int", 0, 3600),
];

export const SOCIAL_ENV = /^AUTH_SOCIAL_([A-Z0-9_]+?)_(CLIENT_ID|CLIENT_SECRET|ISSUER|TRUSTED)$/;
const SOCIAL_FIELDS: Record<string, { field: string; kind: Kind }> = {
  CLIENT_ID: { field: "clientId", kind: "string" },
  CLIENT_SECRET: { field: "clientSecret", kind: "string" },
  ISSUER: { field: "issuer", kind: "string" },
  TRUSTED: { field: "trusted", kind: "on-off" },
};
export const SOCIAL_SUFFIXES = Object.keys(SOCIAL_FIELDS);

export interface LoadConfigOptions {
  env?: Record<string, string | undefined>;
  /** Path of a JSON config file (the --config flag); AUTH_CONFIG is read when absent. */
  file?: string;
  /** Values from command-line flags, as config paths ("port", "host"). */
  flags?: Record<string, unknown>;
  /** Values layered over everything (tests). */
  overrides?: Record<string, unknown>;
  /** Refuse a published, guessable or shared secret and server token (serve, config check: secret-rules.ts). */
  refuseWeakSecrets?: boolean;
}

type Tree = Record<string, unknown>;

function setPath(tree: Tree, path: string[], value: unknown): void {
  let node = tree;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Tree;
  }
  node[path[path.length - 1]] = value;
}

function deepMerge(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    const bothObjects = [prev, value].every((v) => typeof v === "object" && v !== null && !Array.isArray(v));
    out[key] = bothObjects ? deepMerge(prev as Tree, value as Tree) : value;
  }
  return out;
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

function readConfigFile(file: string, problems: string[]): Tree {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    problems.push(`config file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      problems.push(`config file ${file}: expected a JSON object`);
      return {};
    }
    return parsed as Tree;
  } catch (error) {
    problems.push(`config file ${file}: invalid JSON (${(error as Error).message})`);
    return {};
  }
}

/** Build the effective configuration, or throw ConfigError with one line per problem. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? {};
  const problems: string[] = [];
  const sources = new Map<string, string>();

  const file = options.file ?? env.AUTH_CONFIG;
  let tree: Tree = file ? readConfigFile(file, problems) : {};

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
  tree = deepMerge(tree, fromEnv);

  for (const [key, value] of Object.entries(options.flags ?? {})) {
    if (value === undefined) continue;
    setPath(tree, key.split("."), value);
    sources.set(key, `--${key}`);
  }
  if (options.overrides) tree = deepMerge(tree, options.overrides);

  const result = ConfigSchema.safeParse(tree);
  if (!result.success) problems.push(...result.error.issues.map((issue) => describeIssue(issue, sources)));
  const checkable = result.success ? result.data : withoutRefusedValues(tree, result.error.issues);
  if (checkable) {
    problems.push(...crossFieldProblems(checkable));
    if (options.refuseWeakSecrets) problems.push(...secretProblems(checkable, (key) => sources.get(key) ?? key));
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}

function describeIssue(issue: z.core.$ZodIssue, sources: Map<string, string>): string {
  const path = issue.path.map(String).join(".");
  const label = sources.get(path) ?? (path === "" ? "config" : path);
  if (issue.code === "unrecognized_keys")
    return `${label === "config" ? "config file" : label}: unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
  return `${label}: ${issue.message}`;
}

function crossFieldProblems(config: Config): string[] {
  const problems: string[] = [];
  if (config.emailAndPassword.minPasswordLength > config.emailAndPassword.maxPasswordLength) {
    problems.push("emailAndPassword.minPasswordLength: must not exceed maxPasswordLength");
  }
  if (config.username.minLength > config.username.maxLength)
    problems.push("username.minLength: must not exceed maxLength");
  try {
    new RegExp(config.username.pattern);
  } catch {
    problems.push("username.pattern: not a valid regular expression");
  }
  if (!/^(sqlite:\/\/.+|postgres(ql)?:\/\/.+)$/.test(config.databaseURL)) {
    problems.push("AUTH_DATABASE_URL: expected sqlite://PATH, sqlite://:memory: or postgres://…");
  }
  if (config.smtpURL && !URL.canParse(config.smtpURL))
    problems.push("AUTH_SMTP_URL: not a valid URL (smtp://[user:pass@]host:port or smtps://…)");
  for (const entry of config.trustedProxies) {
    if (!isAddressOrRange(entry))
      problems.push(
        `AUTH_TRUSTED_PROXIES: "${entry}" is not an IPv4/IPv6 address or CIDR range (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)`,
      );
  }
  for (const entry of config.webhooks.allowedPrivateDestinations) {
    if (!isAddressOrRange(entry))
      problems.push(
        `AUTH_WEBHOOK_ALLOWED_PRIVATE: "${entry}" is not an IPv4/IPv6 address or CIDR range (e.g. 127.0.0.1, 10.0.0.0/8)`,
      );
  }
  if (config.webhooks.leaseMs <= config.webhooks.timeoutMs)
    problems.push("webhooks.leaseMs: must exceed webhooks.timeoutMs (a claimed delivery must not be claimed twice)");
  for (const origin of config.trustedOrigins) {
    if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]+$/i.test(origin) && !origin.includes("*")) {
      problems.push(`AUTH_TRUSTED_ORIGINS: "${origin}" is not an origin (scheme://host[:port])`);
    }
  }
  problems.push(...passkeyProblems(config));
  return problems;
}

/** The public origin links are built from. */
export function resolveBaseURL(config: Config): string {
  return (config.baseURL ?? `http://localhost:${config.port}`).replace(/\/+$/, "");
}

/** An explicit relying-party id is a domain (browsers refuse IP addresses); expected origins are origins. */
function passkeyProblems(config: Config): string[] {
  const problems: string[] = [];
  const { rpID, origin } = config.passkey;
  if (rpID !== undefined && (!/^[a-z0-9.-]+$/i.test(rpID) || isAddressOrRange(rpID) || rpID.includes("..")))
    problems.push(`AUTH_PASSKEY_RP_ID: "${rpID}" is not a domain name (browsers refuse IP addresses as an rp id)`);
  for (const entry of origin ?? []) {
    if (!/^https?:\/\/[^/]+\/?$/i.test(entry))
      problems.push(`AUTH_PASSKEY_ORIGIN: "${entry}" is not an origin (http(s)://host[:port])`);
  }
  return problems;
}
