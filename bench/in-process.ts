// bench/in-process: the daemon's own cost of one request, without sockets or a load generator. Builds the
// app on a seeded database and calls app.fetch in a loop, one request at a time, so the figure is CPU time
// per request in this process (repeatable on a busy machine, unlike req/s). Also counts database
// statements per request.
//
//   bun bench/in-process.ts                       # SQLite in a temporary file
//   bun bench/in-process.ts --db postgres [--redis]
//   bun bench/in-process.ts --requests 20000 --only get-session
//   bun bench/in-process.ts --db postgres --only api-key   # --only: scenarios whose name contains it
//   bun bench/in-process.ts --only 'POST /api-key/verify$'  # ...or, ending in $, the one of exactly that name
//   bun bench/in-process.ts --db postgres --concurrency 16 # keep 16 requests in flight (batching shows)

import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/load.ts";
import { createContext } from "../src/context.ts";
import { directRunnerOf, runDirectlyWhenFree } from "../src/db/compiled-query.ts";
import { registerFeatures } from "../src/features.ts";
import { createApp } from "../src/http/app.ts";
import { silentLogger } from "../src/logger.ts";
import { scratchDatabase } from "./scratch-database.ts";
import { cookiesOf, SEED_PASSWORD, seedDatabase, seedEmail } from "./seed.ts";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "sqlite" },
    redis: { type: "boolean", default: false },
    requests: { type: "string", default: "10000" },
    users: { type: "string", default: "1000" },
    only: { type: "string" },
    concurrency: { type: "string", default: "1" },
  },
});
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const SERVER_TOKEN = "OYqEOkZFU7xVvE43q7UpGsAuyo1PE8cQbJqgrWtZtA0jYR_WdVwssUSxf7u0ecLa";
const BASE = "http://127.0.0.1:3000";

async function database(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  return scratchDatabase(args.db, "in-process");
}

const target = await database();
await seedDatabase(target.url, Number(args.users), () => {});
const config = loadConfig({
  env: {
    AUTH_DATABASE_URL: target.url,
    AUTH_BASE_URL: BASE,
    AUTH_SECRET: "cM80vGxqjs1il-Lx7LL-JTzVv_lXbXY65AW8cZIWusqsL9p4DMK3TXEgiu3os_2R",
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
    AUTH_RATE_LIMIT: "off",
    // BENCH_AUTH_<NAME>=value sets AUTH_<NAME> for the daemon under test: a feature off, to see what it costs.
    ...Object.fromEntries(
      Object.entries(process.env)
        .filter(([name]) => name.startsWith("BENCH_AUTH_"))
        .map(([name, value]) => [name.slice("BENCH_".length), value ?? ""]),
    ),
    ...(args.redis ? { AUTH_REDIS_URL: REDIS_URL, AUTH_REDIS_KEY_PREFIX: `bench-ip:${Date.now()}:` } : {}),
  },
});
registerFeatures();
const ctx = await createContext(config, { logger: silentLogger, migrate: true });
const app = createApp(ctx);
const env = { remoteAddress: "127.0.0.1" };
// A client over HTTP states a body's length (a Request made here from a string does not): it is sent too,
// so the daemon judges the body as it does a real one (the body limit reads Content-Length first).
const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
  const headers = new Headers(init.headers);
  if (typeof init.body === "string") headers.set("content-length", String(Buffer.byteLength(init.body)));
  return app.fetch(new Request(`${BASE}/api/auth${path}`, { ...init, headers }), env);
};

let statements = 0;
const executor = ctx.db.getExecutor();
const executeQuery = executor.executeQuery.bind(executor) as (...a: unknown[]) => Promise<unknown>;
(executor as unknown as { executeQuery: unknown }).executeQuery = (...a: unknown[]) => {
  statements += 1;
  return executeQuery(...a);
};
// SQLite's hot statements skip Kysely's executor when the connection is free (src/db/compiled-query.ts).
const direct = directRunnerOf(ctx.db);
if (direct)
  runDirectlyWhenFree(ctx.db, (text, values) => {
    const rows = direct(text, values);
    if (rows) statements += 1;
    return rows;
  });

const signIn = await call("/sign-in/email", {
  method: "POST",
  headers: { "content-type": "application/json", origin: BASE },
  body: JSON.stringify({ email: seedEmail(1), password: SEED_PASSWORD }),
});
const cookie = cookiesOf(signIn);
const userId = ((await signIn.json()) as { user: { id: string } }).user.id;
const createKey = async (fields: Record<string, unknown>): Promise<string> => {
  const created = await call("/api-key/create", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${SERVER_TOKEN}` },
    body: JSON.stringify({ userId, ...fields }),
  });
  return ((await created.json()) as { key: string }).key;
};
// One key without limits (its stamp is written behind), one with `remaining` and one with a rate window
// (each use counted exactly: a compare-and-set, or Redis's script with --redis), never exhausted here.
const key = await createKey({ rateLimitEnabled: false });
const remainingKey = await createKey({ rateLimitEnabled: false, remaining: 1_000_000_000 });
const windowKey = await createKey({ rateLimitMax: 1_000_000_000, rateLimitTimeWindow: 86_400_000 });
const verify = (presented: string) => () =>
  call("/api-key/verify", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${SERVER_TOKEN}` },
    body: JSON.stringify({ key: presented }),
  });

// authd's own pages (docs/pages.md): a page drawn by React on the server, signed out and signed in.
const page =
  (path: string, headers: Record<string, string> = {}) =>
  async () =>
    app.fetch(new Request(`${BASE}/account${path}`, { headers: { accept: "text/html", ...headers } }), env);

const scenarios: [string, () => Promise<Response>][] = [
  // The floor every route pays: the middleware chain, routing and a JSON answer, no session, no database.
  ["GET /ok (the route floor)", () => call("/ok")],
  ["get-session (cookie cache)", () => call("/get-session", { headers: { cookie } })],
  ["get-session (cookie cache off)", () => call("/get-session?disableCookieCache=true", { headers: { cookie } })],
  ["POST /api-key/verify", verify(key)],
  ["POST /api-key/verify (remaining)", verify(remainingKey)],
  ["POST /api-key/verify (rate window)", verify(windowKey)],
  ["GET /account/sign-in (page)", page("/sign-in")],
  ["GET /account/sign-in (page, signed in)", page("/sign-in", { cookie })],
];

const requests = Number(args.requests);
const concurrency = Number(args.concurrency);
console.log(
  `in-process: ${args.db}${args.redis ? " + redis" : ""}, ${requests} requests each, ${concurrency === 1 ? "one at a time" : `${concurrency} in flight`}`,
);
for (const [name, run] of scenarios) {
  // --only NAME$ runs the scenario of exactly that name (a profile of one scenario).
  const exact = args.only?.endsWith("$") ? args.only.slice(0, -1) : null;
  if (args.only && (exact === null ? !name.includes(args.only) : name !== exact)) continue;
  for (let i = 0; i < Math.min(2000, requests); i += 1) await (await run()).arrayBuffer();
  statements = 0;
  const startedCPU = process.cpuUsage();
  const started = performance.now();
  let sent = 0;
  const durations: number[] = [];
  const worker = async () => {
    while (sent < requests) {
      sent += 1;
      const began = performance.now();
      const response = await run();
      durations.push(performance.now() - began);
      if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const micros = ((performance.now() - started) * 1000) / requests;
  // CPU time this process spent (user + system), which other work on the machine does not inflate the way
  // it inflates wall time.
  const usedCPU = process.cpuUsage(startedCPU);
  const cpuMicros = (usedCPU.user + usedCPU.system) / requests;
  durations.sort((a, b) => a - b);
  const p50 = (durations[Math.floor(durations.length / 2)] ?? 0) * 1000;
  console.log(
    `${name.padEnd(38)} ${micros.toFixed(1).padStart(7)} µs per request   p50 ${p50.toFixed(1).padStart(7)} µs   CPU ${cpuMicros.toFixed(1).padStart(6)} µs   ${(statements / requests).toFixed(2)} statements per request`,
  );
}
await ctx.close();
await target.cleanup();
