// bench/outage: how long a request waits, and what it answers, while Postgres or Redis is down. The app runs
// in this process on Postgres + Redis, each behind a TCP proxy (scripts/tcp-proxy.ts) that the bench cuts
// (connections refused, as a stopped server) or blackholes (accepted, never answered, as a dropped network).
//
//   bun bench/outage.ts                     # 50 requests per phase
//   bun bench/outage.ts --requests 200
//   AUTH_REDIS_TIMEOUT_MS=300 bun bench/outage.ts

import { parseArgs } from "node:util";
import { startTcpProxy, type TcpProxy, throughProxy } from "../scripts/tcp-proxy.ts";
import { loadConfig } from "../src/config/load.ts";
import { createContext } from "../src/context.ts";
import { registerFeatures } from "../src/features.ts";
import { createApp } from "../src/http/app.ts";
import { silentLogger } from "../src/logger.ts";
import { BENCH_POSTGRES_URL, scratchDatabase } from "./scratch-database.ts";

const { values: args } = parseArgs({ options: { requests: { type: "string", default: "50" } } });
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const SERVER_TOKEN = "bench-server-token-0123456789abcdef";
const BASE = "http://127.0.0.1:3000";
const requests = Number(args.requests);

const proxyTo = (url: string, port: number) => {
  const parsed = new URL(url);
  return startTcpProxy({ host: parsed.hostname, port: Number(parsed.port || port) });
};
const target = await scratchDatabase("postgres", "outage");
const postgres = await proxyTo(BENCH_POSTGRES_URL, 5432);
const redis = await proxyTo(REDIS_URL, 6379);
const config = loadConfig({
  env: {
    AUTH_DATABASE_URL: throughProxy(target.url, postgres),
    AUTH_REDIS_URL: throughProxy(REDIS_URL, redis),
    AUTH_REDIS_KEY_PREFIX: `bench-outage:${Date.now()}:`,
    AUTH_BASE_URL: BASE,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
    AUTH_RATE_LIMIT: "off",
    // Every session read goes to Redis or the database, as a read no daemon has in memory yet.
    AUTH_SESSION_MEMORY_CACHE: "off",
    ...(process.env.AUTH_REDIS_TIMEOUT_MS ? { AUTH_REDIS_TIMEOUT_MS: process.env.AUTH_REDIS_TIMEOUT_MS } : {}),
  },
});
registerFeatures();
const ctx = await createContext(config, { logger: silentLogger, migrate: true });
const app = createApp(ctx);
const call = async (path: string, init: RequestInit = {}): Promise<Response> =>
  app.fetch(new Request(`${BASE}/api/auth${path}`, init), { remoteAddress: "127.0.0.1" });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BASE, ...headers },
    body: JSON.stringify(body),
  });

const email = `outage-${Date.now()}@example.com`;
const password = "bench-password-123";
const signUp = await post("/sign-up/email", { name: "Bench", email, password });
const cookie = signUp.headers
  .getSetCookie()
  .map((line) => line.split(";")[0])
  .join("; ");
const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
const created = await post(
  "/api-key/create",
  { userId, remaining: 1_000_000_000 },
  { authorization: `Bearer ${SERVER_TOKEN}` },
);
const limitedKey = ((await created.json()) as { key: string }).key;

const scenarios: Record<string, () => Promise<Response>> = {
  "get-session (uncached)": () => call("/get-session?disableCookieCache=true", { headers: { cookie } }),
  "api-key/verify (remaining)": () =>
    post("/api-key/verify", { key: limitedKey }, { authorization: `Bearer ${SERVER_TOKEN}` }),
  "sign-in/email": () => post("/sign-in/email", { email, password }),
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** `requests` sequential calls: statuses seen, first call's wait, median and max wait. */
async function measure(phase: string, name: string): Promise<void> {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < requests; i += 1) {
    const start = performance.now();
    const response = await scenarios[name]();
    await response.arrayBuffer();
    times.push(performance.now() - start);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  }
  const first = times[0];
  const sorted = [...times].sort((a, b) => a - b);
  const answered = [...statuses].map(([status, count]) => `${count}×${status}`).join(" ");
  console.log(
    `${phase.padEnd(20)} ${name.padEnd(28)} ${answered.padEnd(12)} first ${first.toFixed(1).padStart(7)} ms  p50 ${quantile(sorted, 0.5).toFixed(2).padStart(7)} ms  max ${sorted[sorted.length - 1].toFixed(1).padStart(7)} ms`,
  );
}

/** From the proxy's restore to the first 200 of /ready, polled every 5 ms. */
async function recovery(proxy: TcpProxy): Promise<number> {
  proxy.restore();
  const start = performance.now();
  while ((await call("/ready")).status !== 200) await new Promise((resolve) => setTimeout(resolve, 5));
  return performance.now() - start;
}

console.log(`Redis timeout ${config.redisTimeoutMs} ms, ${requests} sequential requests per line`);
for (const name of Object.keys(scenarios)) await measure("up", name);
redis.cut();
for (const name of Object.keys(scenarios)) await measure("redis refused", name);
console.log(`redis refused: ready again ${(await recovery(redis)).toFixed(0)} ms after the restore`);
redis.blackhole();
for (const name of Object.keys(scenarios)) await measure("redis blackholed", name);
console.log(`redis blackholed: ready again ${(await recovery(redis)).toFixed(0)} ms after the restore`);
postgres.cut();
for (const name of Object.keys(scenarios)) await measure("postgres refused", name);
console.log(`postgres refused: ready again ${(await recovery(postgres)).toFixed(0)} ms after the restore`);

await ctx.close();
await redis.close();
await postgres.close();
await target.cleanup();
