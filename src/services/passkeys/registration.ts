import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AuthContext } from "../../context.ts";
import { hmacSha256Base64Url } from "../../crypto/hmac.ts";
import { generateId } from "../../crypto/random.ts";
import { isUniqueViolationOn } from "../../db/errors.ts";
import { insertPasskey } from "../../db/repositories/passkeys.ts";
import type { UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import type { Passkey } from "../../wire/passkey.ts";
import { type EventSource, recordSecurityEvent } from "../security-events.ts";
import { consumeChallenge, issueChallenge } from "./challenges.ts";
import { listPasskeyRows, storedTransports, toPasskeyWire } from "./passkeys.ts";
import { relyingParty } from "./relying-party.ts";
import { loadWebAuthn } from "./webauthn.ts";

// Adding a passkey to a signed-in user: the creation options (with a challenge bound to the browser),
// then the authenticator's answer, checked by @simplewebauthn/server (attestation, challenge, origin,
// rp id hash, flags, algorithm) before the credential is stored.

/** The algorithms offered, and the only ones accepted (1.3.4 accepts anything the library knows, RS1 included). */
export const PASSKEY_ALGORITHMS = [-8, -7, -257];

export type AuthenticatorAttachment = "platform" | "cross-platform";

/**
 * A stable WebAuthn user handle per user, derived (not stored) from the secret and the user id: the same
 * account on one authenticator keeps one discoverable credential per registration ceremony, and the
 * handle says nothing about the user (1.3.4 makes a random one per ceremony).
 */
function userHandle(ctx: AuthContext, userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(hmacSha256Base64Url(ctx.secret, `passkey-user-handle:${userId}`), "base64url"));
}

/** Creation options for `user`, and the handle of their challenge (for the browser's challenge cookie). */
export async function registrationOptions(
  ctx: AuthContext,
  user: UserRow,
  attachment?: AuthenticatorAttachment,
): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; handle: string }> {
  const rp = relyingParty(ctx);
  const config = ctx.config.passkey;
  const existing = await listPasskeyRows(ctx, user.id);
  const authenticatorAttachment = attachment ?? config.authenticatorAttachment;
  const webAuthn = await loadWebAuthn();
  const options = await webAuthn.generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandle(ctx, user.id),
    userName: user.email || user.id,
    userDisplayName: user.email || user.id,
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({
      id: row.credentialID,
      transports: storedTransports(row) as RegistrationResponseJSON["response"]["transports"],
    })),
    authenticatorSelection: {
      residentKey: config.residentKey,
      userVerification: config.userVerification,
      ...(authenticatorAttachment ? { authenticatorAttachment } : {}),
    },
    extensions: { credProps: true },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  });
  const handle = await issueChallenge(ctx, {
    ceremony: "registration",
    expectedChallenge: options.challenge,
    userId: user.id,
  });
  return { options, handle };
}

/** The transports the browser reported, comma-joined; null when it reported none. */
function transportsOf(response: unknown): string | null {
  const inner = typeof response === "object" && response !== null ? Reflect.get(response, "response") : undefined;
  const transports = typeof inner === "object" && inner !== null ? Reflect.get(inner, "transports") : undefined;
  if (!Array.isArray(transports)) return null; // older browsers report none (1.3.4 answers 500 then)
  return transports.filter((t): t is string => typeof t === "string").join(",");
}

/**
 * Check the authenticator's answer against the challenge this browser holds (`handle`, used up whatever
 * happens) and store the passkey. Refusals: CHALLENGE_NOT_FOUND, YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY
 * (another user's challenge), FAILED_TO_VERIFY_REGISTRATION (a bad answer, or a credential already registered).
 */
export async function verifyRegistration(
  ctx: AuthContext,
  user: UserRow,
  handle: string | null,
  input: { response: unknown; name?: string },
  source: EventSource,
): Promise<Passkey> {
  const challenge = await consumeChallenge(ctx, handle, "registration");
  if (challenge.userId !== user.id) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY");
  const rp = relyingParty(ctx);
  const webAuthn = await loadWebAuthn();
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await webAuthn.verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge.expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: ctx.config.passkey.userVerification === "required",
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
  } catch (error) {
    throw new AuthError("FAILED_TO_VERIFY_REGISTRATION", { cause: error });
  }
  if (!verification.verified) throw new AuthError("FAILED_TO_VERIFY_REGISTRATION");
  const info = verification.registrationInfo;
  let row: Awaited<ReturnType<typeof insertPasskey>>;
  try {
    row = await insertPasskey(ctx.db, {
      id: generateId(),
      name: input.name ?? null,
      publicKey: Buffer.from(info.credential.publicKey).toString("base64"),
      userId: user.id,
      credentialID: info.credential.id,
      counter: info.credential.counter,
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      transports: transportsOf(input.response),
      createdAt: ctx.now(),
      aaguid: info.aaguid,
    });
  } catch (error) {
    // The WebAuthn spec: a credential id registered already (to anyone) is refused.
    if (isUniqueViolationOn(error, "credentialID")) throw new AuthError("FAILED_TO_VERIFY_REGISTRATION");
    throw error;
  }
  await recordSecurityEvent(ctx, {
    type: "passkey_added",
    outcome: "success",
    passkeyId: row.id,
    userId: user.id,
    source,
  });
  return toPasskeyWire(row);
}
