import { randomBytes, scrypt } from "node:crypto";
import { constantTimeEqual } from "./random.ts";

// scrypt N=16384 r=16 p=1, 64-byte key, stored as "saltHex:keyHex". The salt is passed to scrypt as its
// hex text, the way Better Auth derives keys, so hashes migrated from it verify here unchanged.
// node:crypto's callback scrypt runs on the thread pool, so hashing never blocks the event loop.

const PARAMS = { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 };
const KEY_LENGTH = 64;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spend the time of one verification when there is no hash to check, so unknown users answer as slowly as known ones. */
  verifyAgainstDummy(password: string): Promise<void>;
  /** Derivations queued or running on the thread pool now (the hash queue depth of /metrics). */
  inFlight(): number;
}

function deriveKey(password: string, salt: string): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, PARAMS, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** One context's hasher: it counts its own derivations in flight and keeps its own timing dummy. */
export function createPasswordHasher(): PasswordHasher {
  let inFlight = 0;
  let dummyHash: Promise<string> | undefined;
  const derive = (password: string, salt: string) => {
    inFlight += 1;
    return deriveKey(password, salt).finally(() => {
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
