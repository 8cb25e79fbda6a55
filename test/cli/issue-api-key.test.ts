import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { runCli } from "./run.ts";

// Issue 15, point 8: the limits of a key issued from the command line are chosen there and said out loud.

interface IssuedKey {
  key: string;
  rateLimitEnabled: boolean;
  rateLimitMax: number | null;
  rateLimitTimeWindow: number | null;
  remaining: number | null;
  refillAmount: number | null;
  refillInterval: number | null;
  expiresAt: string | null;
  permissions: Record<string, string[]> | null;
  metadata: Record<string, unknown> | null;
}

describe("authd issue-api-key limits", () => {
  let t: TestContext;
  let env: Record<string, string>;
  const owner = "keys@example.com";
  beforeAll(async () => {
    t = await createTestContext({ config: { apiKey: { enableMetadata: true } } });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL, AUTH_API_KEY_METADATA: "on" };
    const created = await runCli(["create-user", "--email", owner, "--name", "Keys", "--password", "keys-password-1"], {
      env,
    });
    expect(created.code, created.stderr).toBe(0);
  });
  afterAll(() => t.close());

  const issue = async (...flags: string[]) => {
    const result = await runCli(["issue-api-key", "--user", owner, ...flags, "--json"], { env });
    expect(result.code, result.stderr).toBe(0);
    return result.json<IssuedKey>();
  };
  const verify = async (key: string) => (await t.server().post("/api/auth/api-key/verify", { key })).body;

  it("says the default rate limit (10 a day) and how to change it", async () => {
    const result = await runCli(["issue-api-key", "--user", owner], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("rate limit: 10 per 1d (change with --rate-limit N/PERIOD or --no-rate-limit)");
    expect(result.stdout).toContain("uses left: unlimited");
    const key = result.stdout.split("\n")[0];
    for (let i = 0; i < 10; i += 1) expect((await verify(key)).valid).toBe(true);
    expect(await verify(key)).toMatchObject({ valid: false, error: { code: "RATE_LIMITED" } });
  });

  it("--no-rate-limit: the 11th verification and beyond pass", async () => {
    const issued = await issue("--no-rate-limit");
    expect(issued.rateLimitEnabled).toBe(false);
    for (let i = 0; i < 12; i += 1) expect((await verify(issued.key)).valid).toBe(true);
  });

  it("--rate-limit N/PERIOD, --remaining, --refill, --expires-in as a duration, --permissions, --metadata", async () => {
    const issued = await issue(
      "--rate-limit",
      "1000/1h",
      "--remaining",
      "2",
      "--refill",
      "50/1d",
      "--expires-in",
      "30d",
      "--permissions",
      '{"files":["read"]}',
      "--metadata",
      '{"team":"billing"}',
    );
    expect(issued).toMatchObject({
      rateLimitEnabled: true,
      rateLimitMax: 1000,
      rateLimitTimeWindow: 3_600_000,
      remaining: 2,
      refillAmount: 50,
      refillInterval: 86_400_000,
      permissions: { files: ["read"] },
      metadata: { team: "billing" },
    });
    const lifetime = Date.parse(issued.expiresAt ?? "") - t.clock.now;
    expect(Math.round(lifetime / 86_400_000)).toBe(30);
    expect((await verify(issued.key)).valid).toBe(true);
    expect((await verify(issued.key)).valid).toBe(true);
    expect(await verify(issued.key)).toMatchObject({ valid: false, error: { code: "USAGE_EXCEEDED" } });
  });

  it("refuses unreadable limits as bad usage, naming what is expected", async () => {
    for (const [flag, value, expected] of [
      ["--rate-limit", "lots", "--rate-limit: expected N/PERIOD, e.g. 1000/1h"],
      ["--refill", "10", "--refill: expected N/PERIOD"],
      ["--expires-in", "soon", "--expires-in: expected seconds (2592000) or a duration (30d, 12h)"],
      ["--remaining", "many", "--remaining: expected a whole number"],
      ["--metadata", "[1]", '--metadata: expected JSON like {"team":"billing"}'],
    ]) {
      const result = await runCli(["issue-api-key", "--user", owner, flag, value], { env });
      expect(result.code, `${flag} ${value}`).toBe(2);
      expect(result.stderr).toContain(expected);
    }
  });

  it("says how to turn metadata on when it is off", async () => {
    const result = await runCli(["issue-api-key", "--user", owner, "--metadata", '{"a":1}'], {
      env: { AUTH_DATABASE_URL: env.AUTH_DATABASE_URL },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "authd: --metadata: API-key metadata is off; set AUTH_API_KEY_METADATA=on (apiKey.enableMetadata)",
    );
  });
});
