import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { describe } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import type { ConfigInput } from "../../src/config/schema.ts";
import { type AuthContext, createContext } from "../../src/context.ts";
import { registerFeatures } from "../../src/features.ts";
import { createApp } from "../../src/http/app.ts";
import { type Logger, silentLogger } from "../../src/logger.ts";
import { Agent } from "./agent.ts";
import { createPostgresSchema, postgresUnavailableReason } from "./postgres.ts";

export type Dialect = "sqlite" | "postgres";

export const TEST_SECRET = "ccWrU5ld8PHITyumRcPqq4Sk9l0NZ-FHdQs0l5VHuIyBdaKwBBnhWQhTCYnGDRo0";
export const TEST_ORIGIN = "http://localhost:3000";
export const SERVER_TOKEN = "Ja2SGm8wRY_bOXpinRutFBBlvCaPIBst0Sp4BtARCuS-hzu8SPQB4BNznv9qTTv6";

export interface TestContext {
  ctx: AuthContext;
  app: Hono;
  dialect: Dialect;
  /** A new browser-like caller with its own cookie jar (`from`: the socket address the daemon sees; none by default). */
  agent(options?: { from?: string }): Agent;
  /** A caller sending the server token. */
  server(): Agent;
  clock: { now: number; advance(ms: number): void };
  close(): Promise<void>;
}

export interface TestContextOptions {
  dialect?: Dialect;
  config?: Record<string, unknown> & Partial<ConfigInput>;
  env?: Record<string, string>;
  logger?: Logger;
  /** Start the clock here instead of the real time (it still only moves when advanced... unless realTime). */
  realTime?: boolean;
  /** Open this existing database (migrated to latest on open) instead of a fresh one; the caller removes it. */
  databaseURL?: string;
}

/** A real, migrated database (a temporary SQLite file, or a fresh Postgres schema) behind the real app. */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const dialect = options.dialect ?? "sqlite";
  let databaseURL: string;
  let cleanup: () => Promise<void>;
  if (options.databaseURL) {
    databaseURL = options.databaseURL;
    cleanup = async () => {};
  } else if (dialect === "postgres") {
    const schema = await createPostgresSchema();
    databaseURL = schema.url;
    cleanup = schema.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "authd-test-"));
    databaseURL = `sqlite://${join(dir, "auth.db")}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const config = loadConfig({
    env: {
      AUTH_SECRET: TEST_SECRET,
      AUTH_BASE_URL: TEST_ORIGIN,
      AUTH_DATABASE_URL: databaseURL,
      AUTH_SERVER_TOKEN: SERVER_TOKEN,
      AUTH_RATE_LIMIT: "off",
      ...options.env,
    },
    overrides: options.config,
  });
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  registerFeatures();
  const ctx = await createContext(config, {
    logger: options.logger ?? silentLogger,
    migrate: true,
    now: options.realTime ? Date.now : () => clock.now,
  });
  const app = createApp(ctx);
  return {
    ctx,
    app,
    dialect,
    clock,
    agent: (options = {}) => {
      const agent = new Agent(app, config.basePath, TEST_ORIGIN);
      return options.from ? agent.connectFrom(options.from) : agent;
    },
    server: () => {
      const agent = new Agent(app, config.basePath, TEST_ORIGIN);
      agent.headers.authorization = `Bearer ${SERVER_TOKEN}`;
      return agent;
    },
    async close() {
      await ctx.close();
      await cleanup();
    },
  };
}

const postgresSkipReason = await postgresUnavailableReason();
if (postgresSkipReason) console.warn(`[skip] Postgres suites skipped: ${postgresSkipReason}`);

/** The dialects this machine can run: SQLite always, Postgres when it answers. */
export const DIALECTS: Dialect[] = ["sqlite", "postgres"];

/** describe() once per dialect; the Postgres copy is skipped (with the reason printed) when no server answers. */
export function describeEachDialect(name: string, body: (dialect: Dialect) => void): void {
  for (const dialect of DIALECTS) {
    const skip = dialect === "postgres" && postgresSkipReason !== null;
    describe.skipIf(skip)(`${name} [${dialect}]`, () => body(dialect));
  }
}

/** Sign a user up through the API and return the agent holding their session. */
export async function signUp(
  t: TestContext,
  fields: { email?: string; password?: string; name?: string; [k: string]: unknown } = {},
) {
  const agent = t.agent();
  const email = fields.email ?? `user.${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = fields.password ?? "correct-horse-battery";
  const res = await agent.post("/sign-up/email", { name: "Test User", ...fields, email, password });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { agent, email, password, user: res.body.user, token: res.body.token as string | null };
}
