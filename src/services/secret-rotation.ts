import type { AuthContext } from "../context.ts";
import { seal, unsealWithAny } from "../crypto/sealed.ts";
import { defineHook } from "./hooks.ts";

// Rotating AUTH_SECRET (docs/operations.md, "Rotating the secret"): the new secret goes in AUTH_SECRET, the
// old one in AUTH_SECRET_PREVIOUS. Reads accept both; this sweep, run by `authd serve` before it listens,
// seals every stored value still sealed under an old secret again under the current one, so that once
// AUTH_SECRET_PREVIOUS is removed nothing stored is lost. It is idempotent (values already under the current
// secret are left alone) and safe with several daemons: each write names the value it replaces, so of two
// daemons sweeping at once one writes and the other finds the row changed and moves on (both ciphertexts
// open under the current secret). Short-lived values (mailed codes) are only read with the old secret.

/** What one store's sweep did. */
export interface ResealTally {
  /** Rows sealed again under the current secret. */
  resealed: number;
  /** Values no accepted secret opens (sealed under a secret that is not in AUTH_SECRET_PREVIOUS): left as they are. */
  unreadable: number;
}

/** A feature's stored values sealed with the app secret (two-factor secrets and backup codes, JWT signing keys). */
export interface SealedStore {
  /** Its name in the counts the sweep answers and `authd serve` logs (`twoFactor`, `jwtKeys`). */
  name: string;
  /** Seal again every value of this store an older accepted secret sealed (`resealed` does one value). */
  reseal(ctx: AuthContext): Promise<ResealTally>;
}

/** The secret rotation sweeps the stores every feature registers, in the order registered. */
export const sealedStores = defineHook<SealedStore>("sealedStores");

/** Per store (by name), the rows sealed again; and the values no accepted secret opens. */
export type ResealCounts = Record<string, number> & { unreadable: number };

/** `sealed` again under the current secret when an older accepted one opened it; unchanged when current. */
export function resealed(
  ctx: AuthContext,
  purpose: string,
  sealed: string,
): { value: string; changed: boolean } | null {
  const opened = unsealWithAny(ctx.acceptedSecrets, purpose, sealed);
  if (!opened) return null;
  return opened.stale
    ? { value: seal(ctx.secret, purpose, opened.plaintext), changed: true }
    : { value: sealed, changed: false };
}

/** Seal again under the current secret every stored value an AUTH_SECRET_PREVIOUS secret sealed. */
export async function resealUnderCurrentSecret(ctx: AuthContext): Promise<ResealCounts> {
  const stores = sealedStores.handlers();
  const counts: ResealCounts = { ...Object.fromEntries(stores.map((store) => [store.name, 0])), unreadable: 0 };
  if (ctx.acceptedSecrets.length < 2) return counts;
  for (const store of stores) {
    const tally = await store.reseal(ctx);
    counts[store.name] = tally.resealed;
    counts.unreadable += tally.unreadable;
  }
  return counts;
}
