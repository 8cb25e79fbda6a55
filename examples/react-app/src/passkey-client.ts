import { createAuthClient } from "better-auth/client";
import { passkeyClient } from "better-auth/client/plugins";

// Passkeys through Better Auth's own client and its passkeyClient plugin, unchanged, against authd: the
// WebAuthn ceremonies run in the browser (@simplewebauthn/browser) and authd checks them.
export const passkeyAuth = createAuthClient({
  baseURL: import.meta.env.VITE_AUTHD_URL ?? "http://localhost:3000",
  plugins: [passkeyClient()],
});

/** The failure message of a Better Auth call, or null when it succeeded (these calls resolve to undefined then). */
export function failureOf(result: { error: { message?: string } | null } | undefined): string | null {
  return result?.error ? (result.error.message ?? "Something went wrong") : null;
}
