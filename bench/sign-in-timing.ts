// bench/sign-in-timing: what a wrong password costs, by kind of account (issue 33's enumeration bound).
// An attacker who times sign-ins learns which addresses have accounts if an unknown address answers faster
// than a known one, or which accounts were imported with a cheap legacy hash. This seeds a native user, an
// imported user with a weak hash (bare SHA-1, as an old app kept it), and one with bcrypt at cost 12 (the
// slowest kind imported, so every check waits at least as long as it), then times wrong-password sign-ins
// against each and against unknown addresses, interleaved, one at a time, in process (app.fetch).
//
//   bun bench/sign-in-timing.ts                 # SQLite in a temporary file, 200 rounds
//   bun bench/sign-in-timing.ts --db postgres --rounds 400

import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/load.ts";
import { createContext } from "../src/context.ts";
import { registerFeatures } from "../src/features.ts";
import { createApp } from "../src/http/app.ts";
import { silentLogger } from "../src/logger.ts";
import { runImport } from "../src/services/import/run.ts";
import { scratchDatabase } from "./scratch-database.ts";

const { values: args } = parseArgs({
  options: { db: { type: "string", default: "sqlite" }, rounds: { type: "string", default: "200" } },
});
const BASE = "http://127.0.0.1:3000";
const target = await scratchDatabase(args.db, "timing");
const config = loadConfig({
  env: {
    AUTH_DATABASE_URL: target.url,
    AUTH_BASE_URL: BASE,
    AUTH_SECRET: "cM80vGxqjs1il-Lx7LL-JTzVv_lXbXY65AW8cZIWusqsL9p4DMK3TXEgiu3os_2R",
    AUTH_RATE_LIMIT: "off",
  },
  // Every guess here is wrong: the per-account throttle would lock the known accounts (and a repeated unknown
  // address alike) after ten; off, each guess is checked, which is the cost being compared.
  overrides: { accountThrottle: { enabled: false } },
});
registerFeatures();
const ctx = await createContext(config, { logger: silentLogger, migrate: true });
const app = createApp(ctx);
const env = { remoteAddress: "127.0.0.1" };
const post = (path: string, body: unknown) =>
  app.fetch(
    new Request(`${BASE}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE },
      body: JSON.stringify(body),
    }),
    env,
  );

try {
  const at = "2024-01-01T00:00:00.000Z";
  const weak = `$sha1$${createHash("sha1").update("weak-password").digest("hex")}`;
  const slow = Bun.password.hashSync("slow-password", { algorithm: "bcrypt", cost: 12 });
  const stream = {
    header: { hashConfigs: {} },
    async *records() {
      for (const [id, password] of [
        ["weak", weak],
        ["slow", slow],
      ])
        yield {
          position: id,
          record: {
            id,
            email: `${id}@timing.example`,
            emailVerified: true,
            name: id,
            createdAt: at,
            updatedAt: at,
            password,
          },
        };
    },
  };
  const report = await runImport(ctx, stream, {
    source: "timing",
    commit: true,
    onConflict: "skip",
    allowInsecureHashes: true,
  });
  if (report.imported !== 2) throw new Error(`import failed: ${JSON.stringify(report.problems)}`);
  const native = await post("/sign-up/email", {
    email: "native@timing.example",
    password: "native-password",
    name: "n",
  });
  if (native.status !== 200) throw new Error(`sign-up failed: ${native.status}`);

  const kinds = {
    unknown: (round: number) => `nobody-${round}@timing.example`,
    native: () => "native@timing.example",
    "imported sha1": () => "weak@timing.example",
    "imported bcrypt 12": () => "slow@timing.example",
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  const rounds = Number(args.rounds);
  // One warm-up round, then the kinds in turn each round, so drift in the machine's load hits all alike.
  for (let round = -1; round < rounds; round++)
    for (const [kind, email] of Object.entries(kinds)) {
      const started = performance.now();
      const answer = await post("/sign-in/email", { email: email(round), password: "wrong-password-123" });
      const ms = performance.now() - started;
      if (answer.status !== 401) throw new Error(`${kind}: expected 401, got ${answer.status}`);
      if (round >= 0) times[kind].push(ms);
    }
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  };
  console.log(`${args.db}: wrong-password sign-ins, ${rounds} rounds (ms)`);
  console.log("| account | p10 | median | p90 |");
  console.log("| --- | --- | --- | --- |");
  for (const [kind, values] of Object.entries(times))
    console.log(
      `| ${kind} | ${quantile(values, 0.1).toFixed(1)} | ${quantile(values, 0.5).toFixed(1)} | ${quantile(values, 0.9).toFixed(1)} |`,
    );
} finally {
  await ctx.close();
  await target.cleanup();
}
