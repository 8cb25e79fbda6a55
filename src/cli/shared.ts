import { Command } from "commander";
import * as z from "zod";
import { ConfigError, loadConfig } from "../config/load.ts";
import { pagesConfigProblems } from "../config/pages-problems.ts";
import type { Config } from "../config/schema.ts";
import { unknownVariables } from "../config/unknown-env.ts";
import { type AuthContext, type CreateContextOptions, createContext } from "../context.ts";
import { registerFeatures } from "../features.ts";
import { createLogger, type Logger } from "../logger.ts";
import { adminRoleProblems } from "../services/admin.ts";
import { findUserIdByIdOrEmail } from "../services/directory.ts";
import { findPasswordLengthProblem } from "../services/passwords.ts";
import { configuredEndpointProblems } from "../services/webhooks/webhooks.ts";

// What every command shares: the --config flag, configuration loading, the context, and exit codes
// (0 success, 1 a failure the user can fix, 2 bad usage or configuration).

export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = "UserError";
  }
}

export interface CommonOptions {
  config?: string;
  json?: boolean;
}

export function loadCommandConfig(
  options: CommonOptions,
  flags: Record<string, unknown> = {},
  defaults: { logLevel?: Config["logLevel"]; refuseWeakSecrets?: boolean } = {},
): Config {
  const env = process.env as Record<string, string | undefined>;
  const overrides = defaults.logLevel && !env.AUTH_LOG_LEVEL ? { logLevel: defaults.logLevel } : undefined;
  try {
    const config = loadConfig({
      env,
      file: options.config,
      flags,
      overrides,
      refuseWeakSecrets: defaults.refuseWeakSecrets,
    });
    const problems = [
      ...configuredEndpointProblems(config),
      ...pagesConfigProblems(config),
      ...adminRoleProblems(config.admin.roles),
    ];
    if (problems.length > 0) throw new ConfigError(problems);
    return config;
  } catch (error) {
    // A refused configuration names the unknown variables too: a misspelt name is often why a value is
    // missing or wrong, and hiding it until the other problems are fixed sends the operator round twice.
    if (error instanceof ConfigError) throw new ConfigError([...error.problems, ...unknownVariables(env)]);
    throw error;
  }
}

/**
 * The operator's mail templates (AUTH_MAIL_TEMPLATES), read and parsed once: `serve` and `config check` refuse
 * a template that does not parse or lacks its link or code as bad configuration (exit 2, a line per file),
 * so authd never sends its own words instead of the operator's without saying so. Loaded only when set.
 */
export async function assertMailTemplates(config: Config): Promise<void> {
  if (!config.mailTemplates) return;
  const { mailTemplateProblems } = await import("../../ui/mail/template-dir.ts");
  const problems = mailTemplateProblems(config.mailTemplates);
  if (problems.length > 0) throw new ConfigError([...problems, ...unknownVariables(process.env)]);
}

export interface CommandContextOptions extends CreateContextOptions {
  /** Where log lines go instead of stderr (the terminal UI hands them to Ink, which prints them above its frame). */
  writeLog?: (line: string) => void;
}

/** Open the context for a command; the logger stays quiet unless asked, so --json output stays clean. */
export async function openCommandContext(config: Config, options: CommandContextOptions = {}): Promise<AuthContext> {
  const { writeLog, ...contextOptions } = options;
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, write: writeLog });
  registerFeatures();
  return createContext(config, { logger, ...contextOptions });
}

/** A warn line per AUTH_* variable authd does not know (a typo would otherwise leave the default in force). */
export function warnUnknownVariables(logger: Logger): void {
  for (const line of unknownVariables(process.env)) logger.warn(line);
}

export async function withContext<T>(
  options: CommonOptions,
  work: (ctx: AuthContext) => Promise<T>,
  contextOptions: CommandContextOptions = {},
): Promise<T> {
  const config = loadCommandConfig(options, {}, { logLevel: "warn" });
  warnUnknownVariables(createLogger({ level: config.logLevel, format: config.logFormat }));
  const ctx = await openCommandContext(config, { checkConnections: "storage", ...contextOptions });
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}

/**
 * The password policy as the operator reads it: the limits named (the HTTP API answers Better Auth's bare
 * "Password too short", which a client maps to its own text).
 */
export function assertPasswordPolicy(ctx: AuthContext, password: string): void {
  const found = findPasswordLengthProblem(ctx, password);
  if (found?.problem === "too-short")
    throw new UserError(`password too short: at least ${found.min} characters (emailAndPassword.minPasswordLength)`);
  if (found?.problem === "too-long")
    throw new UserError(`password too long: at most ${found.max} characters (emailAndPassword.maxPasswordLength)`);
}

/** The id of the user an operator named by id or email; an unknown one is the operator's to fix. */
export async function resolveUserId(ctx: AuthContext, idOrEmail: string): Promise<string> {
  const userId = await findUserIdByIdOrEmail(ctx, idOrEmail);
  if (!userId) throw new UserError(`no user with id or email ${idOrEmail}`);
  return userId;
}

export function printJSON(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A command with the options every command takes. */
export function createCommand(name: string, description: string): Command {
  return new Command(name).description(description).option("-c, --config <file>", "JSON config file (or AUTH_CONFIG)");
}

export { ConfigError };

/** What a flag should have been, in words: "expected a number", never zod's "received NaN". */
function describeFlagIssue(issue: z.core.$ZodIssue): string {
  // A schema's own message (e.g. "expected a whole number") stays; zod's defaults are replaced.
  const generic = /^(Invalid input|Too small|Too big)/.test(issue.message);
  if (!generic) return issue.message;
  if (issue.code === "invalid_type" && issue.expected === "number") return "expected a number";
  if (issue.code === "too_small" && issue.origin === "number") return `expected a number of at least ${issue.minimum}`;
  if (issue.code === "too_big" && issue.origin === "number") return `expected a number of at most ${issue.maximum}`;
  return issue.message;
}

/** Parse a command's flags with its zod schema; a bad flag is bad usage (exit 2), one line per problem. */
export function parseFlags<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const flag = issue.path.length
      ? `--${String(issue.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
      : "flags";
    return `${flag}: ${describeFlagIssue(issue)}`;
  });
  throw new UserError(lines.join("\n"), 2);
}

/** Progress lines only for a person at a terminal: piped or --json output stays clean. */
export function progressReporter(options: CommonOptions): (line: string) => void {
  const interactive = Boolean(process.stderr.isTTY) && !options.json;
  return (line) => {
    if (interactive) process.stderr.write(`${line}\n`);
  };
}

/** Flags every paged listing takes. */
export const PageFlags = z.object({
  limit: z.coerce.number().int().min(1).max(10_000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  json: z.boolean().optional(),
  config: z.string().optional(),
});

/** --limit and --offset on a listing command. */
export function withPageOptions(command: Command): Command {
  return command.option("-n, --limit <n>", "how many", "50").option("--offset <n>", "skip this many", "0");
}
