import { Command, CommanderError } from "commander";
import { ConfigError } from "../config/load.ts";
import { healthcheckCommand } from "./commands/healthcheck.ts";
import { migrateCommand } from "./commands/migrate.ts";
import { serveCommand } from "./commands/serve.ts";
import { UserError } from "./shared.ts";

export function buildProgram(): Command {
  const program = new Command("authd")
    .description("Self-hosted auth daemon: email/password, usernames, social sign-in, organizations, admin and API keys over Better Auth's wire protocol")
    .version("0.1.0")
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(serveCommand);
  program.addCommand(migrateCommand);
  program.addCommand(healthcheckCommand);
  return program;
}

/** Run the CLI; returns the exit code. User-fixable failures are one line on stderr, never a stack. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return 0;
      return 2;
    }
    if (error instanceof ConfigError) {
      for (const line of error.problems) process.stderr.write(`${line}\n`);
      return 2;
    }
    if (error instanceof UserError) {
      process.stderr.write(`authd: ${error.message}\n`);
      return error.exitCode;
    }
    const code = (error as { code?: string }).code;
    if (code === "ECONNREFUSED" || code === "SQLITE_CANTOPEN" || code === "ENOTFOUND" || code === "28P01" || code === "3D000") {
      process.stderr.write(`authd: cannot open the database: ${(error as Error).message}\n`);
      return 1;
    }
    process.stderr.write(`authd: unexpected error (this is a bug, please report it):\n${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
