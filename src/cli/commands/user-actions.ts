import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { banUser, setUserPassword, setUserRole, unbanUser } from "../../services/admin.ts";
import { deleteUserWithSessions } from "../../services/operator-actions.ts";
import { CLI_SOURCE } from "../../services/security-events.ts";
import { resetTwoFactor } from "../../services/two-factor/enrollment.ts";
import { toUserWire, type UserWire } from "../../services/users.ts";
import { writeLines } from "../format.ts";
import { promptConfirm } from "../prompt.ts";
import {
  assertPasswordPolicy,
  createCommand,
  parseFlags,
  printJSON,
  resolveUserId,
  UserError,
  withContext,
} from "../shared.ts";
import { resolvePassword } from "./create-user.ts";

// What an operator does to one user from a shell: the admin service's rules, no copy of them here.

const Common = z.object({ json: z.boolean().optional(), config: z.string().optional() });

async function actOnUser(
  idOrEmail: string,
  flags: z.infer<typeof Common>,
  work: (ctx: AuthContext, userId: string) => Promise<UserWire | Record<string, unknown>>,
  describe: (result: UserWire | Record<string, unknown>) => string,
): Promise<void> {
  await withContext(flags, async (ctx) => {
    const result = await work(ctx, await resolveUserId(ctx, idOrEmail));
    if (flags.json) printJSON(result);
    else writeLines(describe(result));
  });
}

const BanFlags = Common.extend({
  reason: z.string().optional(),
  expiresIn: z.coerce.number().int().positive("expected seconds greater than 0").optional(),
});

export const banCommand = createCommand("ban", "ban a user and end their sessions")
  .argument("<id-or-email>", "the user")
  .option("--reason <text>", "shown to the user (default: the configured reason)")
  .option("--expires-in <seconds>", "lift the ban after this long (default: never)")
  .option("--json", "print only JSON (the user)")
  .action(async (idOrEmail: string, raw) => {
    const flags = parseFlags(BanFlags, raw);
    await actOnUser(
      idOrEmail,
      flags,
      async (ctx, userId) =>
        toUserWire(ctx, await banUser(ctx, userId, { reason: flags.reason, expiresIn: flags.expiresIn }, CLI_SOURCE)),
      (u) => `banned ${u.email}`,
    );
  });

export const unbanCommand = createCommand("unban", "lift a user's ban")
  .argument("<id-or-email>", "the user")
  .option("--json", "print only JSON (the user)")
  .action(async (idOrEmail: string, raw) => {
    const flags = parseFlags(Common, raw);
    await actOnUser(
      idOrEmail,
      flags,
      async (ctx, userId) => toUserWire(ctx, await unbanUser(ctx, userId, CLI_SOURCE)),
      (u) => `unbanned ${u.email}`,
    );
  });

export const setRoleCommand = createCommand("set-role", "set a user's role (several: comma-separated)")
  .argument("<id-or-email>", "the user")
  .argument("<role>", "e.g. admin, or admin,support")
  .option("--json", "print only JSON (the user)")
  .action(async (idOrEmail: string, role: string, raw) => {
    const flags = parseFlags(Common, raw);
    await actOnUser(
      idOrEmail,
      flags,
      async (ctx, userId) => toUserWire(ctx, await setUserRole(ctx, userId, role, CLI_SOURCE)),
      (u) => `${u.email} now has role ${u.role}`,
    );
  });

const PasswordFlags = Common.extend({ password: z.string().optional(), passwordStdin: z.boolean().optional() });

export const setPasswordCommand = createCommand(
  "set-password",
  "set a user's password (creates the credential account if needed)",
)
  .argument("<id-or-email>", "the user")
  .option("--password <password>", "the new password (visible in the process list; prefer --password-stdin)")
  .option("--password-stdin", "read the new password from standard input")
  .option("--json", "print only JSON")
  .action(async (idOrEmail: string, raw) => {
    const flags = parseFlags(PasswordFlags, raw);
    const password = await resolvePassword(flags);
    await actOnUser(
      idOrEmail,
      flags,
      async (ctx, userId) => {
        assertPasswordPolicy(ctx, password);
        await setUserPassword(ctx, userId, password, CLI_SOURCE);
        return { userId, status: true };
      },
      () => "password set",
    );
  });

const DeleteFlags = Common.extend({ yes: z.boolean().optional() });

export const deleteCommand = createCommand(
  "delete",
  "delete a user with their sessions, accounts, memberships and API keys",
)
  .argument("<id-or-email>", "the user")
  .option("-y, --yes", "do not ask for confirmation")
  .option("--json", "print only JSON")
  .action(async (idOrEmail: string, raw) => {
    const flags = parseFlags(DeleteFlags, raw);
    if (!flags.yes) {
      if (!process.stdin.isTTY)
        throw new UserError("deleting a user cannot be undone: confirm with --yes when not on a terminal", 2);
      if (!(await promptConfirm(`Delete ${idOrEmail} and everything that belongs to them?`)))
        throw new UserError("cancelled, nothing deleted");
    }
    await actOnUser(
      idOrEmail,
      flags,
      async (ctx, userId) => {
        await deleteUserWithSessions(ctx, userId);
        return { deleted: userId };
      },
      () => `deleted ${idOrEmail}`,
    );
  });

const ResetTwoFactorFlags = Common.extend({ user: z.string().min(1, "expected a user id or email") });

export const resetTwoFactorCommand = createCommand(
  "reset-2fa",
  "remove a user's second factor (a lost phone): secret, backup codes and trusted browsers",
)
  .requiredOption("--user <id-or-email>", "the user")
  .option("--json", "print only JSON (the user)")
  .action(async (raw) => {
    const flags = parseFlags(ResetTwoFactorFlags, raw);
    await actOnUser(
      flags.user,
      flags,
      async (ctx, userId) => toUserWire(ctx, await resetTwoFactor(ctx, userId, CLI_SOURCE)),
      (u) => `two-factor removed for ${u.email}; they sign in with their password alone until they enable it again`,
    );
  });
