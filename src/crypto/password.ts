import { randomBytes, scrypt } from "node:crypto";
import { constantTimeEqual } from "./random.ts";

// scrypt N=16384 r=16 p=1, 64-byte key, stored as "saltHex:keyHex". The salt is passed to scrypt as its
// hex text, the way Better Auth derives keys, so hashes migrated from it verify here unchanged.
// node:crypto's callback scrypt runs on the thread pool, so hashing never blocks the event loop.

const PARAMS = { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 };
const KEY_LENGTH = 64;

let inFlight = 0;

/** Derivations queued or running on the thread pool now (the hash queue depth of /metrics). */
export const passwordHashesInFlight = () => inFlight;

function deriveKey(password: string, salt: string): Promise<Buffer> {
  inFlight += 1;
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, PARAMS, (error, key) => (error ? reject(error) : resolve(key)));
  }).finally(() => {
    inFlight -= 1;
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16).toString("hex");
  const key = await deriveKey(password, salt);
  return `${salt}:${key.toString("hex")}`;
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const [salt, keyHex] = hash.split(":");
  if (!salt || !keyHex) return false;
  const key = await deriveKey(password, salt);
  return constantTimeEqual(key.toString("hex"), keyHex);
}

let dummyHash: Promise<string> | undefined;

/** Spend the time of one verification when there is no hash to check, so unknown users answer as slowly as known ones. */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword("authd-timing-equaliser");
  await verifyPassword(await dummyHash, password);
}
