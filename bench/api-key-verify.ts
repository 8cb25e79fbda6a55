// Load benchmark: POST /api/auth/api-key/verify over loopback against a real daemon.
//
//   bun bench/api-key-verify.ts [--seconds 10] [--concurrency 32] [--keys 16] [--database URL]
//
// Starts `bun bin/authd.ts serve` on a free port (a temporary SQLite file unless --database names a
// Postgres URL; give it a fresh schema with ?schema=NAME), creates one user and --keys keys (per-key
// rate limit off, so every verification is a counted, written use), then keeps --concurrency requests
// in flight for --seconds and prints requests/s and latency percentiles. With --keys 1 every request
// contends for the same row (the compare-and-set retry path). The load generator shares the machine
// with the daemon, so the figures are a floor for the daemon alone.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

const seconds = Number(option("seconds", "10"));
const concurrency = Number(option("concurrency", "32"));
const keyCount = Number(option("keys", "16"));
const SERVER_TOKEN = "OYqEOkZFU7xVvE43q7UpGsAuyo1PE8cQbJqgrWtZtA0jYR_WdVwssUSxf7u0ecLa";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitReady(base: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/api/auth/ok`)).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error("daemon did not become ready");
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "authd-bench-"));
  const database = option("database", `sqlite://${join(dir, "auth.db")}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const daemon = spawn(process.execPath, ["bin/authd.ts", "serve"], {
    env: {
      ...process.env,
      AUTH_PORT: String(port),
      AUTH_HOST: "127.0.0.1",
      AUTH_BASE_URL: base,
      AUTH_DATABASE_URL: database,
      AUTH_SECRET: "cM80vGxqjs1il-Lx7LL-JTzVv_lXbXY65AW8cZIWusqsL9p4DMK3TXEgiu3os_2R",
      AUTH_SERVER_TOKEN: SERVER_TOKEN,
      AUTH_RATE_LIMIT: "off",
      AUTH_LOG_LEVEL: "error",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    await waitReady(base);
    const server = (path: string, body: unknown) =>
      fetch(`${base}/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${SERVER_TOKEN}`, origin: base },
        body: JSON.stringify(body),
      });
    const signUp = (await (
      await fetch(`${base}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({
          name: "Bench",
          email: `bench.${Date.now()}@example.com`,
          password: "correct-horse-battery",
        }),
      })
    ).json()) as { user: { id: string } };
    const keys: string[] = [];
    for (let i = 0; i < keyCount; i++)
      keys.push(
        (
          (await (await server("/api-key/create", { userId: signUp.user.id, rateLimitEnabled: false })).json()) as {
            key: string;
          }
        ).key,
      );

    const latencies: number[] = [];
    let failures = 0;
    let next = 0;
    const deadline = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < deadline) {
        const key = keys[next++ % keys.length];
        const started = performance.now();
        const res = await server("/api-key/verify", { key });
        const body = (await res.json()) as { valid?: boolean };
        latencies.push(performance.now() - started);
        if (!body.valid) failures++;
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const elapsed = (performance.now() - began) / 1000;
    latencies.sort((a, b) => a - b);
    const dialect = database.startsWith("sqlite") ? "sqlite" : "postgres";
    console.log(
      JSON.stringify({
        route: "POST /api-key/verify",
        dialect,
        concurrency,
        keys: keyCount,
        seconds: Number(elapsed.toFixed(1)),
        requests: latencies.length,
        failures,
        requestsPerSecond: Math.round(latencies.length / elapsed),
        latencyMs: {
          p50: Number(percentile(latencies, 50).toFixed(2)),
          p90: Number(percentile(latencies, 90).toFixed(2)),
          p99: Number(percentile(latencies, 99).toFixed(2)),
          max: Number(latencies[latencies.length - 1].toFixed(2)),
        },
      }),
    );
  } finally {
    daemon.kill("SIGTERM");
    await new Promise((resolve) => daemon.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
