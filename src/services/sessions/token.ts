import { sha256Base64Url } from "../../crypto/random.ts";
import type { SessionRow } from "../../db/schema.ts";
import { KeptOutcomes } from "../../platform/kept-outcomes.ts";

// Only the SHA-256 of a session token is stored (database and Redis), so a leaked backup or dump holds
// no live session: a cookie needs the token itself, and a hash cannot be turned back into one. A plain
// hash is enough because the token is 32 random characters (190 bits, nothing to guess); a key would
// add nothing against a database reader (the secret may live in that very database) and would tie
// every session, and the migration that converts old rows, to the secret.

/**
 * Hashes of tokens presented lately: a session is looked up by its hash on every request that presents it.
 * The tokens are the ones this process already holds in its copies of live sessions (sessions.ts).
 */
const recentHashes = new KeptOutcomes<string>(1000, 256);

/** What is stored for a session token, and the key every lookup uses (the unique index). */
export function hashSessionToken(token: string): string {
  return recentHashes.get(token, sha256Base64Url);
}

/** A session as its holder presents it: the stored row plus the clear token, known only to the holder. */
export type LiveSession = SessionRow & { token: string };
