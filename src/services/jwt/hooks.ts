import type { AuthContext } from "../../context.ts";
import { listPublishedJwks, replaceJwkPrivateKeyIf } from "../../db/repositories/jwks.ts";
import { type ResealTally, resealed, sealedStores } from "../secret-rotation.ts";
import { SEALED_PURPOSE } from "./keys.ts";

// What the JWT feature does when the core calls (services/hooks.ts): registered once by src/features.ts.

/** JWT signing keys sealed again under the current secret. */
async function resealJwtKeys(ctx: AuthContext): Promise<ResealTally> {
  const tally = { resealed: 0, unreadable: 0 };
  for (const row of await listPublishedJwks(ctx.db, ctx.now())) {
    const key = resealed(ctx, SEALED_PURPOSE, row.privateKey);
    if (!key) tally.unreadable += 1;
    else if (key.changed && (await replaceJwkPrivateKeyIf(ctx.db, row.id, row.privateKey, key.value)))
      tally.resealed += 1;
  }
  return tally;
}

export function registerJwtHooks(): void {
  sealedStores.register({ name: "jwtKeys", reseal: resealJwtKeys });
}
