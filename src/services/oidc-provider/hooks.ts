import { sessionsEnded } from "../sessions/revocation.ts";
import { endFamiliesOfSessions } from "./backchannel.ts";

// What the OpenID Provider does when the core calls (services/hooks.ts): registered once by src/features.ts.

export function registerOidcProviderHooks(): void {
  // A session someone ended takes its token families with it, and their clients are told (back-channel logout).
  sessionsEnded.register(endFamiliesOfSessions);
}
