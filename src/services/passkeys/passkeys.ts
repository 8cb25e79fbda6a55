import type { AuthContext } from "../../context.ts";
import * as passkeys from "../../db/repositories/passkeys.ts";
import type { PasskeyRow } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { iso } from "../../wire/common.ts";
import type { Passkey } from "../../wire/passkey.ts";
import { type EventSource, recordSecurityEvent } from "../security-events.ts";

// A user's passkeys: listed, renamed and removed by their owner (the /passkey routes) or by an operator
// (the admin routes, the CLI, the terminal UI). Every change names the owner in the same statement, so an
// id of someone else's passkey changes nothing and reads as unknown (Better Auth 1.3.4 deletes anyone's
// passkey by id, and tells foreign ids from unknown ones on rename).

export function toPasskeyWire(row: PasskeyRow): Passkey {
  return {
    name: row.name ?? null,
    publicKey: row.publicKey,
    userId: row.userId,
    credentialID: row.credentialID,
    counter: Number(row.counter),
    deviceType: row.deviceType === "multiDevice" ? "multiDevice" : "singleDevice",
    backedUp: Boolean(row.backedUp),
    transports: row.transports ?? null,
    createdAt: iso(row.createdAt),
    aaguid: row.aaguid ?? null,
    id: row.id,
  };
}

/** The transports a stored row names, as WebAuthn descriptors carry them (none when the column is null). */
export function storedTransports(row: PasskeyRow): string[] | undefined {
  return row.transports === null ? undefined : row.transports.split(",");
}

export function listPasskeyRows(ctx: AuthContext, userId: string): Promise<PasskeyRow[]> {
  return passkeys.listPasskeysByUserId(ctx.db, userId);
}

export async function listPasskeys(ctx: AuthContext, userId: string): Promise<Passkey[]> {
  return (await listPasskeyRows(ctx, userId)).map(toPasskeyWire);
}

/** Rename one of the user's passkeys; PASSKEY_NOT_FOUND for an unknown id or another user's. */
export async function renamePasskey(
  ctx: AuthContext,
  userId: string,
  passkeyId: string,
  name: string,
): Promise<Passkey> {
  const row = await passkeys.renamePasskeyOfUser(ctx.db, userId, passkeyId, name);
  if (!row) throw new AuthError("PASSKEY_NOT_FOUND");
  return toPasskeyWire(row);
}

/**
 * Remove one of the user's passkeys (the user themself, an administrator or an operator, as `source`
 * says); PASSKEY_NOT_FOUND for an unknown id or another user's.
 */
export async function removePasskey(
  ctx: AuthContext,
  userId: string,
  passkeyId: string,
  source: EventSource,
): Promise<Passkey> {
  const row = await passkeys.deletePasskeyOfUser(ctx.db, userId, passkeyId);
  if (!row) throw new AuthError("PASSKEY_NOT_FOUND");
  await recordSecurityEvent(ctx, { type: "passkey_removed", outcome: "success", passkeyId: row.id, userId, source });
  return toPasskeyWire(row);
}
