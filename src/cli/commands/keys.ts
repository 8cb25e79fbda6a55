import { Command } from "commander";
import * as z from "zod";
import { listSigningKeys, rotateSigningKey } from "../../services/jwt/keys.ts";
import { formatFields, formatTable, writeLines } from "../format.ts";
import { createCommand, parseFlags, printJSON, withContext } from "../shared.ts";

// The keys that sign authd's JWTs (GET /token, set-auth-jwt): list them, rotate them.

const KeysFlags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

const keysList = createCommand("list", "list the published JWT signing keys (ids and dates, nothing secret)")
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(KeysFlags, raw);
    await withContext(flags, async (ctx) => {
      const keys = await listSigningKeys(ctx);
      if (flags.json) return printJSON(keys);
      writeLines(
        formatTable(keys, [
          { header: "kid", value: (k) => k.id },
          { header: "alg", value: (k) => k.alg },
          { header: "created", value: (k) => k.createdAt },
          { header: "published until", value: (k) => k.expiresAt ?? "current" },
        ]),
      );
    });
  });

const keysRotate = createCommand(
  "rotate",
  "make a new JWT signing key current; the old keys stay in /jwks until their tokens expire",
)
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(KeysFlags, raw);
    await withContext(flags, async (ctx) => {
      const created = await rotateSigningKey(ctx);
      const answer = { ...created, createdAt: new Date(created.createdAt).toISOString() };
      if (flags.json) return printJSON(answer);
      writeLines(
        ...formatFields({ kid: answer.id, alg: answer.alg, created: answer.createdAt }),
        created.retired.length > 0
          ? `retired ${created.retired.join(", ")} (still published until their tokens expire)`
          : "no key was current before",
      );
    });
  });

export const keysCommand = new Command("keys")
  .description("the JWT signing keys: list, rotate")
  .addCommand(keysList)
  .addCommand(keysRotate);
