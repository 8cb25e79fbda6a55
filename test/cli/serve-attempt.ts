import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../helpers/daemon.ts";

// `authd serve` started as an operator would, for tests of what stops it before it listens: its exit code
// and stderr, and, if it does come up, what `whenUp` learns from it (then it is stopped with SIGTERM).

const ROOT = resolve(import.meta.dirname, "../..");

export interface ServeAttempt<T> {
  code: number | null;
  stderr: string;
  /** What `whenUp` answered; null when the daemon never answered /api/auth/ok. */
  up: T | null;
}

export async function tryServe<T = true>(
  env: Record<string, string>,
  whenUp: (origin: string) => Promise<T> = async () => true as T,
): Promise<ServeAttempt<T>> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "authd-serve-attempt-"));
  const child = spawn(process.execPath, [join(ROOT, "bin/authd.ts"), "serve"], {
    env: {
      PATH: process.env.PATH ?? "",
      AUTH_HOST: "127.0.0.1",
      AUTH_PORT: String(port),
      AUTH_DATABASE_URL: `sqlite://${join(dir, "auth.db")}`,
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const origin = `http://127.0.0.1:${port}`;
  let up: T | null = null;
  for (let tries = 0; tries < 300 && child.exitCode === null; tries++) {
    if ((await fetch(`${origin}/api/auth/ok`).catch(() => null))?.ok) {
      up = await whenUp(origin);
      child.kill("SIGTERM");
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { code: await exited, stderr, up };
}
