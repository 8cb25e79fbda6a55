import { Command, CommanderError } from "commander";
import { ConfigError } from "../config/load.ts";
import { DependencyError, describeFailure, isConnectionFailure } from "../dependencies.ts";
import { isAuthError } from "../errors.ts";
import { adminCommand } from "./commands/admin.ts";
import { apiKeysCommand } from "./commands/api-keys.ts";
import { auditCommand } from "./commands/audit.ts";
import { configCommand } from "./commands/config.ts";
import { createUserCommand } from "./commands/create-user.ts";
import { healthcheckCommand } from "./commands/healthcheck.ts";
import { issueApiKeyCommand } from "./commands/issue-api-key.ts";
import { keysCommand } from "./commands/keys.ts";
import { migrateCommand } from "./commands/migrate.ts";
import { orgsCommand } from "./commands/orgs.ts";
import { revokeSessionsCommand } from "./commands/revoke-sessions.ts";
import { serveCommand } from "./commands/serve.ts";
import { sessionsCommand } from "./commands/sessions.ts";
import { usersCommand } from "./commands/users.ts";
import { webhooksCommand } from "./commands/webhooks.ts";
import { applyEnvFile } from "./env-file.ts";
import { PromptAborted } from "./prompt.ts";
import { UserError } from "./shared.ts";

export function buildProgram(): Command {
  const program = new Command("authd")
    .description(
      "Self-hosted auth daemon: email/password, usernames, social sign-in, organizations, admin and API keys over Better Auth's wire protocol",
    )
    .version("0.1.0")
    .option("--env-file <path>", "read KEY=VALUE variables from this file first (systemd's EnvironmentFile=)")
    .hook("preAction", (command) => {
      const envFile = command.opts<{ envFile?: string }>().envFile;
      if (envFile) applyEnvFile(envFile);
    })
    .showHelpAfterError()
    .enablePositionalOptions();
  program.addCommand(serveCommand);
  program.addCommand(migrateCommand);
  program.addCommand(healthcheckCommand);
  program.addCommand(createUserCommand);
  program.addCommand(issueApiKeyCommand);
  program.addCommand(revokeSessionsCommand);
  program.addCommand(usersCommand);
  program.addCommand(sessionsCommand);
  program.addCommand(apiKeysCommand);
  program.addCommand(orgsCommand);
  program.addCommand(keysCommand);
  program.addCommand(configCommand);
  program.addCommand(adminCommand);
  program.addCommand(auditCommand);
  program.addCommand(webhooksCommand);
  overrideExits(program);
  return program;
}

/**
 * Commander exits the process itself (code 1) on bad usage in a subcommand unless each command is told to
 * throw instead; main() then answers 2, as the contract says for bad usage.
 */
function overrideExits(command: Command, parents = ""): void {
  const path = `${parents}${command.name()}`;
  command.exitOverride();
  command.showHelpAfterError(`(see \`${path} --help\`)`);
  for (const sub of command.commands) overrideExits(sub, `${path} `);
}

/** Run the CLI; returns the exit code. User-fixable failures are one line on stderr, never a stack. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      )
        return 0;
      return 2;
    }
    if (error instanceof ConfigError) {
      for (const line of error.problems) process.stderr.write(`${line}\n`);
      return 2;
    }
    if (error instanceof DependencyError) {
      process.stderr.write(`authd: ${error.message}\n`);
      return 1;
    }
    if (error instanceof UserError) {
      process.stderr.write(`authd: ${error.message}\n`);
      return error.exitCode;
    }
    // A refusal from a service (duplicate email, password too short …) is the user's to fix.
    if (isAuthError(error) && error.status < 500) {
      process.stderr.write(`authd: ${error.message}\n`);
      return 1;
    }
    if (error instanceof PromptAborted) {
      process.stderr.write("authd: aborted\n");
      return 1;
    }
    if (isConnectionFailure(error)) {
      process.stderr.write(`authd: the database failed: ${describeFailure(error).reason}\n`);
      return 1;
    }
    process.stderr.write(
      `authd: unexpected error (this is a bug, please report it):\n${(error as Error).stack ?? String(error)}\n`,
    );
    return 1;
  }
}
