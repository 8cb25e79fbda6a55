import { generateRandomString, LOWER_ALPHANUMERIC } from "../../src/crypto/random.ts";

// Redis for tests: every context gets a key prefix of its own on the machine's Redis. When no server
// answers, Redis suites are skipped with the reason printed.

export const REDIS_URL = process.env.AUTH_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

let availability: Promise<string | null> | undefined;

/** null when Redis answers; otherwise why not. */
export function redisUnavailableReason(): Promise<string | null> {
  availability ??= (async () => {
    const client = new Bun.RedisClient(REDIS_URL, {
      connectionTimeout: 2000,
      autoReconnect: false,
      enableOfflineQueue: false,
    });
    try {
      await client.connect();
      const reply = await client.send("PING", []);
      return reply === "PONG" ? null : `Redis at ${REDIS_URL} answered ${String(reply)} to PING`;
    } catch (error) {
      return `Redis at ${REDIS_URL} did not answer (${(error as Error).message})`;
    } finally {
      client.close();
    }
  })();
  return availability;
}

/** Environment for createTestContext: Redis with a fresh key prefix. */
export function redisEnv(url = REDIS_URL): Record<string, string> {
  return { AUTH_REDIS_URL: url, AUTH_REDIS_KEY_PREFIX: `test:${generateRandomString(10, LOWER_ALPHANUMERIC)}:` };
}

const skipReason = await redisUnavailableReason();
if (skipReason) console.warn(`[skip] Redis suites skipped: ${skipReason}`);

/** Whether Redis suites must be skipped on this machine. */
export const redisSkipped = skipReason !== null;
