// bench/cpu-per-request: the CPU time a server process spends per request under load, read from
// /proc/<pid>/stat around an autocannon run: the compiled daemon and, beside it, a bare Bun.serve answering a
// fixed body (the ceiling). On a shared or noisy machine req/s moves by several points from one run to the
// next; CPU per request moves far less, so two binaries are best compared by it, in alternating rounds.
//
//   bun bench/cpu-per-request.ts --binary /tmp/authd-before --binary dist/authd --rounds 2
//   bun bench/cpu-per-request.ts --db postgres --redis --only verify
//
// Scenarios: `ok` (the route floor), `get-session` (cookie cache off), `verify` (a key with a rate window).

import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { scratchDatabase } from "./scratch-database.ts";
import { cookiesOf, SEED_PASSWORD, seedDatabase, seedEmail } from "./seed.ts";

const root = new URL("..", import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    binary: { type: "string", multiple: true },
    db: { type: "string", default: "sqlite" },
    redis: { type: "boolean", default: false },
    only: { type: "string" },
    seconds: { type: "string", default: "4" },
    connections: { type: "string", default: "16" },
    rounds: { type: "string", default: "1" },
  },
});
const binaries = args.binary ?? [join(root, "dist/authd")];
const SECRET = "cM80vGxqjs1il-Lx7LL-JTzVv_lXbXY65AW8cZIWusqsL9p4DMK3TXEgiu3os_2R";
const SERVER_TOKEN = "OYqEOkZFU7xVvE43q7UpGsAuyo1PE8cQbJqgrWtZtA0jYR_WdVwssUSxf7u0ecLa";
const TICK_MICROS = 10_000; // /proc/<pid>/stat counts in clock ticks of 1/100 s

/** User + system CPU time of a process so far, in µs. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
}

/** One autocannon run against `url`: req/s and the CPU µs `pid` spent per request meanwhile. */
function measure(pid: number, url: string, extra: string[] = []): { rps: number; cpu: number } {
  const before = cpuMicros(pid);
  const cli = [join(root, "node_modules/autocannon/autocannon.js"), "--json", "-c", args.connections];
  const run = spawnSync("node", [...cli, "-d", args.seconds, ...extra, url], { encoding: "utf8" });
  const used = cpuMicros(pid) - before;
  const result = JSON.parse(run.stdout) as { requests: { total: number }; duration: number; non2xx: number };
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return { rps: result.requests.total / result.duration, cpu: used / result.requests.total };
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error(`${url} did not answer`);
}

async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = server.port as number;
  server.stop(true);
  return port;
}

/** One binary on a fresh seeded database: its figures per scenario, each beside the ceiling's. */
async function runBinary(binary: string, ceiling: { pid: number; url: string }): Promise<void> {
  const target = await scratchDatabase(args.db, "cpu");
  await seedDatabase(target.url, 1000, () => {});
  const port = await freePort();
  const api = `http://127.0.0.1:${port}/api/auth`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    AUTH_HOST: "127.0.0.1",
    AUTH_PORT: String(port),
    AUTH_BASE_URL: `http://127.0.0.1:${port}`,
    AUTH_DATABASE_URL: target.url,
    AUTH_SECRET: SECRET,
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
    AUTH_RATE_LIMIT: "off",
    AUTH_LOG_LEVEL: "error",
  };
  if (args.redis)
    Object.assign(env, { AUTH_REDIS_URL: "redis://127.0.0.1:6379", AUTH_REDIS_KEY_PREFIX: `cpu:${port}:` });
  const daemon = spawn(binary, ["serve"], { env, stdio: ["ignore", "inherit", "inherit"] });
  try {
    await waitFor(`${api}/ok`);
    const signIn = await fetch(`${api}/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: seedEmail(1), password: SEED_PASSWORD }),
    });
    const cookie = cookiesOf(signIn);
    const userId = ((await signIn.json()) as { user: { id: string } }).user.id;
    const created = await fetch(`${api}/api-key/create`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${SERVER_TOKEN}` },
      body: JSON.stringify({ userId, rateLimitTimeWindow: 86_400_000, rateLimitMax: 1_000_000_000 }),
    });
    const key = ((await created.json()) as { key: string }).key;
    const scenarios: [string, string, string[]][] = [
      ["ok", `${api}/ok`, []],
      ["get-session", `${api}/get-session?disableCookieCache=true`, ["-H", `cookie=${cookie}`]],
      [
        "verify",
        `${api}/api-key/verify`,
        ["-m", "POST", "-H", `authorization=Bearer ${SERVER_TOKEN}`, "-H", "content-type=application/json"],
      ],
    ];
    for (const [name, url, extra] of scenarios) {
      if (args.only && !name.startsWith(args.only)) continue;
      const body = name === "verify" ? ["-b", JSON.stringify({ key })] : [];
      const bare = measure(ceiling.pid, ceiling.url);
      const own = measure(daemon.pid as number, url, [...extra, ...body]);
      console.log(
        `  ${name.padEnd(12)} ${String(Math.round(own.rps)).padStart(6)} req/s ${own.cpu.toFixed(1).padStart(6)} µs CPU per request   ceiling ${String(Math.round(bare.rps)).padStart(6)} req/s ${bare.cpu.toFixed(1).padStart(5)} µs   ${((own.rps / bare.rps) * 100).toFixed(1)} %`,
      );
    }
  } finally {
    daemon.kill("SIGTERM");
    await new Promise((resolve) => daemon.once("exit", resolve));
    await target.cleanup();
  }
}

const ceilingPort = await freePort();
const ceilingSource = `Bun.serve({ hostname: "127.0.0.1", port: ${ceilingPort}, fetch: () => new Response('{"ok":true}', { headers: { "content-type": "application/json" } }) });`;
const ceilingServer = spawn(process.execPath, ["-e", ceilingSource], { stdio: "inherit" });
const ceiling = { pid: ceilingServer.pid as number, url: `http://127.0.0.1:${ceilingPort}/` };
try {
  await waitFor(ceiling.url);
  console.log(
    `authd cpu-per-request: ${args.db}${args.redis ? " + redis" : ""}, ${args.connections} connections, ${args.seconds} s each, ${cpus().length} cores, load average ${loadavg()[0]?.toFixed(2)}`,
  );
  for (let round = 1; round <= Number(args.rounds); round += 1)
    for (const binary of binaries) {
      console.log(`round ${round}, ${binary}`);
      await runBinary(binary, ceiling);
    }
} finally {
  ceilingServer.kill("SIGTERM");
}
