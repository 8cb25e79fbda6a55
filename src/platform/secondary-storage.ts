import { createHash } from "node:crypto";

// Redis as the secondary storage of sessions, rate-limit counters and the usage counters of API keys with
// limits (api-key-redis-usage.ts), through Bun's built-in client.
// Commands fail fast while Redis is away (no offline queue: a request must not hang on a dead Redis, it
// answers 5xx), and the next command after an outage reconnects, so no daemon restart is needed.

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
  connectionTimeoutMs?: number;
}

export function createRedisStorage(url: string, options: RedisStorageOptions = {}): SecondaryStorage {
  const prefix = options.keyPrefix ?? "";
  const client = new Bun.RedisClient(url, {
    connectionTimeout: options.connectionTimeoutMs ?? 2000,
    enableOfflineQueue: false,
    autoReconnect: true,
    maxRetries: 5,
  });
  let connecting: Promise<void> | undefined;
  let closed = false;

  // Bun's client gives up after its retries; reconnect on demand, one attempt at a time.
  const ready = async (): Promise<Bun.RedisClient> => {
    if (closed) throw new Error("redis storage is closed");
    if (!client.connected) {
      connecting ??= client.connect().finally(() => {
        connecting = undefined;
      });
      await connecting;
    }
    return client;
  };
  const key = (name: string) => prefix + name;

  return {
    async get(name) {
      return (await ready()).get(key(name));
    },
    async set(name, value, ttlSeconds) {
      const redis = await ready();
      if (ttlSeconds !== undefined) await redis.set(key(name), value, "EX", Math.max(1, Math.ceil(ttlSeconds)));
      else await redis.set(key(name), value);
    },
    async setIfAbsent(name, value, ttlSeconds) {
      const reply = await (await ready()).send("SET", [
        key(name),
        value,
        "EX",
        String(Math.max(1, Math.ceil(ttlSeconds))),
        "NX",
      ]);
      return reply === "OK";
    },
    async getMany(names) {
      if (names.length === 0) return [];
      return (await (await ready()).send("MGET", names.map(key))) as (string | null)[];
    },
    async increment(name) {
      return Number(await (await ready()).send("INCR", [key(name)]));
    },
    async delete(name) {
      await (await ready()).del(key(name));
    },
    async evaluate(script, keys, args) {
      const redis = await ready();
      const rest = [String(keys.length), ...keys.map(key), ...args];
      // The script's SHA-1 spares sending its text on every call; a server that does not know it yet
      // (first use, a restart, SCRIPT FLUSH) answers NOSCRIPT and gets the text once.
      try {
        return await redis.send("EVALSHA", [scriptDigest(script), ...rest]);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
        return redis.send("EVAL", [script, ...rest]);
      }
    },
    async ping() {
      try {
        return (await (await ready()).send("PING", [])) === "PONG";
      } catch {
        return false;
      }
    },
    async check() {
      await (await ready()).send("PING", []);
    },
    async close() {
      closed = true;
      client.close();
    },
  };
}
