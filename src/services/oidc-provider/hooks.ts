import { deleteOAuthConsentsOfUser } from "../../db/repositories/oauth-grants.ts";
import { credentialKinds } from "../account-claim.ts";
import { sessionsEnded } from "../sessions/revocation.ts";
import { endFamiliesOfSessions } from "./backchannel.ts";

// What the OpenID Provider does when the core calls (services/hooks.ts): registered once by src/features.ts.

export function registerOidcProviderHooks(): void {
  // A session someone ended takes its token families with it, and their clients are told (back-channel logout).
  sessionsEnded.register(endFamiliesOfSessions);
  // The account claim: the token families and codes go with the squatter's sessions (above), but a consent
  // would let a client the squatter approved receive the owner's identity without asking the owner.
  credentialKinds.register({ name: "oauthConsents", remove: (tx, user) => deleteOAuthConsentsOfUser(tx.db, user.id) });
}
