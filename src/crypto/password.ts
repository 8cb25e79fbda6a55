import { randomBytes, scrypt } from "node:crypto";
import { constantTimeEqual } from "./random.ts";

// scrypt N=16384 r=16 p=1, 64-byte key, stored as "saltHex:keyHex". The salt is passed to scrypt as its
// hex text, the way Better Auth derives keys, so hashes migrated from it verify here unchanged.
// node:crypto's callback scrypt runs on the thread pool, so hashing never blocks the event loop.

const COST = 16384;
const KEY_LENGTH = 64;

/**
 * The test suite's cost, and only the suite's: test/global-setup.ts sets AUTHD_TEST_SCRYPT_COST (a lower
 * power of two) for every daemon and context it starts, because its thousands of sign-ups otherwise spend
 * most of the run in scrypt. Nothing else sets it; `serve` started with it warns.
 * Hashes do not record their cost, so one made under it verifies only under it.
 */
export function testScryptCost(): number | null {
  const raw = process.env.AUTHD_TEST_SCRYPT_COST;
  if (!raw) return null;
  const cost = Number(raw);
  const powerOfTwo = Number.isInteger(cost) && cost >= 2 && cost <= COST && (cost & (cost - 1)) === 0;
  if (!powerOfTwo) throw new Error(`AUTHD_TEST_SCRYPT_COST must be a power of two from 2 to ${COST}, not ${raw}`);
  return cost;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spend the time of one verification when there is no hash to check, so unknown users answer as slowly as known ones. */
  verifyAgainstDummy(password: string): Promise<void>;
  /** Derivations queued or running on the thread pool now (the hash queue depth of /metrics). */
  inFlight(): number;
}

function deriveKey(password: string, salt: string, cost: number): Promise<Buffer> {
  const params = { N: cost, r: 16, p: 1, maxmem: 128 * cost * 16 * 2 };
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, params, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** One context's hasher: it counts its own derivations in flight and keeps its own timing dummy. */
export function createPasswordHasher(cost: number = COST): PasswordHasher {
  let inFlight = 0;
  let dummyHash: Promise<string> | undefined;
  const derive = (password: string, salt: string) => {
    inFlight += 1;
    return deriveKey(password, salt, cost).finally(() => {
      inFlight -= 1;
    });
  };
  const hash = async (password: string) => {
    const salt = randomBytes(16).toString("hex");
    const key = await derive(password, salt);
    return `${salt}:${key.toString("hex")}`;
  };
  const verify = async (stored: string, password: string) => {
    const [salt, keyHex] = stored.split(":");
    if (!salt || !keyHex) return false;
    const key = await derive(password, salt);
    return constantTimeEqual(key.toString("hex"), keyHex);
  };
  return {
    hash,
    verify,
    async verifyAgainstDummy(password) {
      dummyHash ??= hash("authd-timing-equaliser");
      await verify(await dummyHash, password);
    },
    inFlight: () => inFlight,
  };
}
