import type {
  AuthenticationResponseJSON,
  generateAuthenticationOptions,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import type { AuthContext } from "../../context.ts";
import { advancePasskeyCounter, findPasskeyByCredentialId } from "../../db/repositories/passkeys.ts";
import type { PasskeyRow, UserRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { type EventSource, recordSecurityEvent } from "../security-events.ts";
import { findUserById } from "../users.ts";
import { consumeChallenge, issueChallenge } from "./challenges.ts";
import { listPasskeyRows, storedTransports } from "./passkeys.ts";
import { relyingParty } from "./relying-party.ts";
import { loadWebAuthn } from "./webauthn.ts";

// Signing in with a passkey: request options (with a challenge bound to the browser), then the
// assertion, checked by @simplewebauthn/server against the stored public key and counter. The caller
// (src/http/sign-in.ts) starts the session under the ban rules.

type AllowCredentials = Parameters<typeof generateAuthenticationOptions>[0]["allowCredentials"];
type Transport = NonNullable<NonNullable<AllowCredentials>[number]["transports"]>[number];

/**
 * Request options and the handle of their challenge. With a signed-in user who has passkeys, they are
 * listed (allowCredentials) and the challenge is theirs alone; otherwise the browser offers any
 * discoverable credential for the rp id.
 */
export async function authenticationOptions(
  ctx: AuthContext,
  userId: string | null,
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; handle: string }> {
  const rp = relyingParty(ctx);
  const rows = userId ? await listPasskeyRows(ctx, userId) : [];
  const allowCredentials: AllowCredentials =
    rows.length > 0
      ? rows.map((row) => ({ id: row.credentialID, transports: storedTransports(row) as Transport[] | undefined }))
      : undefined;
  const webAuthn = await loadWebAuthn();
  const options = await webAuthn.generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials,
    userVerification: ctx.config.passkey.userVerification,
  });
  const handle = await issueChallenge(ctx, {
    ceremony: "authentication",
    expectedChallenge: options.challenge,
    userId: userId ?? "",
  });
  return { options, handle };
}

/** A proven passkey sign-in: the user, and the passkey that proved it. */
export interface PasskeyProof {
  user: UserRow;
  passkey: PasskeyRow;
}

/** The credential id an assertion names, if it is a string. */
function credentialIdOf(response: Record<string, unknown>): string | null {
  return typeof response.id === "string" && response.id.length > 0 ? response.id : null;
}

/**
 * Check an assertion against the challenge this browser holds (`handle`, used up whatever happens).
 * Refusals: CHALLENGE_NOT_FOUND; SIGN_IN_PASSKEY_NOT_FOUND (no such credential); AUTHENTICATION_FAILED (a
 * bad signature, origin, rp id or challenge, a counter that did not move forward, another user's
 * challenge, a user who no longer exists). A counter rollback, the sign of a cloned authenticator, is
 * also logged as a security event of its own.
 */
export async function verifyAuthentication(
  ctx: AuthContext,
  handle: string | null,
  response: Record<string, unknown>,
  source: EventSource,
): Promise<PasskeyProof> {
  const challenge = await consumeChallenge(ctx, handle, "authentication");
  const credentialId = credentialIdOf(response);
  const passkey = credentialId ? await findPasskeyByCredentialId(ctx.db, credentialId) : undefined;
  if (!passkey) throw new AuthError("SIGN_IN_PASSKEY_NOT_FOUND");
  // A challenge issued to a signed-in user proves only that user's passkeys (1.3.4 does not check).
  if (challenge.userId !== "" && challenge.userId !== passkey.userId) throw new AuthError("AUTHENTICATION_FAILED");
  const rp = relyingParty(ctx);
  const storedCounter = Number(passkey.counter);
  let newCounter: number;
  try {
    const webAuthn = await loadWebAuthn();
    const verification = await webAuthn.verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge.expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialID,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64")),
        counter: storedCounter,
      },
      requireUserVerification: ctx.config.passkey.userVerification === "required",
    });
    if (!verification.verified) throw new Error("assertion not verified");
    newCounter = verification.authenticationInfo.newCounter;
  } catch (error) {
    if (error instanceof Error && /counter value/i.test(error.message))
      await recordSecurityEvent(ctx, {
        type: "passkey_counter_rollback",
        outcome: "failure",
        passkeyId: passkey.id,
        userId: passkey.userId,
        source,
      });
    throw new AuthError("AUTHENTICATION_FAILED", { cause: error });
  }
  // Conditional on the counter checked against: of two assertions racing on one stored value, one wins.
  const use = { counter: newCounter, at: ctx.now() };
  if (!(await advancePasskeyCounter(ctx.db, passkey.id, storedCounter, use)))
    throw new AuthError("AUTHENTICATION_FAILED");
  const user = await findUserById(ctx, passkey.userId);
  if (!user) throw new AuthError("AUTHENTICATION_FAILED");
  return { user, passkey: { ...passkey, counter: newCounter, lastUsedAt: use.at } };
}
