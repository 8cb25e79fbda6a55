import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { parseEmail } from "../../services/email-address.ts";
import { CLI_SOURCE } from "../../services/security-events.ts";
import { createUser, toUserWire, type UserWire } from "../../services/users.ts";
import { formatFields, writeLines } from "../format.ts";
import { promptHidden, readStdin } from "../prompt.ts";
import { assertPasswordPolicy, createCommand, parseFlags, printJSON, UserError, withContext } from "../shared.ts";

const CreateUserFlags = z.object({
  email: z.string().trim().min(1, "required"),
  name: z.string().trim().min(1, "required"),
  password: z.string().optional(),
  passwordStdin: z.boolean().optional(),
  role: z.string().trim().min(1).optional(),
  verified: z.boolean().optional(),
  json: z.boolean().optional(),
  config: z.string().optional(),
});

export interface CreateUserInput {
  email: string;
  name: string;
  password: string;
  role?: string;
  verified?: boolean;
}

/** Create a user with a credential account, under the same rules as sign-up (email format, password length). */
export async function createUserWithPassword(ctx: AuthContext, input: CreateUserInput): Promise<UserWire> {
  const email = parseEmail(input.email);
  if (email === null) throw new UserError(`invalid email: ${input.email}`);
  assertPasswordPolicy(ctx, input.password);
  const row = await createUser(ctx, {
    email,
    name: input.name,
    password: input.password,
    role: input.role,
    emailVerified: input.verified ?? false,
    event: (user) => ({ type: "user_created", outcome: "success", userId: user.id, source: CLI_SOURCE }),
  });
  return toUserWire(ctx, row);
}

/** The password from --password, --password-stdin, or (on a terminal) a hidden prompt asked twice. */
export async function resolvePassword(flags: { password?: string; passwordStdin?: boolean }): Promise<string> {
  if (flags.password !== undefined && flags.passwordStdin)
    throw new UserError("use either --password or --password-stdin, not both", 2);
  if (flags.password !== undefined) return flags.password;
  if (flags.passwordStdin) return readStdin();
  if (!process.stdin.isTTY)
    throw new UserError("no password: pass --password, --password-stdin, or run on a terminal to be asked", 2);
  const first = await promptHidden("Password: ");
  const again = await promptHidden("Repeat password: ");
  if (first !== again) throw new UserError("the passwords do not match");
  return first;
}

export const createUserCommand = createCommand("create-user", "create a user with a password (credential account)")
  .requiredOption("--email <email>", "email address")
  .requiredOption("--name <name>", "display name")
  .option("--password <password>", "password (visible in the process list; prefer --password-stdin)")
  .option("--password-stdin", "read the password from standard input")
  .option("--role <role>", "role (admin plugin), e.g. admin")
  .option("--verified", "mark the email as verified")
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(CreateUserFlags, raw);
    const password = await resolvePassword(flags);
    await withContext(flags, async (ctx) => {
      const user = await createUserWithPassword(ctx, {
        email: flags.email,
        name: flags.name,
        password,
        role: flags.role,
        verified: flags.verified,
      });
      if (flags.json) printJSON(user);
      else writeLines(`created user ${user.email}`, ...formatFields(user).map((l) => `  ${l}`));
    });
  });
