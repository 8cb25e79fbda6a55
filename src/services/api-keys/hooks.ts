import { deleteApiKeysByUserId } from "../../db/repositories/api-keys.ts";
import { credentialKinds } from "../account-claim.ts";
import { userCopies } from "../sessions/local-cache.ts";
import { apiKeyRowCopies, forgetApiKeyRows } from "./rows.ts";

// What API keys do when the core calls (services/hooks.ts): registered once by src/features.ts.

export function registerApiKeyHooks(): void {
  credentialKinds.register({
    name: "apiKeys",
    remove: async (tx, user) => {
      const removed = await deleteApiKeysByUserId(tx.db, user.id);
      // Key rows are kept in memory for verification: dropped now, at commit, and in every other daemon.
      if (removed > 0) await forgetApiKeyRows(tx, tx.db);
      return removed;
    },
  });
  // Key rows carry their owner's ban (rows.ts): a write of users or sessions drops them too.
  userCopies.register((ctx) => apiKeyRowCopies(ctx));
}
