import type { AuthClient } from "../../src/client/index.ts";
import { credentialJSON, fromBase64url, toBase64url } from "./passkey.ts";

// Add a passkey from the account page, as passkeyClient's addPasskey does (docs/passwordless.md): GET
// /passkey/generate-register-options, the browser's navigator.credentials.create(), then POST
// /passkey/verify-registration with the name. The options and the answer cross the wire as JSON with
// base64url strings; WebAuthn takes and gives ArrayBuffers.

/** Creation options as @simplewebauthn/server writes them (PublicKeyCredentialCreationOptionsJSON). */
interface CreationOptionsJSON {
  rp: PublicKeyCredentialRpEntity;
  user: { id: string; name: string; displayName: string };
  challenge: string;
  pubKeyCredParams: PublicKeyCredentialParameters[];
  timeout?: number;
  excludeCredentials?: { id: string; type: "public-key"; transports?: AuthenticatorTransport[] }[];
  authenticatorSelection?: AuthenticatorSelectionCriteria;
  attestation?: AttestationConveyancePreference;
  extensions?: AuthenticationExtensionsClientInputs;
}

function creationOptions(json: CreationOptionsJSON): PublicKeyCredentialCreationOptions {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: json.excludeCredentials?.map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

/** The new credential as verify-registration takes it (RegistrationResponseJSON). */
function attestationJSON(credential: PublicKeyCredential) {
  const response = credential.response as AuthenticatorAttestationResponse;
  return credentialJSON(credential, {
    attestationObject: toBase64url(response.attestationObject),
    ...(typeof response.getTransports === "function" ? { transports: response.getTransports() } : {}),
  });
}

/** Why adding failed: the API's code and status, or the browser's refusal as a code of the page's own. */
export interface AddRefusal {
  code: string | undefined;
  status?: number;
}

/** Why the browser's ceremony failed, in the page's own codes. */
function ceremonyRefusal(error: unknown): AddRefusal {
  const name = (error as Error)?.name;
  // InvalidStateError: the authenticator holds a passkey of this account already (excludeCredentials).
  if (name === "InvalidStateError") return { code: "PASSKEY_ALREADY_ON_DEVICE" };
  return { code: name === "NotAllowedError" ? "PASSKEY_CREATE_CANCELLED" : "PASSKEY_CREATE_FAILED" };
}

/** One passkey added to the signed-in user under `name`; null when it was, the refusal otherwise. */
export async function addPasskey(client: AuthClient, name: string): Promise<AddRefusal | null> {
  const options = await client.$fetch<CreationOptionsJSON>("/passkey/generate-register-options", { method: "GET" });
  if (options.error) return { code: options.error.code, status: options.error.status };
  let credential: Credential | null;
  try {
    credential = await navigator.credentials.create({ publicKey: creationOptions(options.data) });
  } catch (error) {
    return ceremonyRefusal(error);
  }
  if (!(credential instanceof PublicKeyCredential)) return { code: "PASSKEY_CREATE_CANCELLED" };
  const verified = await client.$fetch("/passkey/verify-registration", {
    method: "POST",
    body: { response: attestationJSON(credential), ...(name ? { name } : {}) },
  });
  return verified.error ? { code: verified.error.code, status: verified.error.status } : null;
}

/** The browser and system of a user agent, for a passkey's default name ("Chrome on Linux"); null parts unknown. */
export function describeDevice(userAgent: string): { browser: string | null; system: string | null } {
  const browsers: [RegExp, string][] = [
    [/Edg\//, "Edge"],
    [/Firefox\//, "Firefox"],
    [/OPR\//, "Opera"],
    [/Chrome\//, "Chrome"],
    [/Safari\//, "Safari"],
  ];
  const systems: [RegExp, string][] = [
    [/iPhone|iPad/, "iOS"],
    [/Android/, "Android"],
    [/CrOS/, "ChromeOS"],
    [/Mac OS X/, "macOS"],
    [/Windows/, "Windows"],
    [/Linux/, "Linux"],
  ];
  const find = (list: [RegExp, string][]) => list.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
  return { browser: find(browsers), system: find(systems) };
}
