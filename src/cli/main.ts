import { Command, CommanderError } from "commander";
import { ConfigError } from "../config/load.ts";
import { DependencyError, describeFailure, isConnectionFailure } from "../dependencies.ts";
import { isAuthError } from "../errors.ts";
import { applyEnvFile } from "./env-file.ts";
import { PromptAborted } from "./prompt.ts";
import { UserError } from "./shared.ts";

// Each command's module loads only when that command runs: `serve` never loads the terminal UI, the
// operator listings or their schemas (start-up time and idle memory of the daemon, issue 17). Help and
// anything not naming a known command load them all, so listings and suggestions stay complete.
// The order here is the order `authd --help` lists them in.
const commandModules: [name: string, load: () => Promise<Command>][] = [
  ["serve", async () => (await import("./commands/serve.ts")).serveCommand],
  ["migrate", async () => (await import("./commands/migrate.ts")).migrateCommand],
  ["healthcheck", async () => (await import("./commands/healthcheck.ts")).healthcheckCommand],
  ["create-user", async () => (await import("./commands/create-user.ts")).createUserCommand],
  ["issue-api-key", async () => (await import("./commands/issue-api-key.ts")).issueApiKeyCommand],
  ["revoke-sessions", async () => (await import("./commands/revoke-sessions.ts")).revokeSessionsCommand],
  ["users", async () => (await import("./commands/users.ts")).usersCommand],
  ["sessions", async () => (await import("./commands/sessions.ts")).sessionsCommand],
  ["api-keys", async () => (await import("./commands/api-keys.ts")).apiKeysCommand],
  ["orgs", async () => (await import("./commands/orgs.ts")).orgsCommand],
  ["keys", async () => (await import("./commands/keys.ts")).keysCommand],
  ["config", async () => (await import("./commands/config.ts")).configCommand],
  ["mail", async () => (await import("./commands/mail.ts")).mailCommand],
  ["admin", async () => (await import("./commands/admin.ts")).adminCommand],
  ["audit", async () => (await import("./commands/audit.ts")).auditCommand],
  ["webhooks", async () => (await import("./commands/webhooks.ts")).webhooksCommand],
  ["clients", async () => (await import("./commands/clients.ts")).clientsCommand],
  ["import", async () => (await import("./commands/import.ts")).importCommand],
  ["export", async () => (await import("./commands/export.ts")).exportCommand],
  ["backup", async () => (await import("./commands/backup.ts")).backupCommand],
  ["restore", async () => (await import("./commands/backup.ts")).restoreCommand],
];

/** JavaScriptCore's tier-up thresholds are this many times higher while serve starts and idles. */
const SERVE_START_UP_JIT_POLICY = 1000;

/**
 * The command argv names, when nothing but --env-file comes before it. Anything else first (-h, an unknown
 * option) may make commander print the root's help, which must list every command.
 */
function namedCommand(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === "--env-file") i += 1;
    else if (!argv[i].startsWith("--env-file=")) return argv[i].startsWith("-") ? undefined : argv[i];
  }
  return undefined;
}

/** The commander program: with `argv`, only the command it names is loaded (all of them when it names none). */
export async function buildProgram(argv?: string[]): Promise<Command> {
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
  const name = argv ? namedCommand(argv) : undefined;
  const named = commandModules.filter(([candidate]) => candidate === name);
  const modules = named.length > 0 ? named : commandModules;
  for (const command of await Promise.all(modules.map(([, load]) => load()))) program.addCommand(command);
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

/** The code a command left in process.exitCode (0 when none): 1 or 2 as the contract says, never lost. */
function commandExitCode(): number {
  const code = Number(process.exitCode ?? 0);
  return Number.isInteger(code) ? code : 1;
}

/** Run the CLI; returns the exit code. User-fixable failures are one line on stderr, never a stack. */
export async function main(argv: string[]): Promise<number> {
  // serve's start-up runs most of the code once, which is not worth compiling: the JIT stays held back (the
  // compiled binary starts at 50 times the thresholds, scripts/build.ts) until the daemon is busy (serve.ts).
  if (namedCommand(argv) === "serve") Bun.unsafe.setJITPolicy(SERVE_START_UP_JIT_POLICY);
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv, { from: "user" });
    // A command that finished its output and then failed (e.g. `webhooks test` printing the answer it got)
    // may say so through process.exitCode; bin/authd.ts exits with what this returns, so it must carry it.
    return commandExitCode();
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for is success; help shown because no command was named (`authd webhooks`) is bad usage.
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      )
        return error.exitCode === 0 ? 0 : 2;
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
