// bench/revocation-staleness: how long another daemon still answers a session after one daemon revoked it.
// Two daemon processes share one database (and Redis with --redis). Each round signs in on A, reads the
// session on B (so B holds its in-process copy), signs out on A, and from the moment A answers probes B
// back to back until B answers null. It prints how many rounds' first probe still saw the session and the
// longest such window: the time from A's answer to the arrival of B's last answer with the old session.
//
//   bun bench/revocation-staleness.ts                         # Postgres, 300 rounds
//   bun bench/revocation-staleness.ts --redis                 # Postgres + Redis
//   bun bench/revocation-staleness.ts --db sqlite --rounds 500

import { type ChildProcess, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../scripts/free-port.ts";
import { scratchDatabase } from "./scratch-database.ts";

const root = new URL("..", import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "postgres" },
    redis: { type: "boolean", default: false },
    rounds: { type: "string", default: "300" },
  },
});
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const rounds = Number(args.rounds);
// One deployment: both daemons share the prefix, as they must (operations.md).
const redisKeyPrefix = `bench-stale:${Date.now()}:`;

async function startDaemon(databaseURL: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(join(root, "node_modules/.bin/bun"), [join(root, "bin/authd.ts"), "serve"], {
    env: {
      ...process.env,
      AUTH_HOST: "127.0.0.1",
      AUTH_PORT: String(port),
      AUTH_BASE_URL: url,
      AUTH_TRUSTED_ORIGINS: "http://127.0.0.1",
      AUTH_DATABASE_URL: databaseURL,
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
      AUTH_RATE_LIMIT: "off",
      AUTH_LOG_LEVEL: "error",
      ...(args.redis ? { AUTH_REDIS_URL: REDIS_URL, AUTH_REDIS_KEY_PREFIX: redisKeyPrefix } : {}),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 300; i += 1) {
    if ((await fetch(`${url}/api/auth/ok`).catch(() => null))?.ok) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`daemon on ${url} did not start`);
}

const target = await scratchDatabase(args.db, "stale");
// One after the other: the first applies the migrations.
const a = await startDaemon(target.url);
const b = await startDaemon(target.url);
const email = `stale-${Date.now()}@example.com`;
const password = "bench-password-123";
const post = (url: string, path: string, body: unknown, cookie = "") =>
  fetch(`${url}/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, cookie },
    body: JSON.stringify(body),
  });
const sessionOn = async (url: string, cookie: string): Promise<boolean> => {
  const response = await fetch(`${url}/api/auth/get-session?disableCookieCache=true`, { headers: { cookie } });
  return (await response.json()) !== null;
};
await post(a.url, "/sign-up/email", { name: "Bench", email, password });

let staleFirstProbes = 0;
let staleProbes = 0;
const windows: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const signIn = await post(a.url, "/sign-in/email", { email, password });
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  if (!(await sessionOn(b.url, cookie)) || !(await sessionOn(b.url, cookie)))
    throw new Error("B did not see the session");
  const signOut = await post(a.url, "/sign-out", {}, cookie);
  if (signOut.status !== 200) throw new Error(`sign-out answered ${signOut.status}`);
  const answered = performance.now();
  let lastStale = 0;
  for (let probe = 0; await sessionOn(b.url, cookie); probe += 1) {
    lastStale = performance.now() - answered;
    staleProbes += 1;
    if (probe === 0) staleFirstProbes += 1;
  }
  windows.push(lastStale);
}
const sorted = [...windows].sort((x, y) => x - y);
const stale = sorted.filter((ms) => ms > 0);
console.log(
  `${args.db}${args.redis ? " + Redis" : ""}: ${rounds} rounds, the first probe saw the revoked session in ${staleFirstProbes} (${staleProbes} stale probes in all); window max ${sorted[sorted.length - 1].toFixed(2)} ms, p99 ${sorted[Math.floor(0.99 * sorted.length)].toFixed(2)} ms, median of stale rounds ${stale.length ? stale[Math.floor(stale.length / 2)].toFixed(2) : "-"} ms; load ${loadavg()[0].toFixed(1)}`,
);
a.child.kill("SIGTERM");
b.child.kill("SIGTERM");
await Promise.all([a, b].map(({ child }) => new Promise((resolve) => child.once("exit", resolve))));
await target.cleanup();
