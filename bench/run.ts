// bench/run: load a running compiled daemon on loopback with autocannon and print req/s, p50 and p99.
//
//   bun bench/run.ts                         # SQLite, 1,000 seeded users, 10 s per scenario
//   bun bench/run.ts --db postgres --redis   # Postgres (127.0.0.1:5432/test, a fresh schema) + Redis
//   bun bench/run.ts --users 100000 --duration 5 --only get-session
//   bun bench/run.ts --database-url sqlite:///tmp/bench-1m.db --users 1000000 --only get-session
//   bun bench/run.ts --only oidc --duration 5   # the OpenID Provider: userinfo, introspection, refresh
//
// It builds dist/authd when missing (`--no-build` uses it as is), seeds the database (bench/seed.ts),
// starts the daemon with rate limiting off, and runs each scenario in its own autocannon process.

import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, scrypt } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { scratchDatabase } from "./scratch-database.ts";
import { cookiesOf, SEED_PASSWORD, seedDatabase, seedEmail } from "./seed.ts";

const root = new URL("..", import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "sqlite" },
    redis: { type: "boolean", default: false },
    users: { type: "string", default: "1000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "16" },
    only: { type: "string" },
    "no-build": { type: "boolean", default: false },
    "pool-size": { type: "string", default: "10" },
    "database-url": { type: "string" },
    rounds: { type: "string", default: "2" },
    "refresh-pool": { type: "string", default: "1000" },
  },
});
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const SERVER_TOKEN = "OYqEOkZFU7xVvE43q7UpGsAuyo1PE8cQbJqgrWtZtA0jYR_WdVwssUSxf7u0ecLa";
const duration = Number(args.duration);
const connections = Number(args.connections);
const rounds = Number(args.rounds);
const wanted = (name: string) => !args.only || name.startsWith(args.only);

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The bare Bun.serve ceiling measured in the rounds alternating with this scenario's (req/s). */
  ceiling?: number;
}

/** One autocannon run in its own process, so the load generator never shares the daemon's event loop. */
function autocannon(
  name: string,
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    /** An application/x-www-form-urlencoded body (what OAuth endpoints take). */
    form?: Record<string, string>;
    connections?: number;
    seconds?: number;
  },
): Promise<Figures> {
  const cli = [
    join(root, "node_modules/autocannon/autocannon.js"),
    "--json",
    "-c",
    String(options.connections ?? connections),
    "-d",
    String(options.seconds ?? duration),
  ];
  if (options.method) cli.push("-m", options.method);
  for (const [header, value] of Object.entries(options.headers ?? {})) cli.push("-H", `${header}=${value}`);
  if (options.body !== undefined) cli.push("-H", "content-type=application/json", "-b", JSON.stringify(options.body));
  if (options.form)
    cli.push(
      "-H",
      "content-type=application/x-www-form-urlencoded",
      "-b",
      new URLSearchParams(options.form).toString(),
    );
  cli.push(url);
  return figuresOf(name, cli, (result) => result.requests.average);
}

/**
 * autocannon in its own process sending each body of `bodies` exactly once (`amount` = their number), for
 * requests that cannot be repeated: a refresh token rotates on use, and presenting it again revokes its family.
 * req/s is the number sent over the run's wall time (a run of a few seconds has partial one-second samples).
 */
function autocannonOnce(
  name: string,
  url: string,
  options: { headers: Record<string, string>; bodies: string[] },
): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), "authd-bench-"));
  const file = join(dir, "requests.json");
  writeFileSync(file, JSON.stringify({ url, connections, ...options }));
  const source = `
    const autocannon = require(${JSON.stringify(join(root, "node_modules/autocannon"))});
    const { url, connections, headers, bodies } = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
    let next = 0;
    autocannon({ url, connections, amount: bodies.length, method: "POST", headers,
      requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++] }) }] },
      (error, result) => { if (error) throw error; process.stdout.write(JSON.stringify(result)); });`;
  return figuresOf(name, ["-e", source, file], (result) => result.requests.total / result.duration).finally(() =>
    rmSync(dir, { recursive: true, force: true }),
  );
}

interface AutocannonResult {
  requests: { average: number; total: number };
  duration: number;
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

/** Run `node argv` (autocannon printing its JSON result) and read the figures; `rps` picks the rate. */
function figuresOf(name: string, argv: string[], rps: (result: AutocannonResult) => number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn("node", argv, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", () => {
      try {
        const result = JSON.parse(out) as AutocannonResult;
        const { latency, non2xx, errors } = result;
        resolve({ name, rps: rps(result), p50: latency.p50, p99: latency.p99, non2xx, errors });
      } catch (error) {
        reject(new Error(`autocannon gave no JSON for ${name}: ${out.slice(0, 300)} (${(error as Error).message})`));
      }
    });
  });
}

const oneHash = () =>
  new Promise((resolve, reject) =>
    scrypt(
      "bench",
      "0123456789abcdef0123456789abcdef",
      64,
      { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 },
      (e, k) => (e ? reject(e) : resolve(k)),
    ),
  );

/** Median time of one scrypt (the parameters of src/crypto/password.ts), in seconds. */
async function scryptSeconds(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const started = performance.now();
    await oneHash();
    times.push((performance.now() - started) / 1000);
  }
  return times.sort((a, b) => a - b)[3];
}

/** Hashes per second with 2 × cores running at once: what the machine actually gives now (shared CPUs). */
async function scryptParallelRate(): Promise<number> {
  const count = 2 * cpus().length;
  const started = performance.now();
  await Promise.all(Array.from({ length: count * 2 }, oneHash));
  return (count * 2) / ((performance.now() - started) / 1000);
}

async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = server.port as number;
  server.stop(true);
  return port;
}

/** A bare Bun.serve running `source` (listening on `port`) in a process of its own, once it answers. */
async function startBareServer(source: string, port: number, what: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "inherit", "inherit"] });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i += 1) {
    try {
      await fetch(url);
      return { url, stop: () => child.kill("SIGTERM") };
    } catch {}
    await Bun.sleep(50);
  }
  child.kill("SIGKILL");
  throw new Error(`the ${what} server did not start`);
}

/**
 * The ceiling: a bare Bun.serve answering a fixed JSON body, in its own process, measured in rounds that
 * alternate with each hot scenario's so both see the same machine. Every hot route is printed as a share of it.
 */
async function startCeiling(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const source = `Bun.serve({ hostname: "127.0.0.1", port: ${port}, fetch: () => new Response('{"ok":true}', { headers: { "content-type": "application/json" } }) });`;
  return startBareServer(source, port, "ceiling");
}

/**
 * A bare Bun.serve that answers every request with a copy of one of the daemon's answers (its status, headers
 * and body, captured just before), and no other work: how near the ceiling an answer of that shape can come
 * on this runtime at all, whatever the daemon does to make it.
 */
async function startReplica(answer: Response): Promise<{ url: string; stop: () => void }> {
  const body = await answer.text();
  const headers = [...answer.headers].filter(([name]) => !["date", "content-length"].includes(name));
  const port = await freePort();
  const source = `const body = ${JSON.stringify(body)}; const headers = ${JSON.stringify(headers)};
Bun.serve({ hostname: "127.0.0.1", port: ${port}, fetch: () => new Response(body, { status: ${answer.status}, headers }) });`;
  return startBareServer(source, port, "replica");
}

/** The replica of one answer of the daemon, loaded against the ceiling like a scenario. */
async function replicaAgainstCeiling(ceilingURL: string, name: string, answer: Response): Promise<Figures> {
  const replica = await startReplica(answer);
  try {
    return await againstCeiling(ceilingURL, name, replica.url, {});
  } finally {
    replica.stop();
  }
}

/** `rounds` alternating runs of the ceiling and the scenario (each duration ÷ rounds); means of each side. */
function againstCeiling(
  ceilingURL: string,
  name: string,
  url: string,
  options: Parameters<typeof autocannon>[2],
): Promise<Figures> {
  return ceilingRounds(ceilingURL, name, (seconds) => autocannon(name, url, { ...options, seconds }));
}

/** The alternating rounds of againstCeiling, with any scenario: `run` is given its seconds. */
async function ceilingRounds(
  ceilingURL: string,
  name: string,
  run: (seconds: number) => Promise<Figures>,
): Promise<Figures> {
  const seconds = Math.max(1, Math.round(duration / rounds));
  const ceilings: Figures[] = [];
  const runs: Figures[] = [];
  for (let round = 0; round < rounds; round += 1) {
    ceilings.push(await autocannon("ceiling", ceilingURL, { seconds }));
    runs.push(await run(seconds));
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  return {
    name,
    rps: mean(runs.map((r) => r.rps)),
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    ceiling: mean(ceilings.map((r) => r.rps)),
  };
}

async function prepareDatabase(): Promise<{ url: string; cleanup: () => Promise<void> }> {
  // A database seeded beforehand (bench/seed.ts) is used as is and kept.
  if (args["database-url"]) return { url: args["database-url"], cleanup: async () => {} };
  return scratchDatabase(args.db, "bench");
}

async function startDaemon(databaseURL: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = daemonEnv(port, url, databaseURL);
  // BENCH_DAEMON="bun --cpu-prof-md bin/authd.ts" runs the daemon from source instead (to profile it under load).
  const [command, ...prefix] = process.env.BENCH_DAEMON?.split(" ").filter(Boolean) ?? [join(root, "dist/authd")];
  const child = spawn(command as string, [...prefix, "serve"], { env, stdio: ["ignore", "inherit", "inherit"] });
  for (let i = 0; i < 200; i += 1) {
    try {
      if ((await fetch(`${url}/api/auth/ok`)).ok) return { url, env, stop: () => child.kill("SIGTERM") };
    } catch {}
    await Bun.sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error("daemon did not start");
}

function daemonEnv(port: number, url: string, databaseURL: string): Record<string, string> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    AUTH_HOST: "127.0.0.1",
    AUTH_PORT: String(port),
    AUTH_BASE_URL: url,
    AUTH_DATABASE_URL: databaseURL,
    AUTH_SECRET: "cM80vGxqjs1il-Lx7LL-JTzVv_lXbXY65AW8cZIWusqsL9p4DMK3TXEgiu3os_2R",
    AUTH_SERVER_TOKEN: SERVER_TOKEN,
    AUTH_RATE_LIMIT: "off",
    AUTH_LOG_LEVEL: "error",
    AUTH_DATABASE_POOL_SIZE: args["pool-size"],
  };
  if (args.redis) Object.assign(env, { AUTH_REDIS_URL: REDIS_URL, AUTH_REDIS_KEY_PREFIX: `bench:${port}:` });
  // The OpenID Provider only when its group runs, so that the other groups measure the default daemon.
  if (wanted("oidc")) env.AUTH_OIDC_PROVIDER = "on";
  return env;
}

const OIDC_CALLBACK = "https://rp.example.com/callback";

interface BenchClient {
  id: string;
  secret: string;
  /** client_secret_basic. */
  authorization: string;
}

/** A confidential first-party client (no consent page), registered the operator's way: `authd clients add`. */
function registerOIDCClient(env: Record<string, string>): BenchClient {
  const added = spawnSync(
    join(root, "dist/authd"),
    ["clients", "add", "--name", "bench", "--redirect-uri", OIDC_CALLBACK, "--skip-consent", "--json"],
    { env, encoding: "utf8" },
  );
  if (added.status !== 0) throw new Error(`authd clients add failed: ${added.stderr}`);
  const wire = JSON.parse(added.stdout) as { client_id: string; client_secret: string };
  const pair = `${encodeURIComponent(wire.client_id)}:${encodeURIComponent(wire.client_secret)}`;
  return {
    id: wire.client_id,
    secret: wire.client_secret,
    authorization: `Basic ${Buffer.from(pair).toString("base64")}`,
  };
}

/** One authorization code flow of a signed-in browser: authorize (PKCE) → code → token. */
async function codeFlow(
  api: string,
  cookie: string,
  client: BenchClient,
): Promise<{ access_token: string; refresh_token: string }> {
  const verifier = randomBytes(32).toString("base64url");
  const params = new URLSearchParams({
    response_type: "code",
    client_id: client.id,
    redirect_uri: OIDC_CALLBACK,
    scope: "openid profile email offline_access",
    state: randomBytes(8).toString("hex"),
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  });
  const authorize = await fetch(`${api}/oauth2/authorize?${params}`, { headers: { cookie }, redirect: "manual" });
  const location = authorize.headers.get("location") ?? "";
  const code = location.startsWith(OIDC_CALLBACK) ? new URL(location).searchParams.get("code") : null;
  if (!code) throw new Error(`authorize gave no code: ${authorize.status} ${location}`);
  const token = await fetch(`${api}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: client.authorization },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: OIDC_CALLBACK,
      code_verifier: verifier,
    }),
  });
  if (!token.ok) throw new Error(`code exchange failed: ${token.status} ${await token.text()}`);
  return (await token.json()) as { access_token: string; refresh_token: string };
}

/** `count` code flows, `connections` at a time; their refresh tokens, and the flows' rate. */
async function refreshTokenPool(api: string, cookie: string, client: BenchClient, count: number) {
  const tokens: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (tokens.length < count) {
        tokens.push("");
        const index = tokens.length - 1;
        tokens[index] = (await codeFlow(api, cookie, client)).refresh_token;
      }
    }),
  );
  return { tokens, flowsPerSecond: count / ((performance.now() - started) / 1000) };
}

const format = (f: Figures) =>
  `${f.name.padEnd(44)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms${f.ceiling ? `   ${((f.rps / f.ceiling) * 100).toFixed(1).padStart(5)} % of ${f.ceiling.toFixed(0)}` : ""}${f.non2xx || f.errors ? `   (non-2xx ${f.non2xx}, errors ${f.errors})` : ""}`;

async function main() {
  if (!args["no-build"] || !existsSync(join(root, "dist/authd"))) {
    const build = spawnSync(process.execPath, ["scripts/build.ts"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
  const users = Number(args.users);
  const database = await prepareDatabase();
  const seedSeconds = await seedDatabase(database.url, users, console.log);
  const daemon = await startDaemon(database.url);
  const ceiling = await startCeiling();
  const results: Figures[] = [];
  try {
    const api = `${daemon.url}/api/auth`;
    const origin = { origin: daemon.url };
    const signIn = await fetch(`${api}/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", ...origin },
      body: JSON.stringify({ email: seedEmail(1), password: SEED_PASSWORD }),
    });
    if (!signIn.ok) throw new Error(`bench sign-in failed: ${signIn.status}`);
    const cookie = cookiesOf(signIn);
    const userId = ((await signIn.json()) as { user: { id: string } }).user.id;
    const createKey = async (fields: Record<string, unknown>): Promise<string> => {
      const keyResponse = await fetch(`${api}/api-key/create`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${SERVER_TOKEN}` },
        body: JSON.stringify({ userId, ...fields }),
      });
      return ((await keyResponse.json()) as { key: string }).key;
    };
    // A key without limits (stamp written behind), and keys whose every use is counted exactly: with
    // `remaining`, and with a rate window (large enough never to refuse during the run).
    const key = await createKey({ rateLimitEnabled: false });
    const remainingKey = await createKey({ rateLimitEnabled: false, remaining: 1_000_000_000 });
    const windowKey = await createKey({ rateLimitMax: 1_000_000_000, rateLimitTimeWindow: 86_400_000 });
    for (let i = 0; i < 5; i += 1)
      await fetch(`${api}/api-key/create`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie, ...origin },
        body: "{}",
      });
    const signInBody = { email: seedEmail(2), password: SEED_PASSWORD };

    console.log(
      `\nauthd bench: ${args.db}${args.redis ? " + redis" : ""}, ${users} users (seeded in ${seedSeconds.toFixed(1)} s), ${connections} connections, ${duration} s each, ${cpus().length} cores (${cpus()[0]?.model.trim()}), Bun ${Bun.version}, load average ${loadavg()[0].toFixed(2)} at ${new Date().toISOString().slice(0, 16)}Z\n`,
    );
    if (wanted("get-session")) {
      // What every route pays (the request pipeline, routing, a JSON answer): the floor under the others.
      results.push(await againstCeiling(ceiling.url, "GET /ok (the route floor)", `${api}/ok`, {}));
      results.push(
        await againstCeiling(ceiling.url, "get-session (cookie cache)", `${api}/get-session`, { headers: { cookie } }),
      );
      results.push(
        await againstCeiling(
          ceiling.url,
          "get-session (cookie cache off)",
          `${api}/get-session?disableCookieCache=true`,
          { headers: { cookie } },
        ),
      );
      const sessionAnswer = await fetch(`${api}/get-session?disableCookieCache=true`, { headers: { cookie } });
      results.push(await replicaAgainstCeiling(ceiling.url, "  bare Bun.serve, get-session's answer", sessionAnswer));
    }
    if (wanted("api-key")) {
      const verifyKey = (name: string, presented: string) =>
        againstCeiling(ceiling.url, name, `${api}/api-key/verify`, {
          method: "POST",
          headers: { authorization: `Bearer ${SERVER_TOKEN}` },
          body: { key: presented },
        });
      results.push(await verifyKey("POST /api-key/verify", key));
      results.push(await verifyKey("POST /api-key/verify (remaining)", remainingKey));
      results.push(await verifyKey("POST /api-key/verify (rate window)", windowKey));
      const verifyAnswer = await fetch(`${api}/api-key/verify`, {
        method: "POST",
        headers: { authorization: `Bearer ${SERVER_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ key: windowKey }),
      });
      results.push(await replicaAgainstCeiling(ceiling.url, "  bare Bun.serve, verify's answer", verifyAnswer));
      results.push(await autocannon("GET /api-key/list", `${api}/api-key/list`, { headers: { cookie } }));
    }
    if (wanted("oidc")) {
      const client = registerOIDCClient(daemon.env);
      const { access_token } = await codeFlow(api, cookie, client);
      results.push(
        await againstCeiling(ceiling.url, "GET /oauth2/userinfo", `${api}/oauth2/userinfo`, {
          headers: { authorization: `Bearer ${access_token}` },
        }),
      );
      results.push(
        await againstCeiling(ceiling.url, "POST /oauth2/introspect", `${api}/oauth2/introspect`, {
          method: "POST",
          headers: { authorization: client.authorization },
          form: { token: access_token, token_type_hint: "access_token" },
        }),
      );
      // Refresh tokens rotate, and a second use revokes the family: each token of a pool minted through the
      // code flow beforehand is spent exactly once, a fresh pool per round.
      const poolSize = Number(args["refresh-pool"]);
      const flowRates: number[] = [];
      const refresh = await ceilingRounds(ceiling.url, "POST /oauth2/token (refresh_token)", async () => {
        const pool = await refreshTokenPool(api, cookie, client, poolSize);
        flowRates.push(pool.flowsPerSecond);
        return autocannonOnce("POST /oauth2/token (refresh_token)", `${api}/oauth2/token`, {
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: client.authorization },
          bodies: pool.tokens.map((token) =>
            new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }).toString(),
          ),
        });
      });
      results.push(refresh);
      console.log(format(refresh));
      console.log(
        `  pools of ${poolSize} refresh tokens, minted by code flows (authorize + token), ${connections} at a time: ${flowRates.map((r) => r.toFixed(0)).join(" / ")} flows/s`,
      );
    }
    if (wanted("sign-in")) {
      const hash = await scryptSeconds();
      const bound = cpus().length / hash;
      const parallelRate = await scryptParallelRate();
      const signIns = await autocannon("sign-in/email", `${api}/sign-in/email`, {
        method: "POST",
        headers: origin,
        body: signInBody,
        connections: 8,
      });
      results.push(signIns);
      console.log(format(signIns));
      console.log(
        `  scrypt: ${(hash * 1000).toFixed(1)} ms per hash → bound ${bound.toFixed(1)} sign-ins/s on ${cpus().length} cores; sign-in reaches ${((signIns.rps / bound) * 100).toFixed(0)}% of it`,
      );
      console.log(
        `  measured parallel hash rate now: ${parallelRate.toFixed(1)}/s; sign-in reaches ${((signIns.rps / parallelRate) * 100).toFixed(0)}% of it`,
      );
      const [underLoad] = await Promise.all([
        autocannon("get-session (cache off) while sign-ins saturate", `${api}/get-session?disableCookieCache=true`, {
          headers: { cookie },
          connections: 2,
        }),
        autocannon("sign-in/email (background load)", `${api}/sign-in/email`, {
          method: "POST",
          headers: origin,
          body: signInBody,
          connections: 8,
        }),
      ]);
      results.push(underLoad);
    }
    console.log("");
    for (const figures of results) console.log(format(figures));
    console.log(`\nload average at the end: ${loadavg()[0].toFixed(2)} (other work on the machine shares its cores)`);
  } finally {
    daemon.stop();
    ceiling.stop();
    await Bun.sleep(300);
    await database.cleanup();
  }
}

await main();
