import { deletePasskeysByUserId } from "../../db/repositories/passkeys.ts";
import { credentialKinds } from "../account-claim.ts";

// What passkeys do when the core calls (services/hooks.ts): registered once by src/features.ts.

export function registerPasskeyHooks(): void {
  // A passkey signs in on its own and skips the second factor.
  credentialKinds.register({ name: "passkeys", remove: (tx, user) => deletePasskeysByUserId(tx.db, user.id) });
}
