import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { type ApiKeyPermissions, type CreatedApiKey, createApiKey } from "../../services/api-keys.ts";
import { CLI_SOURCE } from "../../services/security-events.ts";
import { formatFields, writeLines } from "../format.ts";
import { createCommand, parseFlags, printJSON, resolveUserId, UserError, withContext } from "../shared.ts";

const PermissionsSchema = z.record(z.string(), z.array(z.string()));

const IssueFlags = z.object({
  user: z.string().min(1, "required"),
  name: z.string().optional(),
  prefix: z.string().optional(),
  expiresIn: z.coerce.number().int().positive("expected seconds greater than 0").optional(),
  remaining: z.coerce.number().int().min(0).optional(),
  permissions: z
    .string()
    .optional()
    .transform((text, issue) => {
      if (text === undefined) return undefined;
      try {
        const parsed = PermissionsSchema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
      } catch {}
      issue.addIssue({ code: "custom", message: 'expected JSON like {"files":["read","write"]}' });
      return z.NEVER;
    }),
  json: z.boolean().optional(),
  config: z.string().optional(),
});

export interface IssueApiKeyInput {
  userIdOrEmail: string;
  name?: string;
  prefix?: string;
  expiresIn?: number;
  remaining?: number;
  permissions?: ApiKeyPermissions;
}

/** Issue a key as the server would (server-only fields allowed), under the same rules as the API. */
export async function issueApiKey(ctx: AuthContext, input: IssueApiKeyInput): Promise<CreatedApiKey> {
  const userId = await resolveUserId(ctx, input.userIdOrEmail);
  const { userIdOrEmail: _ignored, ...fields } = input;
  return createApiKey(ctx, { userId, ...fields }, { isServer: true }, CLI_SOURCE);
}

export const issueApiKeyCommand = createCommand("issue-api-key", "create an API key for a user and print it once")
  .requiredOption("-u, --user <id-or-email>", "the key's owner")
  .option("--name <name>", "a name for the key")
  .option("--prefix <prefix>", "text the key starts with, e.g. live_")
  .option("--expires-in <seconds>", "lifetime in seconds (default: the configured one, none unless set)")
  .option("--remaining <n>", "how many uses the key has")
  .option("--permissions <json>", 'permissions as JSON, e.g. {"files":["read"]}')
  .option("--json", "print only JSON (the key record plus key)")
  .action(async (raw) => {
    const flags = parseFlags(IssueFlags, raw);
    if (!flags.user) throw new UserError("--user is required", 2);
    await withContext(flags, async (ctx) => {
      const created = await issueApiKey(ctx, {
        userIdOrEmail: flags.user,
        name: flags.name,
        prefix: flags.prefix,
        expiresIn: flags.expiresIn,
        remaining: flags.remaining,
        permissions: flags.permissions,
      });
      if (flags.json) return printJSON(created);
      const { key, ...record } = created;
      writeLines(
        key,
        "",
        "This is the only time the key is shown; store it now.",
        ...formatFields(record).map((line) => `  ${line}`),
      );
    });
  });
