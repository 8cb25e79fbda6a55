import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { listUserPasskeys, removeUserPasskey } from "../../services/passkeys/operator.ts";
import { CLI_SOURCE } from "../../services/security-events.ts";
import type { Passkey } from "../../wire/passkey.ts";
import { formatTable, writeLines } from "../format.ts";
import { createCommand, parseFlags, printJSON, resolveUserId, withContext } from "../shared.ts";

// A user's passkeys from a shell: `authd users passkeys <user>` and `authd users remove-passkey <user> <id>`.

const Flags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

/** The user's passkeys (`--json`: the wire objects of list-user-passkeys). */
export async function userPasskeys(ctx: AuthContext, idOrEmail: string): Promise<Passkey[]> {
  return listUserPasskeys(ctx, await resolveUserId(ctx, idOrEmail));
}

/** Remove one of the user's passkeys; a passkey that is not theirs is PASSKEY_NOT_FOUND (exit 1). */
export async function removeOnePasskey(ctx: AuthContext, idOrEmail: string, passkeyId: string): Promise<Passkey> {
  return removeUserPasskey(ctx, await resolveUserId(ctx, idOrEmail), passkeyId, CLI_SOURCE);
}

export const passkeysCommand = createCommand("passkeys", "list a user's passkeys")
  .argument("<id-or-email>", "the user")
  .option("--json", "print only JSON (an array of passkeys)")
  .action(async (idOrEmail: string, raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      const passkeys = await userPasskeys(ctx, idOrEmail);
      if (flags.json) return printJSON(passkeys);
      writeLines(
        formatTable(passkeys, [
          { header: "id", value: (p) => p.id },
          { header: "name", value: (p) => p.name },
          { header: "device", value: (p) => p.deviceType },
          { header: "backed up", value: (p) => p.backedUp },
          { header: "transports", value: (p) => p.transports },
          { header: "created", value: (p) => p.createdAt },
        ]),
        `${passkeys.length} passkey(s)`,
      );
    });
  });

export const removePasskeyCommand = createCommand("remove-passkey", "remove one of a user's passkeys")
  .argument("<id-or-email>", "the user")
  .argument("<passkey-id>", "the passkey (see `authd users passkeys`)")
  .option("--json", "print only JSON (the removed passkey)")
  .action(async (idOrEmail: string, passkeyId: string, raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      const removed = await removeOnePasskey(ctx, idOrEmail, passkeyId);
      if (flags.json) return printJSON(removed);
      writeLines(`removed passkey ${removed.name ?? removed.id}`);
    });
  });
