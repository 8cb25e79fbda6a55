import { createHash } from "node:crypto";

// Redis as the secondary storage of sessions, rate-limit counters and the usage counters of API keys with
// limits (api-key-redis-usage.ts), through Bun's built-in client.
// A request must not hang on a dead Redis: a refused or lost connection, or a connection that answers
// nothing for timeoutMs, marks Redis down; while it is down every command fails at once (the request
// answers 503) and a background probe reconnects, so no daemon restart is needed.

/** Where sessions and rate-limit counters are shared by every daemon of a deployment (Redis). */
export interface SecondaryStorage {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Set only when the key is absent; false when it already existed. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Several keys in one round trip (null for each absent key). */
  getMany(keys: string[]): Promise<(string | null)[]>;
  /** Add one to a counter (created at 0), returning the new value. */
  increment(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  /** Run a Lua script atomically on the server (rate-limit and API-key counters), by digest when it is known. */
  evaluate(script: string, keys: string[], args: string[]): Promise<unknown>;
  /** Whether a round trip succeeds now (readiness). */
  ping(): Promise<boolean>;
  /** One round trip that rejects with the reason when it fails (serve's start-up check). */
  check(): Promise<void>;
  close(): Promise<void>;
}

const digests = new Map<string, string>();

function scriptDigest(script: string): string {
  let digest = digests.get(script);
  if (!digest) {
    digest = createHash("sha1").update(script).digest("hex");
    digests.set(script, digest);
  }
  return digest;
}

export interface RedisStorageOptions {
  /** Prepended to every key, so several deployments (or test runs) can share one Redis. */
  keyPrefix?: string;
  /** The longest wait for a connection, and for a command's answer, before Redis counts as down. */
  timeoutMs?: number;
}

/** Redis is known to be down: thrown at once, without a round trip, until a probe reaches it again. */
export class RedisUnavailableError extends Error {
  // The failure's own ERR_REDIS code: the app tells an outage from a bug by it, names Redis in the log
  // line with the reason (refused, timed out) and answers 503.
  readonly code: string;
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "RedisUnavailableError";
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === "string" && code.startsWith("ERR_REDIS") ? code : "ERR_REDIS_CONNECTION_CLOSED";
  }
}

// Bun's client fails a connection (refused, closed, timed out) with these codes; a server's error reply
// (ERR_REDIS_SERVER_ERROR) is an answer, and says Redis is up.
const isConnectionLoss = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === "ERR_REDIS_CONNECTION_CLOSED" ||
  (error as { code?: unknown } | null)?.code === "ERR_REDIS_CONNECTION_TIMEOUT";

const PROBE_FIRST_MS = 50;
const PROBE_MAX_MS = 500;

export function createRedisStorage(url: string, options: RedisStorageOptions = {}): SecondaryStorage {
  const prefix = options.keyPrefix ?? "";
  const timeoutMs = options.timeoutMs ?? 1000;
  // Bun's own reconnecting is off: it retried five times with a backoff (50 ms doubling, 1.55 s in all)
  // inside every request that found Redis gone. The breaker below fails those requests at once instead.
  const newClient = () =>
    new Bun.RedisClient(url, { connectionTimeout: timeoutMs, enableOfflineQueue: false, autoReconnect: false });
  let client = newClient();
  let connecting: Promise<void> | undefined;
  let closed = false;
  // The breaker: set while Redis is known to be down; every command fails with it at once, without a
  // round trip, while one probe at a time reconnects in the background.
  let down: RedisUnavailableError | undefined;
  let probing = false;
  // The watchdog: one connection answers in order, so a command pending longer than timeoutMs with no
  // answer since means the connection is stuck (a blackholed network), not one slow command.
  let pending = 0;
  let lastAnswerAt = 0;
  const watchdog = setInterval(
    () => {
      if (!down && pending > 0 && Date.now() - lastAnswerAt > timeoutMs)
        markDown(
          client,
          Object.assign(new Error(`no answer in ${timeoutMs} ms`), { code: "ERR_REDIS_CONNECTION_TIMEOUT" }),
        );
    },
    Math.max(10, timeoutMs / 4),
  );
  watchdog.unref();

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
  // A client that failed to connect never connects again (Bun 1.4): each attempt gets a new one.
  const probe = async () => {
    probing = true;
    for (let wait = PROBE_FIRST_MS; down && !closed; wait = Math.min(wait * 2, PROBE_MAX_MS)) {
      await sleep(wait);
      if (closed) break;
      const candidate = newClient();
      try {
        await candidate.connect();
        await candidate.send("PING", []);
        // Closed while this attempt was under way: nothing may keep the connection (or the process) open.
        if (closed) candidate.close();
        else {
          client = candidate;
          down = undefined;
        }
      } catch {
        candidate.close();
      }
    }
    probing = false;
  };
  function markDown(failed: Bun.RedisClient, error: unknown): RedisUnavailableError {
    if (down) return down;
    // A failure of a client already replaced says nothing about the current one.
    if (failed !== client) return new RedisUnavailableError(error);
    down = new RedisUnavailableError(error);
    // Closing fails every command still waiting on this connection now, rather than at its own timeout.
    client.close();
    if (!probing && !closed) void probe();
    return down;
  }

  const connected = async (): Promise<Bun.RedisClient> => {
    const current = client;
    if (!current.connected) {
      connecting ??= current.connect().finally(() => {
        connecting = undefined;
      });
      await connecting;
    }
    return current;
  };
  /** One command (or a NOSCRIPT retry) against the current client, through the breaker and the watchdog. */
  const run = async <T>(command: (redis: Bun.RedisClient) => Promise<T>): Promise<T> => {
    if (closed) throw new Error("redis storage is closed");
    if (down) throw down;
    const current = client;
    if (pending++ === 0) lastAnswerAt = Date.now();
    try {
      const reply = await command(await connected());
      lastAnswerAt = Date.now();
      return reply;
    } catch (error) {
      if (isConnectionLoss(error)) throw markDown(current, error);
      throw error;
    } finally {
      pending -= 1;
    }
  };
  const key = (name: string) => prefix + name;

  return {
    get(name) {
      return run((redis) => redis.get(key(name)));
    },
    async set(name, value, ttlSeconds) {
      await run((redis) =>
        ttlSeconds !== undefined
          ? redis.set(key(name), value, "EX", Math.max(1, Math.ceil(ttlSeconds)))
          : redis.set(key(name), value),
      );
    },
    async setIfAbsent(name, value, ttlSeconds) {
      const ttl = String(Math.max(1, Math.ceil(ttlSeconds)));
      return (await run((redis) => redis.send("SET", [key(name), value, "EX", ttl, "NX"]))) === "OK";
    },
    async getMany(names) {
      if (names.length === 0) return [];
      return (await run((redis) => redis.send("MGET", names.map(key)))) as (string | null)[];
    },
    async increment(name) {
      return Number(await run((redis) => redis.send("INCR", [key(name)])));
    },
    async delete(name) {
      await run((redis) => redis.del(key(name)));
    },
    evaluate(script, keys, args) {
      const rest = [String(keys.length), ...keys.map(key), ...args];
      // The script's SHA-1 spares sending its text on every call; a server that does not know it yet
      // (first use, a restart, SCRIPT FLUSH) answers NOSCRIPT and gets the text once.
      return run(async (redis) => {
        try {
          return await redis.send("EVALSHA", [scriptDigest(script), ...rest]);
        } catch (error) {
          if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
          return redis.send("EVAL", [script, ...rest]);
        }
      });
    },
    async ping() {
      try {
        return (await run((redis) => redis.send("PING", []))) === "PONG";
      } catch {
        return false;
      }
    },
    async check() {
      await run((redis) => redis.send("PING", []));
    },
    async close() {
      closed = true;
      clearInterval(watchdog);
      client.close();
    },
  };
}
