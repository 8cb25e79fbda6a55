import { execSync } from "node:child_process";
import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { type Kysely, type Migration, Migrator, sql } from "kysely";
import { migrations } from "../migrations/index.ts";
import { loadConfig } from "../src/config/load.ts";
import { type AuthContext, createContext } from "../src/context.ts";
import { openDatabase } from "../src/db/driver.ts";
import { migrateToLatest } from "../src/db/migrator.ts";
import type { Database } from "../src/db/schema.ts";
import { registerFeatures } from "../src/features.ts";
import { silentLogger } from "../src/logger.ts";
import { banUsers, unbanUsers } from "../src/services/bulk-user-actions.ts";
import { CLI_SOURCE } from "../src/services/security-events.ts";
import { searchUsers, type UserSearchRequest } from "../src/services/user-search.ts";
import { NEEDLE, organizationId, seedDirectory } from "./directory-seed.ts";
import { scratchDatabase } from "./scratch-database.ts";

// The web console's users list at scale (issue 32): a directory of N users (1,000,000 by default; see
// directory-seed.ts for what it holds) seeded into a fresh SQLite file and a fresh Postgres schema, then the
// searches an operator makes, each through the same service call the console's screen makes (a page of 50
// and the total, counted up to 10,000). The users go in before the directory's indexes (migration
// 20261127214500), which are then built as an upgrade of a database that size builds them: its time is
// printed too. Postgres is then vacuumed and analyzed, as autovacuum does after a load. Prints the seeding
// rate and, per search, the median and slowest of --rounds runs after one warm-up, a bulk ban and unban of
// 100 users, with the load average before and after.
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

const BEFORE_DIRECTORY = "20261127213700_add_webhook_delivery_log";
const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(1);

/** The database as it was before the directory's indexes, filled with the users. */
async function seed(url: string): Promise<void> {
  const handle = openDatabase(url);
  const db = handle.db as Kysely<Database>;
  try {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async (): Promise<Record<string, Migration>> => migrations },
      migrationTableName: "authd_migration",
      migrationLockTableName: "authd_migration_lock",
      migrationTableSchema: handle.schema,
    });
    const { error } = await migrator.migrateTo(BEFORE_DIRECTORY);
    if (error) throw error;
    const started = performance.now();
    let logged = 0;
    await seedDirectory(db, USERS, (done) => {
      if (done - logged < 100_000) return;
      logged = done;
      console.log(`  ${done.toLocaleString("en")} users, ${seconds(started)} s`);
    });
    const rate = Math.round(USERS / ((performance.now() - started) / 1000)).toLocaleString("en");
    console.log(`  seeded in ${seconds(started)} s (${rate} users/s, with accounts, passkeys and memberships)`);
    const migrating = performance.now();
    await migrateToLatest(db, undefined, handle.schema);
    console.log(`  the directory's indexes built in ${seconds(migrating)} s (the upgrade, at this size)`);
    if (url.startsWith("postgres")) {
      const vacuuming = performance.now();
      for (const table of ["user", "account", "passkey", "member"])
        await sql`vacuum analyze ${sql.table(table)}`.execute(db);
      console.log(`  vacuum analyze in ${seconds(vacuuming)} s`);
    } else console.log(`  database file ${(statSync(url.slice("sqlite://".length)).size / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    await handle.close();
  }
}

/** Ban 100 users found by a search in one call, then unban them (each with its event). */
async function bulk(ctx: AuthContext): Promise<string> {
  const ids = (await searchUsers(ctx, { search: "anna", limit: 100 })).items.map((user) => user.id);
  const banning = performance.now();
  await banUsers(ctx, ids, { reason: "bench" }, CLI_SOURCE);
  const banned = performance.now() - banning;
  const unbanning = performance.now();
  await unbanUsers(ctx, ids, CLI_SOURCE);
  return `  bulk: ${ids.length} users banned in ${banned.toFixed(0)} ms, unbanned in ${(performance.now() - unbanning).toFixed(0)} ms`;
}

async function run(dialect: string): Promise<void> {
  const database = await scratchDatabase(dialect, "console_users");
  try {
    console.log(`\n${dialect}: seeding ${USERS.toLocaleString("en")} users (${load()})`);
    await seed(database.url);
    const config = loadConfig({
      env: {
        AUTH_DATABASE_URL: database.url,
        AUTH_SECRET: "cM80vGxqjs1il-Lx7LL-JTzVv_lXbXY65AW8cZIWusqsL9p4DMK3TXEgiu3os_2R",
      },
    });
    const ctx = await createContext(config, { logger: silentLogger });
    try {
      console.log(`  ${load()}\n\n| search (page of ${PAGE} and the total) | matches | median ms | slowest ms |`);
      console.log("| --- | --- | --- | --- |");
      for (const scenario of SCENARIOS) console.log(await measure(ctx, scenario));
      console.log(await bulk(ctx));
      console.log(`  ${load()}`);
    } finally {
      await ctx.close();
    }
  } finally {
    await database.cleanup();
  }
}

registerFeatures();
for (const dialect of values.db === "both" ? ["sqlite", "postgres"] : [values.db ?? "sqlite"]) await run(dialect);
