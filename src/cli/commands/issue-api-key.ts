import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { describeRate, parseDuration, parseRate } from "../../durations.ts";
import { isAuthError } from "../../errors.ts";
import type { CreatedApiKey } from "../../services/api-keys/api-keys.ts";
import { issueApiKeyAsOperator, type OperatorApiKeyOptions } from "../../services/operator-actions.ts";
import { formatFields, writeLines } from "../format.ts";
import { createCommand, parseFlags, printJSON, resolveUserId, UserError, withContext } from "../shared.ts";

const PermissionsSchema = z.record(z.string(), z.array(z.string()));

/** A JSON flag value checked against a schema; `example` says what is expected when it is not. */
const jsonFlag = <T extends z.ZodType>(schema: T, example: string) =>
  z
    .string()
    .optional()
    .transform((text, issue): z.output<T> | undefined => {
      if (text === undefined) return undefined;
      try {
        const parsed = schema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
      } catch {}
      issue.addIssue({ code: "custom", message: `expected JSON like ${example}` });
      return z.NEVER;
    });

function badRate(issue: z.core.$RefinementCtx): never {
  issue.addIssue({ code: "custom", message: "expected N/PERIOD, e.g. 1000/1h, 60/1m or 10000/1d" });
  return z.NEVER;
}

const rateFlag = z
  .string()
  .optional()
  .transform((text, issue) => (text === undefined ? undefined : (parseRate(text) ?? badRate(issue))));

const IssueFlags = z.object({
  user: z.string().min(1, "required"),
  name: z.string().optional(),
  prefix: z.string().optional(),
  expiresIn: z
    .string()
    .optional()
    .transform((text, issue) => {
      if (text === undefined) return undefined;
      const ms = parseDuration(text, "s");
      if (ms !== null && ms >= 1000) return Math.round(ms / 1000);
      issue.addIssue({ code: "custom", message: "expected seconds (2592000) or a duration (30d, 12h)" });
      return z.NEVER;
    }),
  remaining: z.coerce.number({ error: "expected a whole number" }).int("expected a whole number").min(0).optional(),
  // --no-rate-limit: false; --rate-limit N/PERIOD: the text; neither: unset.
  rateLimit: z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((value, issue) => {
      if (value === false) return false;
      if (value === true || value === undefined) return undefined;
      return parseRate(value) ?? badRate(issue);
    }),
  refill: rateFlag,
  permissions: jsonFlag(PermissionsSchema, '{"files":["read","write"]}'),
  metadata: jsonFlag(z.record(z.string(), z.unknown()), '{"team":"billing"}'),
  json: z.boolean().optional(),
  config: z.string().optional(),
});

export interface IssueApiKeyInput extends OperatorApiKeyOptions {
  userIdOrEmail: string;
}

/** Issue a key for the user named by id or email, as the terminal UI does (operator-actions.ts). */
export async function issueApiKey(ctx: AuthContext, input: IssueApiKeyInput): Promise<CreatedApiKey> {
  const { userIdOrEmail, ...options } = input;
  const userId = await resolveUserId(ctx, userIdOrEmail);
  try {
    return await issueApiKeyAsOperator(ctx, userId, options);
  } catch (error) {
    if (isAuthError(error) && error.key === "METADATA_DISABLED")
      throw new UserError("--metadata: API-key metadata is off; set AUTH_API_KEY_METADATA=on (apiKey.enableMetadata)");
    throw error;
  }
}

/** What limits the key has, in words (the default rate limit has surprised operators before). */
function describeLimits(key: CreatedApiKey): string[] {
  const rate =
    key.rateLimitEnabled && key.rateLimitMax && key.rateLimitTimeWindow
      ? `${describeRate(key.rateLimitMax, key.rateLimitTimeWindow)} (change with --rate-limit N/PERIOD or --no-rate-limit)`
      : "none";
  const refill =
    key.refillAmount && key.refillInterval ? `, refilled by ${describeRate(key.refillAmount, key.refillInterval)}` : "";
  return [
    `rate limit: ${rate}`,
    `uses left: ${key.remaining === null ? "unlimited" : `${key.remaining}${refill}`}`,
    `expires: ${key.expiresAt ?? "never"}`,
  ];
}

export const issueApiKeyCommand = createCommand("issue-api-key", "create an API key for a user and print it once")
  .requiredOption("-u, --user <id-or-email>", "the key's owner")
  .option("--name <name>", "a name for the key")
  .option("--prefix <prefix>", "text the key starts with, e.g. live_")
  .option("--expires-in <seconds>", "lifetime in seconds or as 30d / 12h (default: apiKey.keyExpiration, none)")
  .option(
    "--rate-limit <N/PERIOD>",
    "at most N verifications per PERIOD, e.g. 1000/1h (default: apiKey.rateLimit, 10/1d)",
  )
  .option("--no-rate-limit", "no per-key rate limit")
  .option("--remaining <n>", "how many uses the key has in all (default: unlimited)")
  .option("--refill <N/PERIOD>", "give the key N uses back every PERIOD, e.g. 1000/1d (with --remaining)")
  .option("--permissions <json>", 'permissions as JSON, e.g. {"files":["read"]}')
  .option("--metadata <json>", 'metadata as a JSON object, e.g. {"team":"billing"} (needs AUTH_API_KEY_METADATA=on)')
  .option("--json", "print only JSON (the key record plus key)")
  .action(async (raw) => {
    const flags = parseFlags(IssueFlags, raw);
    await withContext(flags, async (ctx) => {
      const created = await issueApiKey(ctx, {
        userIdOrEmail: flags.user,
        name: flags.name,
        prefix: flags.prefix,
        expiresInSeconds: flags.expiresIn,
        remaining: flags.remaining,
        permissions: flags.permissions,
        metadata: flags.metadata,
        rateLimit:
          flags.rateLimit === false
            ? false
            : flags.rateLimit && { max: flags.rateLimit.count, windowMs: flags.rateLimit.periodMs },
        refill: flags.refill && { amount: flags.refill.count, intervalMs: flags.refill.periodMs },
      });
      if (flags.json) return printJSON(created);
      const { key, ...record } = created;
      writeLines(
        key,
        "",
        "This is the only time the key is shown; store it now.",
        ...describeLimits(created),
        "",
        ...formatFields(record).map((line) => `  ${line}`),
      );
    });
  });
