import { readFileSync } from "node:fs";
import type * as z from "zod";
import { isAddressOrRange } from "../ip-address.ts";
import { envTree, setPath, type Tree } from "./env-bindings.ts";
import { withoutRefusedValues } from "./refused-values.ts";
import { type Config, configSchema } from "./schema.ts";
import { secretProblems } from "./secret-rules.ts";

// Configuration layers, later wins: schema defaults, the JSON config file, AUTH_* environment
// variables, command-line flags. Every problem becomes one line naming where the bad value came from.

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
  }
}

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

function deepMerge(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = out[key];
    const bothObjects = [prev, value].every((v) => typeof v === "object" && v !== null && !Array.isArray(v));
    out[key] = bothObjects ? deepMerge(prev as Tree, value as Tree) : value;
  }
  return out;
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

  const fromEnv = envTree(env, problems, sources);
  tree = deepMerge(tree, fromEnv);

  for (const [key, value] of Object.entries(options.flags ?? {})) {
    if (value === undefined) continue;
    setPath(tree, key.split("."), value);
    sources.set(key, `--${key}`);
  }
  if (options.overrides) tree = deepMerge(tree, options.overrides);

  const result = configSchema().safeParse(tree);
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
