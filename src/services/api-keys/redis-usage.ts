import type { AuthContext } from "../../context.ts";
import * as apiKeys from "../../db/repositories/api-keys.ts";
import type { ApiKeyRow } from "../../db/schema.ts";
import type { SecondaryStorage } from "../../platform/secondary-storage.ts";
import type { RedisUseOutcome } from "./outcomes.ts";

// Exact usage counters of keys with limits (`remaining`, a rate window) in Redis, when it is configured.
//
// Each use is one Lua script, atomic on the server across every daemon: it seeds the counters from the
// database row the first time (or when the row is ahead, see below), decides the use exactly as
// decideUsage does, and writes the counters back, numbering the uses (`seq`) and marking the key dirty.
// Redis holds the truth, so a daemon killed mid-load loses nothing. Every daemon copies dirty counters into
// the row once a second (reconcileRedisApiKeyUsage); the row's `usageVersion` takes the copied `seq` and a
// copy only lands when it is newer, so racing copies never move the row back. Once copied, the counters
// expire after a day unused, and the row is the truth again.
//
// A key's row is read on every use (enabled, expiry, limits, the owner's ban), so edits of those take effect
// at once; the one counter an edit sets, `remaining`, is written into Redis by applyRemainingEdit.

const PREFIX = "apikey-usage:";
const DIRTY = `${PREFIX}dirty`;
/** Copied counters stay this long after their last use (a later use re-reads them from Redis, not the row). */
const SYNCED_TTL_SECONDS = 86_400;
/** Dirty keys copied per round trip of a reconcile pass. */
const RECONCILE_BATCH = 200;
const MAX_BATCHES_PER_PASS = 50;

const counterKey = (keyId: string) => `${PREFIX}${keyId}`;

// Shared by the scripts: null is "" in the hash; the counters are seeded from ARGV[first..first+4]
// (remaining, lastRefillAt, requestCount, lastRequest, usageVersion) when absent or behind the row, but only
// from a row read from the database just now (`fresh`): a copy kept in memory may be older than the last
// time the counters were copied into the row. Answers nil when the counters need such a row.
const SEED = `
local function num(v) if v == nil or v == false or v == '' then return nil end return tonumber(v) end
local function str(v) if v == nil then return '' end return string.format('%.0f', v) end
local function seed(h, id, first, fresh)
  local seq = num(redis.call('HGET', h, 'seq'))
  local version = tonumber(ARGV[first + 4])
  if seq == nil or version > seq then
    if not fresh then return nil end
    redis.call('HSET', h, 'id', id, 'remaining', ARGV[first], 'lastRefillAt', ARGV[first + 1],
      'requestCount', ARGV[first + 2], 'lastRequest', ARGV[first + 3], 'seq', ARGV[first + 4])
    return version
  end
  return seq
end
`;

// KEYS: counters, dirty set. ARGV: id, now, remaining, lastRefillAt, requestCount, lastRequest, usageVersion,
// createdAt, refillAmount, refillInterval (days), rate mode ("window", "stamp" or "none"), window, max, and
// how many uses to decide in turn, and whether the row is fresh. Answers {0} when it must be, else five
// values per use: {1, remaining, lastRefillAt, requestCount,
// lastRequest} for a use, {2} exhausted for good, {3} exhausted until a refill, {4, tryAgainIn} rate limited.
const USE_SCRIPT = `${SEED}
local h = KEYS[1]
local seq = seed(h, ARGV[1], 3, ARGV[15] == '1')
if seq == nil then return {0} end
local c = redis.call('HMGET', h, 'remaining', 'lastRefillAt', 'requestCount', 'lastRequest')
local remaining, lastRefillAt, requestCount, lastRequest = num(c[1]), num(c[2]), num(c[3]) or 0, num(c[4])
local now, createdAt = tonumber(ARGV[2]), tonumber(ARGV[8])
local refillAmount, interval = num(ARGV[9]), num(ARGV[10]) or 0
local mode, window, max = ARGV[11], num(ARGV[12]), num(ARGV[13])
local function decide()
  local left, refilledAt, count, last = remaining, lastRefillAt, requestCount, lastRequest
  if left ~= nil then
    if left <= 0 and refillAmount == nil then return {2, '', '', '', ''} end
    if interval > 0 and refillAmount ~= nil and now - (refilledAt or createdAt) > interval * 86400000 then
      left = refillAmount
      refilledAt = now
    end
    if left <= 0 then return {3, '', '', '', ''} end
    left = left - 1
  end
  if mode == 'stamp' then
    last = now
  elseif mode == 'window' then
    if last == nil or now - last > window then
      count = 1
    elseif count >= max then
      return {4, str(math.ceil(window - (now - last))), '', '', ''}
    else
      count = count + 1
    end
    last = now
  end
  remaining, lastRefillAt, requestCount, lastRequest = left, refilledAt, count, last
  seq = seq + 1
  return {1, str(remaining), str(lastRefillAt), str(requestCount), str(lastRequest)}
end
local out, used = {}, false
for _ = 1, tonumber(ARGV[14]) do
  local answer = decide()
  if answer[1] == 1 then used = true end
  for i = 1, 5 do out[#out + 1] = answer[i] end
end
if used then
  redis.call('HSET', h, 'remaining', str(remaining), 'lastRefillAt', str(lastRefillAt),
    'requestCount', str(requestCount), 'lastRequest', str(lastRequest), 'seq', seq)
  redis.call('PERSIST', h)
  redis.call('SADD', KEYS[2], h)
end
return out
`;

// KEYS: counters, dirty set. ARGV: id, the new remaining, then the edited row's counters as for SEED.
const EDIT_SCRIPT = `${SEED}
local h = KEYS[1]
local seq = seed(h, ARGV[1], 3, true)
redis.call('HSET', h, 'remaining', ARGV[2], 'seq', seq + 1)
redis.call('PERSIST', h)
redis.call('SADD', KEYS[2], h)
return 1
`;

// KEYS: dirty set. ARGV: how many. Answers the counters' key, id, remaining, lastRefillAt, requestCount,
// lastRequest and seq per dirty key.
const SNAPSHOT_SCRIPT = `
local out = {}
for _, h in ipairs(redis.call('SRANDMEMBER', KEYS[1], tonumber(ARGV[1]))) do
  local c = redis.call('HMGET', h, 'id', 'remaining', 'lastRefillAt', 'requestCount', 'lastRequest', 'seq')
  if c[1] and c[6] then
    out[#out + 1] = h
    for i = 1, 6 do out[#out + 1] = c[i] end
  else
    redis.call('SREM', KEYS[1], h)
  end
end
return out
`;

// KEYS: dirty set. ARGV: prefixed counter key, seq copied, … A key used again since stays dirty.
const SYNCED_SCRIPT = `
for i = 1, #ARGV, 2 do
  if redis.call('HGET', ARGV[i], 'seq') == ARGV[i + 1] then
    redis.call('SREM', KEYS[1], ARGV[i])
    redis.call('EXPIRE', ARGV[i], ${SYNCED_TTL_SECONDS})
  end
end
return 1
`;

// KEYS: counters of each key. Answers remaining, lastRefillAt, requestCount, lastRequest, seq per key.
const READ_SCRIPT = `
local out = {}
for _, h in ipairs(KEYS) do
  local c = redis.call('HMGET', h, 'remaining', 'lastRefillAt', 'requestCount', 'lastRequest', 'seq')
  for i = 1, 5 do out[#out + 1] = c[i] or false end
end
return out
`;

const text = (value: number | string | null | undefined): string =>
  value === null || value === undefined ? "" : String(Number(value));
const numberOrNull = (value: unknown): number | null =>
  value === null || value === undefined || value === "" ? null : Number(value);

const seedArguments = (row: ApiKeyRow): string[] => [
  text(row.remaining),
  text(row.lastRefillAt),
  text(row.requestCount),
  text(row.lastRequest),
  text(row.usageVersion),
];

export type { RedisUseOutcome };

/**
 * `count` uses of a key with limits, decided in turn and counted by Redis in one script. `rateMode` as
 * decideUsage reads the row. Null when Redis has no counters for the key and `fresh` is false: call again
 * with the row read from the database just now.
 */
export async function countUsesInRedis(
  storage: SecondaryStorage,
  row: ApiKeyRow,
  now: number,
  rateMode: "window" | "stamp" | "none",
  count: number,
  fresh: boolean,
): Promise<RedisUseOutcome[] | null> {
  const reply = (await storage.evaluate(
    USE_SCRIPT,
    [counterKey(row.id), DIRTY],
    [
      row.id,
      String(now),
      ...seedArguments(row),
      text(row.createdAt),
      text(row.refillAmount),
      text(row.refillInterval),
      rateMode,
      text(row.rateLimitTimeWindow),
      text(row.rateLimitMax),
      String(count),
      fresh ? "1" : "0",
    ],
  )) as unknown[];
  if (Number(reply[0]) === 0) return null;
  return Array.from({ length: count }, (_, index): RedisUseOutcome => {
    const [status, a, b, c, d] = reply.slice(index * 5, index * 5 + 5);
    if (Number(status) === 2) return { kind: "exhausted", deleteKey: true };
    if (Number(status) === 3) return { kind: "exhausted", deleteKey: false };
    if (Number(status) === 4) return { kind: "rate-limited", tryAgainIn: Number(a) };
    return {
      kind: "use",
      usage: {
        remaining: numberOrNull(a),
        lastRefillAt: numberOrNull(b),
        requestCount: Number(c),
        lastRequest: numberOrNull(d),
      },
    };
  });
}

/** After an edit that set `remaining` committed: the counters in Redis take it (the row alone would not). */
export async function applyRemainingEdit(storage: SecondaryStorage, row: ApiKeyRow): Promise<void> {
  await storage.evaluate(
    EDIT_SCRIPT,
    [counterKey(row.id), DIRTY],
    [row.id, text(row.remaining), ...seedArguments(row)],
  );
}

/** The rows with the counters Redis holds for them, where it holds newer ones than the rows. */
export async function withRedisUsage<R extends ApiKeyRow>(storage: SecondaryStorage, rows: R[]): Promise<R[]> {
  if (rows.length === 0) return rows;
  const reply = (await storage.evaluate(
    READ_SCRIPT,
    rows.map((row) => counterKey(row.id)),
    [],
  )) as unknown[];
  return rows.map((row, index) => {
    const [remaining, lastRefillAt, requestCount, lastRequest, seq] = reply.slice(index * 5, index * 5 + 5);
    if (seq === null || seq === undefined || Number(seq) <= Number(row.usageVersion)) return row;
    return {
      ...row,
      remaining: numberOrNull(remaining),
      lastRefillAt: numberOrNull(lastRefillAt),
      requestCount: Number(requestCount),
      lastRequest: numberOrNull(lastRequest),
      usageVersion: Number(seq),
    };
  });
}

/** Copy every dirty key's counters into its row (any daemon copies any key: a killed one's are not lost). */
export async function reconcileRedisApiKeyUsage(ctx: AuthContext): Promise<void> {
  const storage = ctx.secondaryStorage;
  if (!storage) return;
  // A full batch means more may wait; keys used again during the pass stay dirty for the next one.
  for (let pass = 0; pass < MAX_BATCHES_PER_PASS; pass++) {
    const reply = (await storage.evaluate(SNAPSHOT_SCRIPT, [DIRTY], [String(RECONCILE_BATCH)])) as unknown[];
    const synced: string[] = [];
    for (let i = 0; i < reply.length; i += 7) {
      const [hash, id, remaining, lastRefillAt, requestCount, lastRequest, seq] = reply.slice(i, i + 7);
      const usage = {
        remaining: numberOrNull(remaining),
        lastRefillAt: numberOrNull(lastRefillAt),
        requestCount: Number(requestCount),
        lastRequest: numberOrNull(lastRequest),
      };
      await apiKeys.writeApiKeyUsageIfNewer(ctx.db, String(id), usage, Number(seq));
      synced.push(String(hash), String(seq));
    }
    if (synced.length > 0) await storage.evaluate(SYNCED_SCRIPT, [DIRTY], synced);
    if (reply.length < RECONCILE_BATCH * 7) return;
  }
}
