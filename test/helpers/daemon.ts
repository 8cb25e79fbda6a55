import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/free-port.ts";

// Start a real daemon process (the compiled binary or `bun bin/authd.ts`) on a free loopback port.

export { freePort };

export interface Daemon {
  url: string;
  port: number;
  process: ChildProcess;
  output(): string;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `port`: listen there (for a base URL in `env` that names it, e.g. http://localhost:<port>); a caller that
 * must know the port before the daemon starts (a provider's redirect URI) may pass AUTH_PORT in `env`
 * instead; default: a free one.
 */
export async function startDaemon(command: string[], env: Record<string, string> = {}, port?: number): Promise<Daemon> {
  port ??= env.AUTH_PORT ? Number(env.AUTH_PORT) : await freePort();
  const dir = mkdtempSync(join(tmpdir(), "authd-daemon-"));
  const child = spawn(command[0], [...command.slice(1), "serve"], {
    env: {
      ...process.env,
      AUTH_HOST: "127.0.0.1",
      AUTH_PORT: String(port),
      AUTH_BASE_URL: `http://127.0.0.1:${port}`,
      AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}`,
      AUTH_SECRET: "s_omez5W34wWMeVQN9II_ZM0tEOm8egelWycChxw1QBOCZaBUzpKtDtzB2eflHG7",
      AUTH_LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`daemon exited early (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/api/auth/ok`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`daemon not ready in 20 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    process: child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", (code) => {
          clearTimeout(timer);
          resolve(code);
        });
        child.kill("SIGTERM");
      }),
  };
}

/**
 * A daemon whose base URL is on localhost (`base`): the one host name Chromium accepts as a passkey's rp id
 * over plain http, so the pages offer passkeys.
 */
export async function startOnLocalhost(command: string[], env: Record<string, string> = {}) {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  return { daemon: await startDaemon(command, { AUTH_BASE_URL: base, ...env }, port), base };
}
