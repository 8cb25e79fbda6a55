import { Command } from "commander";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { OWNER_BANNED_MARKER } from "../../services/api-keys/api-keys.ts";
import { describeUser, type UserOverview } from "../../services/user-overview.ts";
import { formatFields, writeLines } from "../format.ts";
import { createCommand, parseFlags, printJSON, UserError, withContext } from "../shared.ts";
import {
  banCommand,
  deleteCommand,
  resetTwoFactorCommand,
  setPasswordCommand,
  setRoleCommand,
  unbanCommand,
} from "./user-actions.ts";
import { passkeysCommand, removePasskeyCommand } from "./user-passkeys.ts";
import { usersListCommand } from "./users-list.ts";

const ShowFlags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

export async function requireUserOverview(ctx: AuthContext, idOrEmail: string): Promise<UserOverview> {
  const overview = await describeUser(ctx, idOrEmail);
  if (!overview) throw new UserError(`no user with id or email ${idOrEmail}`);
  return overview;
}

const usersShow = createCommand(
  "show",
  "show one user with sessions, linked accounts, organizations, API keys and passkeys",
)
  .argument("<id-or-email>", "the user's id or email")
  .option("--json", "print only JSON")
  .action(async (idOrEmail: string, raw) => {
    const flags = parseFlags(ShowFlags, raw);
    await withContext(flags, async (ctx) => {
      const overview = await requireUserOverview(ctx, idOrEmail);
      if (flags.json) return printJSON(overview);
      writeLines(
        ...formatFields(overview.user),
        "",
        `sessions (${overview.sessions.length} active)`,
        ...overview.sessions.map(
          (s) => `  ${s.id}  expires ${s.expiresAt}  ${s.ipAddress || "-"}  ${s.userAgent || "-"}`,
        ),
        `linked accounts (${overview.accounts.length})`,
        ...overview.accounts.map((a) => `  ${a.providerId}  ${a.accountId}`),
        `organizations (${overview.organizations.length})`,
        ...overview.organizations.map((o) => `  ${o.slug}  ${o.name}  role ${o.role}`),
        `api keys (${overview.apiKeys.length})${overview.apiKeys.some((k) => k.ownerBanned) ? ` · ${OWNER_BANNED_MARKER}` : ""}`,
        ...overview.apiKeys.map(
          (k) =>
            `  ${k.id}  ${k.name ?? "-"}  ${k.start ?? ""}…  ${k.enabled ? "enabled" : "disabled"}  expires ${k.expiresAt ?? "never"}`,
        ),
        `passkeys (${overview.passkeys.length})`,
        ...overview.passkeys.map((p) => `  ${p.id}  ${p.name ?? "-"}  ${p.deviceType}  created ${p.createdAt ?? "-"}`),
      );
    });
  });

export const usersCommand = new Command("users")
  .description("list, inspect and manage users")
  .addCommand(usersListCommand)
  .addCommand(usersShow)
  .addCommand(banCommand)
  .addCommand(unbanCommand)
  .addCommand(setRoleCommand)
  .addCommand(setPasswordCommand)
  .addCommand(resetTwoFactorCommand)
  .addCommand(deleteCommand)
  .addCommand(passkeysCommand)
  .addCommand(removePasskeyCommand);
