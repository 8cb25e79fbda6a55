import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TEST_ORIGIN, TEST_SECRET } from "../helpers/context.ts";

// Runs authd as a subprocess, the way an operator does: from the checkout (bun bin/authd.ts) or the
// compiled binary, with the configuration in the environment.

const ROOT = resolve(import.meta.dirname, "../..");
const BUN = join(ROOT, "node_modules/.bin/bun");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = unknown>(): T;
}

export interface RunOptions {
  env?: Record<string, string>;
  input?: string;
  /** Path of a compiled authd; default: the checkout through bun. */
  binary?: string;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const [command, argv] = options.binary ? [options.binary, args] : [BUN, [join(ROOT, "bin/authd.ts"), ...args]];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    // The suite's scrypt cost (test/global-setup.ts), so what the CLI hashes, an in-process context verifies.
    ...(process.env.AUTHD_TEST_SCRYPT_COST ? { AUTHD_TEST_SCRYPT_COST: process.env.AUTHD_TEST_SCRYPT_COST } : {}),
    AUTH_SECRET: TEST_SECRET,
    AUTH_BASE_URL: TEST_ORIGIN,
    ...options.env,
  };
  return new Promise((done, fail) => {
    const child = spawn(command, argv, { env, cwd: tmpdir(), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) =>
      done({
        code: code ?? -1,
        stdout,
        stderr,
        json<T>() {
          return JSON.parse(stdout) as T;
        },
      }),
    );
    child.stdin.end(options.input ?? "");
  });
}
