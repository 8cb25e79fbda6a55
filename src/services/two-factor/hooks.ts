import type { AuthContext } from "../../context.ts";
import { deleteTwoFactor, listSealedTwoFactors, replaceSealedTwoFactorIf } from "../../db/repositories/two-factor.ts";
import { credentialKinds } from "../account-claim.ts";
import { lockoutsLifted } from "../admin.ts";
import { passwordChanged } from "../passwords.ts";
import { type ResealTally, resealed, sealedStores } from "../secret-rotation.ts";
import { credentialPassed } from "../sign-in/gate.ts";
import { updateUser } from "../users.ts";
import { askSecondFactor } from "./gate.ts";
import { clearSecondFactorFailures } from "./lockout.ts";
import { BACKUP_PURPOSE, SECRET_PURPOSE } from "./store.ts";
import { revokeTrustedDevices } from "./trusted-devices.ts";

// What two-factor does when the core calls (services/hooks.ts): registered once by src/features.ts.

const PAGE_SIZE = 500;

/** Two-factor rows (TOTP secret and backup codes) sealed again under the current secret. */
async function resealTwoFactors(ctx: AuthContext): Promise<ResealTally> {
  const tally = { resealed: 0, unreadable: 0 };
  for (let after = ""; ; ) {
    const rows = await listSealedTwoFactors(ctx.db, after, PAGE_SIZE);
    for (const row of rows) {
      const secret = resealed(ctx, SECRET_PURPOSE, row.secret);
      const codes = resealed(ctx, BACKUP_PURPOSE, row.backupCodes);
      if (!secret || !codes) tally.unreadable += 1;
      else if (secret.changed || codes.changed) {
        const replacement = { secret: secret.value, backupCodes: codes.value };
        if (await replaceSealedTwoFactorIf(ctx.db, row.userId, row, replacement)) tally.resealed += 1;
      }
    }
    if (rows.length < PAGE_SIZE) return tally;
    after = rows[rows.length - 1].userId;
  }
}

export function registerTwoFactorHooks(): void {
  // A trusted browser would skip the owner's own second factor later.
  credentialKinds.register({ name: "trustedBrowsers", remove: (tx, user) => revokeTrustedDevices(tx, user.id, tx.db) });
  credentialKinds.register({
    name: "secondFactor",
    remove: async (tx, user) => {
      const removed = await deleteTwoFactor(tx.db, user.id);
      // The squatter's wrong guesses must not lock the owner's own factor later.
      await clearSecondFactorFailures(tx, user.id, tx.db);
      if (user.twoFactorEnabled) await updateUser(tx, user.id, { twoFactorEnabled: false });
      return removed || user.twoFactorEnabled ? 1 : 0;
    },
  });
  // A new password takes back every browser trusted to skip the second factor (as disabling it does).
  passwordChanged.register((ctx, userId, db) => revokeTrustedDevices(ctx, userId, db));
  // Whoever filled the count of wrong codes knew the old password, and it no longer works.
  lockoutsLifted.register((ctx, userId) => clearSecondFactorFailures(ctx, userId));
  sealedStores.register({ name: "twoFactor", reseal: resealTwoFactors });
  credentialPassed.register(askSecondFactor);
}
