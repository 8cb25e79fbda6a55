import type { AuthClient } from "../../src/client/index.ts";
import { problemOf } from "./api.ts";
import type { FormProblem } from "./state.ts";

// Sign in with a passkey from the page, as an app does (docs/passwordless.md): POST
// /passkey/generate-authenticate-options, the browser's navigator.credentials.get(), then POST
// /passkey/verify-authentication, which sets the session cookie. The options and the answer cross the
// wire as JSON with base64url strings; WebAuthn takes and gives ArrayBuffers, so this converts both ways.

/** Request options as @simplewebauthn/server writes them (PublicKeyCredentialRequestOptionsJSON). */
interface RequestOptionsJSON {
  challenge: string;
  timeout?: number;
  rpId?: string;
  userVerification?: UserVerificationRequirement;
  allowCredentials?: { id: string; type: "public-key"; transports?: AuthenticatorTransport[] }[];
}

export function fromBase64url(text: string): ArrayBuffer {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), "="));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

export function toBase64url(buffer: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function requestOptions(json: RequestOptionsJSON): PublicKeyCredentialRequestOptions {
  return {
    challenge: fromBase64url(json.challenge),
    timeout: json.timeout,
    rpId: json.rpId,
    userVerification: json.userVerification,
    allowCredentials: json.allowCredentials?.map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

/**
 * A credential as the server's *ResponseJSON shapes take it: the ceremony's own response fields
 * (`response`) beside clientDataJSON, which both ceremonies answer.
 */
export function credentialJSON(credential: PublicKeyCredential, response: Record<string, unknown>) {
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: { clientDataJSON: toBase64url(credential.response.clientDataJSON), ...response },
    clientExtensionResults: credential.getClientExtensionResults(),
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
  };
}

/** The assertion as verify-authentication takes it (AuthenticationResponseJSON). */
function assertionJSON(credential: PublicKeyCredential) {
  const response = credential.response as AuthenticatorAssertionResponse;
  return credentialJSON(credential, {
    authenticatorData: toBase64url(response.authenticatorData),
    signature: toBase64url(response.signature),
    ...(response.userHandle ? { userHandle: toBase64url(response.userHandle) } : {}),
  });
}

/** Whether this browser can do WebAuthn at all (a page without it offers no passkey). */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** Whether the browser offers passkeys in the identifier field's autofill (conditional mediation). */
export async function autofillSupported(): Promise<boolean> {
  const check = (PublicKeyCredential as { isConditionalMediationAvailable?: () => Promise<boolean> })
    .isConditionalMediationAvailable;
  return check ? await check.call(PublicKeyCredential).catch(() => false) : false;
}

/**
 * What a ceremony ended in: signed in, aborted by the page (nothing to show), or a problem, `picked` when
 * the person had chosen a passkey and authd refused it (rather than no passkey being chosen at all).
 */
export type PasskeyOutcome =
  | { kind: "signed-in" }
  | { kind: "aborted" }
  | { kind: "problem"; problem: FormProblem; picked: boolean };

const problem = (
  code: string | undefined,
  status?: number,
  picked = false,
): Extract<PasskeyOutcome, { kind: "problem" }> => ({
  kind: "problem",
  problem: problemOf(code, status),
  picked,
});

/** The browser's answer to a passkey request, as verify-authentication takes it, or why there is none. */
export type PasskeyAssertion =
  | { kind: "assertion"; response: ReturnType<typeof assertionJSON> }
  | Exclude<PasskeyOutcome, { kind: "signed-in" }>;

/**
 * Ask authd for a challenge (POST /passkey/generate-authenticate-options: signed in, it names the user and
 * lists their passkeys) and the browser for a passkey that answers it. `mediation: "conditional"` waits
 * for the user to pick a passkey from the autofill list; without it the browser asks at once. `signal`
 * aborts the browser's request.
 */
export async function askForPasskey(
  client: AuthClient,
  signal: AbortSignal,
  mediation?: "conditional",
): Promise<PasskeyAssertion> {
  const options = await client.$fetch<RequestOptionsJSON>("/passkey/generate-authenticate-options", {
    method: "POST",
    body: {},
    signal,
  });
  if (signal.aborted) return { kind: "aborted" };
  if (options.error) return problem(options.error.code, options.error.status);
  let credential: Credential | null;
  try {
    credential = await navigator.credentials.get({ publicKey: requestOptions(options.data), mediation, signal });
  } catch (error) {
    if (signal.aborted) return { kind: "aborted" };
    // NotAllowedError: the person cancelled, or the time ran out; anything else reads alike to them.
    return problem((error as Error)?.name === "NotAllowedError" ? "PASSKEY_CANCELLED" : "PASSKEY_FAILED");
  }
  if (!(credential instanceof PublicKeyCredential)) return problem("PASSKEY_CANCELLED");
  return { kind: "assertion", response: assertionJSON(credential) };
}

/** One passkey sign-in: a passkey from the browser (askForPasskey), then POST /passkey/verify-authentication. */
export async function signInWithPasskey(
  client: AuthClient,
  signal: AbortSignal,
  mediation?: "conditional",
): Promise<PasskeyOutcome> {
  const asked = await askForPasskey(client, signal, mediation);
  if (asked.kind !== "assertion") return asked;
  const verified = await client.$fetch("/passkey/verify-authentication", {
    method: "POST",
    body: { response: asked.response },
  });
  if (verified.error) return problem(verified.error.code, verified.error.status, true);
  return { kind: "signed-in" };
}
