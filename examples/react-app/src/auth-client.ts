import { createAuthClient } from "authd/react";
import { createAuthClient as createBetterAuthClient } from "better-auth/client";
import { twoFactorClient } from "better-auth/client/plugins";

const baseURL = import.meta.env.VITE_AUTHD_URL ?? "http://localhost:3000";

export const authClient = createAuthClient({ baseURL });

/**
 * Better Auth's own client with its twoFactorClient plugin, talking to the same authd: apps written for
 * Better Auth keep working. Sign-in and the two-factor screen use it; `onTwoFactorRedirect` is set by the
 * app (see App.tsx) before the first sign-in.
 */
export const twoFactorRedirect = { handler: () => {} };

export const betterAuthClient = createBetterAuthClient({
  baseURL,
  fetchOptions: { credentials: "include" },
  plugins: [twoFactorClient({ onTwoFactorRedirect: () => twoFactorRedirect.handler() })],
});

/** After a Better Auth call changed the session, authd's useSession() refetches. */
export function sessionChanged(): void {
  authClient.$store.notify("$sessionSignal");
}
