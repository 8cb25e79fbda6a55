import { execSync } from "node:child_process";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { loadConfig } from "../src/config/load.ts";
import { type AuthContext, createContext } from "../src/context.ts";
import { registerFeatures } from "../src/features.ts";
import { silentLogger } from "../src/logger.ts";
import { searchUsers, type UserSearchRequest } from "../src/services/user-search.ts";
import { NEEDLE, organizationId, seedDirectory } from "./directory-seed.ts";
import { scratchDatabase } from "./scratch-database.ts";

// The web console's users list at scale (issue 32): a directory of N users (1,000,000 by default; see
// directory-seed.ts for what it holds) seeded into a fresh SQLite file and a fresh Postgres schema, then the
// searches an operator makes, each through the same service call the console's screen makes (a page of 50
// and the total, counted up to 10,000). Prints the seeding rate and, per search, the median and slowest of
// --rounds runs after one warm-up, with the load average before and after.
//
//   npx bun bench/console-users.ts                      # both dialects, 1,000,000 users
//   npx bun bench/console-users.ts --db sqlite --users 100000 --rounds 3

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    users: { type: "string", default: "1000000" },
    rounds: { type: "string", default: "7" },
  },
});
const USERS = Number(values.users);
const ROUNDS = Number(values.rounds);
const PAGE = 50;

const load = () =>
  execSync("uptime")
    .toString()
    .trim()
    .replace(/^.*load/, "load");

interface Scenario {
  name: string;
  request: (ctx: AuthContext) => Promise<UserSearchRequest>;
}

const plain = (name: string, request: Omit<UserSearchRequest, "limit">): Scenario => ({
  name,
  request: async () => ({ ...request, limit: PAGE }),
});

/** The cursor of the page that starts after the `offset`-th user (found untimed, with an offset). */
async function cursorAt(ctx: AuthContext, offset: number): Promise<string | undefined> {
  return (await searchUsers(ctx, { limit: 1, offset })).next ?? undefined;
}

const SCENARIOS: Scenario[] = [
  plain("first page, newest first", {}),
  plain("search the needle's email prefix (1 match)", { search: "needle.pers" }),
  {
    name: "search by the needle's id",
    request: async (ctx) => {
      const found = await searchUsers(ctx, { search: NEEDLE.email, limit: 1 });
      return { search: found.items[0]?.id, limit: PAGE };
    },
  },
  plain("search a name prefix (NADIA NEE)", { search: "NADIA NEE" }),
  plain("search a common prefix (jul: ~5 %)", { search: "jul" }),
  plain("search contains (@findme: reads every user)", { search: "@findme", match: "contains" }),
  plain("filter banned (ban in force)", { banned: true }),
  plain("filter unverified", { emailVerified: false }),
  plain("filter second factor", { twoFactor: true }),
  plain("filter passkey", { passkey: true }),
  plain("filter provider github", { provider: "github" }),
  plain("filter organization of 100,000", { organization: organizationId(0) }),
  plain("filter organization of ~100", { organization: organizationId(500) }),
  plain("filter role admin (~100)", { role: "admin" }),
  plain("filter role user (the default role)", { role: "user" }),
  plain("search jul + unverified", { search: "jul", emailVerified: false }),
  plain("search jul + passkey", { search: "jul", passkey: true }),
  plain("banned, sorted by email", { banned: true, sort: "email", direction: "asc" }),
  plain("sorted by name", { sort: "name", direction: "asc" }),
  plain("sorted by email, last first", { sort: "email", direction: "desc" }),
  {
    name: "page 10,001 by cursor (after 500,000 users)",
    request: async (ctx) => ({ cursor: await cursorAt(ctx, Math.min(500_000, USERS - PAGE)), limit: PAGE }),
  },
  plain("page 10,001 by offset (for comparison)", { offset: Math.min(500_000, USERS - PAGE) }),
];

async function measure(ctx: AuthContext, scenario: Scenario): Promise<string> {
  const request = await scenario.request(ctx);
  const warm = await searchUsers(ctx, request);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await searchUsers(ctx, request);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const slowest = times.at(-1) ?? 0;
  const total = `${warm.total.toLocaleString("en")}${warm.totalCapped ? "+" : ""}`;
  return `| ${scenario.name} | ${total} | ${median.toFixed(1)} | ${slowest.toFixed(1)} |`;
}

async function run(dialect: string): Promise<void> {
  const database = await scratchDatabase(dialect, "console_users");
  const config = loadConfig({
    env: {
      AUTH_DATABASE_URL: database.url,
      AUTH_SECRET: "cM80vGxqjs1il-Lx7LL-JTzVv_lXbXY65AW8cZIWusqsL9p4DMK3TXEgiu3os_2R",
    },
  });
  const ctx = await createContext(config, { logger: silentLogger, migrate: true });
  try {
    console.log(`\n${dialect}: seeding ${USERS.toLocaleString("en")} users (${load()})`);
    const started = performance.now();
    let logged = 0;
    await seedDirectory(ctx.db, USERS, (done) => {
      if (done - logged >= 100_000) {
        logged = done;
        console.log(`  ${done.toLocaleString("en")} users, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`  seeded in ${seconds.toFixed(1)} s (${Math.round(USERS / seconds).toLocaleString("en")} users/s)`);
    // Postgres: the statistics autovacuum would gather after a load this size. SQLite keeps none by itself.
    if (dialect === "postgres") await sql`analyze`.execute(ctx.db);
    console.log(`  ${load()}\n\n| search (page of ${PAGE} and the total) | matches | median ms | slowest ms |`);
    console.log("| --- | --- | --- | --- |");
    for (const scenario of SCENARIOS) console.log(await measure(ctx, scenario));
    console.log(`  ${load()}`);
  } finally {
    await ctx.close();
    await database.cleanup();
  }
}

registerFeatures();
for (const dialect of values.db === "both" ? ["sqlite", "postgres"] : [values.db ?? "sqlite"]) await run(dialect);
