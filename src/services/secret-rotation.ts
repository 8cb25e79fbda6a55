import type { AuthContext } from "../context.ts";
import { seal, unsealWithAny } from "../crypto/sealed.ts";
import { listPublishedJwks, replaceJwkPrivateKeyIf } from "../db/repositories/jwks.ts";
import { listSealedTwoFactors, replaceSealedTwoFactorIf } from "../db/repositories/two-factor.ts";
import { SEALED_PURPOSE as JWT_KEY_PURPOSE } from "./jwt/keys.ts";
import { BACKUP_PURPOSE, SECRET_PURPOSE } from "./two-factor/store.ts";

// Rotating AUTH_SECRET (docs/operations.md, "Rotating the secret"): the new secret goes in AUTH_SECRET, the
// old one in AUTH_SECRET_PREVIOUS. Reads accept both; this sweep, run by `authd serve` before it listens,
// seals every stored value still sealed under an old secret again under the current one, so that once
// AUTH_SECRET_PREVIOUS is removed nothing stored is lost. It is idempotent (values already under the current
// secret are left alone) and safe with several daemons: each write names the value it replaces, so of two
// daemons sweeping at once one writes and the other finds the row changed and moves on (both ciphertexts
// open under the current secret). Short-lived values (mailed codes) are only read with the old secret.

const PAGE_SIZE = 500;

export interface ResealCounts {
  /** Two-factor rows (TOTP secret and backup codes) sealed again under the current secret. */
  twoFactor: number;
  /** JWT signing keys sealed again. */
  jwtKeys: number;
  /** Values no accepted secret opens (sealed under a secret that is not in AUTH_SECRET_PREVIOUS): left as they are. */
  unreadable: number;
}

/** `sealed` again under the current secret when an older accepted one opened it; unchanged when current. */
function resealed(ctx: AuthContext, purpose: string, sealed: string): { value: string; changed: boolean } | null {
  const opened = unsealWithAny(ctx.acceptedSecrets, purpose, sealed);
  if (!opened) return null;
  return opened.stale
    ? { value: seal(ctx.secret, purpose, opened.plaintext), changed: true }
    : { value: sealed, changed: false };
}

async function resealTwoFactors(ctx: AuthContext, counts: ResealCounts): Promise<void> {
  for (let after = ""; ; ) {
    const rows = await listSealedTwoFactors(ctx.db, after, PAGE_SIZE);
    for (const row of rows) {
      const secret = resealed(ctx, SECRET_PURPOSE, row.secret);
      const codes = resealed(ctx, BACKUP_PURPOSE, row.backupCodes);
      if (!secret || !codes) counts.unreadable += 1;
      else if (secret.changed || codes.changed) {
        const replacement = { secret: secret.value, backupCodes: codes.value };
        if (await replaceSealedTwoFactorIf(ctx.db, row.userId, row, replacement)) counts.twoFactor += 1;
      }
    }
    if (rows.length < PAGE_SIZE) return;
    after = rows[rows.length - 1].userId;
  }
}

async function resealJwtKeys(ctx: AuthContext, counts: ResealCounts): Promise<void> {
  for (const row of await listPublishedJwks(ctx.db, ctx.now())) {
    const key = resealed(ctx, JWT_KEY_PURPOSE, row.privateKey);
    if (!key) counts.unreadable += 1;
    else if (key.changed && (await replaceJwkPrivateKeyIf(ctx.db, row.id, row.privateKey, key.value)))
      counts.jwtKeys += 1;
  }
}

/** Seal again under the current secret every stored value an AUTH_SECRET_PREVIOUS secret sealed. */
export async function resealUnderCurrentSecret(ctx: AuthContext): Promise<ResealCounts> {
  const counts: ResealCounts = { twoFactor: 0, jwtKeys: 0, unreadable: 0 };
  if (ctx.acceptedSecrets.length < 2) return counts;
  await resealTwoFactors(ctx, counts);
  await resealJwtKeys(ctx, counts);
  return counts;
}
