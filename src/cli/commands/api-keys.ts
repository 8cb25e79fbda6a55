import { Command } from "commander";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { OWNER_BANNED_MARKER } from "../../services/api-keys/api-keys.ts";
import { listApiKeyPage } from "../../services/directory.ts";
import { revokeApiKeyById } from "../../services/operator-actions.ts";
import { formatTable, writeLines } from "../format.ts";
import {
  createCommand,
  PageFlags,
  parseFlags,
  printJSON,
  resolveUserId,
  UserError,
  withContext,
  withPageOptions,
} from "../shared.ts";

const ListFlags = PageFlags.extend({
  user: z.string().optional(),
});

/** Delete a key by id, whoever owns it. */
export async function revokeApiKey(ctx: AuthContext, keyId: string): Promise<void> {
  if (!(await revokeApiKeyById(ctx, keyId))) throw new UserError(`no API key with id ${keyId}`);
}

const apiKeysList = withPageOptions(createCommand("list", "list API keys (never the keys themselves), newest first"))
  .option("-u, --user <id-or-email>", "only this user's keys")
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(ListFlags, raw);
    await withContext(flags, async (ctx) => {
      const userId = flags.user ? await resolveUserId(ctx, flags.user) : undefined;
      const { items: keys } = await listApiKeyPage(ctx, { userId, limit: flags.limit, offset: flags.offset });
      if (flags.json) return printJSON(keys);
      writeLines(
        formatTable(keys, [
          { header: "id", value: (k) => k.id },
          { header: "user", value: (k) => k.userEmail },
          { header: "name", value: (k) => k.name },
          { header: "start", value: (k) => (k.start ? `${k.start}…` : null) },
          { header: "enabled", value: (k) => k.enabled },
          { header: "remaining", value: (k) => k.remaining },
          { header: "expires", value: (k) => k.expiresAt ?? "never" },
          { header: "owner", value: (k) => (k.ownerBanned ? OWNER_BANNED_MARKER : "active") },
        ]),
      );
    });
  });

const RevokeFlags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

const apiKeysRevoke = createCommand("revoke", "delete an API key by id")
  .argument("<key-id>", "the key's id (see api-keys list)")
  .option("--json", "print only JSON")
  .action(async (keyId: string, raw) => {
    const flags = parseFlags(RevokeFlags, raw);
    await withContext(flags, async (ctx) => {
      await revokeApiKey(ctx, keyId);
      if (flags.json) printJSON({ revoked: keyId });
      else writeLines(`revoked API key ${keyId}`);
    });
  });

export const apiKeysCommand = new Command("api-keys")
  .description("list and revoke API keys")
  .addCommand(apiKeysList)
  .addCommand(apiKeysRevoke);
