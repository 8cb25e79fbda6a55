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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * One Redis connection behind a breaker and a watchdog. Every command goes through run(): while Redis is
 * known to be down it fails at once, and one probe at a time reconnects in the background.
 */
class RedisConnection {
  private client: Bun.RedisClient;
  private connecting: Promise<void> | undefined;
  private closed = false;
  // The breaker: set while Redis is known to be down; every command fails with it at once, without a
  // round trip, while one probe at a time reconnects in the background.
  private down: RedisUnavailableError | undefined;
  private probing = false;
  // The watchdog: one connection answers in order, so a command pending longer than timeoutMs with no
  // answer since means the connection is stuck (a blackholed network), not one slow command.
  private pending = 0;
  private lastAnswerAt = 0;
  private lastTickAt = Date.now();
  private silentMs = 0;
  private readonly tickMs: number;
  private readonly watchdog: ReturnType<typeof setInterval>;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {
    this.client = this.newClient();
    this.tickMs = Math.max(10, timeoutMs / 4);
    this.watchdog = setInterval(() => this.watch(), this.tickMs);
    this.watchdog.unref();
  }

  // Bun's own reconnecting is off: it retried five times with a backoff (50 ms doubling, 1.55 s in all)
  // inside every request that found Redis gone. The breaker fails those requests at once instead.
  private newClient(): Bun.RedisClient {
    const options = { connectionTimeout: this.timeoutMs, enableOfflineQueue: false, autoReconnect: false };
    return new Bun.RedisClient(this.url, options);
  }

  // Silence counts only the time this process was running: a tick that comes late means the event loop
  // (or the whole machine) was stalled, and the answers that arrived meanwhile are still unread behind
  // this timer. Counting that stall marked a healthy Redis down on a loaded machine.
  private watch(): void {
    const now = Date.now();
    const elapsed = now - this.lastTickAt;
    this.lastTickAt = now;
    if (this.down || this.pending === 0 || this.lastAnswerAt > now - elapsed) {
      this.silentMs = 0;
      return;
    }
    if (elapsed <= this.tickMs * 2) this.silentMs += elapsed;
    if (this.silentMs > this.timeoutMs)
      this.markDown(
        this.client,
        Object.assign(new Error(`no answer in ${this.timeoutMs} ms`), { code: "ERR_REDIS_CONNECTION_TIMEOUT" }),
      );
  }

  // A client that failed to connect never connects again (Bun 1.4): each attempt gets a new one.
  private async probe(): Promise<void> {
    this.probing = true;
    for (let wait = PROBE_FIRST_MS; this.down && !this.closed; wait = Math.min(wait * 2, PROBE_MAX_MS)) {
      await sleep(wait);
      if (this.closed) break;
      const candidate = this.newClient();
      try {
        await candidate.connect();
        await candidate.send("PING", []);
        // Closed while this attempt was under way: nothing may keep the connection (or the process) open.
        if (this.closed) candidate.close();
        else {
          this.client = candidate;
          this.down = undefined;
        }
      } catch {
        candidate.close();
      }
    }
    this.probing = false;
  }

  private markDown(failed: Bun.RedisClient, error: unknown): RedisUnavailableError {
    if (this.down) return this.down;
    // A failure of a client already replaced says nothing about the current one.
    if (failed !== this.client) return new RedisUnavailableError(error);
    this.down = new RedisUnavailableError(error);
    // Closing fails every command still waiting on this connection now, rather than at its own timeout.
    this.client.close();
    if (!this.probing && !this.closed) void this.probe();
    return this.down;
  }

  private async connected(): Promise<Bun.RedisClient> {
    const current = this.client;
    if (!current.connected) {
      this.connecting ??= current.connect().finally(() => {
        this.connecting = undefined;
      });
      await this.connecting;
    }
    return current;
  }

  /** One command (or a NOSCRIPT retry) against the current client, through the breaker and the watchdog. */
  async run<T>(command: (redis: Bun.RedisClient) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error("redis storage is closed");
    if (this.down) throw this.down;
    const current = this.client;
    if (this.pending++ === 0) this.lastAnswerAt = Date.now();
    try {
      const reply = await command(await this.connected());
      this.lastAnswerAt = Date.now();
      return reply;
    } catch (error) {
      if (isConnectionLoss(error)) throw this.markDown(current, error);
      throw error;
    } finally {
      this.pending -= 1;
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.watchdog);
    this.client.close();
  }
}

export function createRedisStorage(url: string, options: RedisStorageOptions = {}): SecondaryStorage {
  const prefix = options.keyPrefix ?? "";
  const connection = new RedisConnection(url, options.timeoutMs ?? 1000);
  const run = <T>(command: (redis: Bun.RedisClient) => Promise<T>) => connection.run(command);
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
      connection.close();
    },
  };
}
