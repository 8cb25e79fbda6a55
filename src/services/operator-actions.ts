import type { AuthContext } from "../context.ts";
import { removeUser } from "./admin.ts";
import { deleteApiKey } from "./api-keys/api-keys.ts";
import { findApiKeyOwnerId } from "./directory.ts";
import { CLI_SOURCE, type EventSource } from "./security-events.ts";
import { revokeUserSessions } from "./sessions/sessions.ts";

// What an operator does from a terminal (a CLI command or a key in the terminal UI) that takes more than
// one service call: the two front ends act through these, so the steps exist once. Single-call actions
// (ban, unban, set a role …) call their service directly.

/** Delete a key by id, whoever owns it; false when there is no such key. */
export async function revokeApiKeyById(ctx: AuthContext, keyId: string): Promise<boolean> {
  const ownerId = await findApiKeyOwnerId(ctx, keyId);
  if (!ownerId) return false;
  await deleteApiKey(ctx, ownerId, keyId, CLI_SOURCE);
  return true;
}

/** Delete a user with everything that belongs to them (sessions, accounts, memberships, API keys). */
export async function deleteUserWithSessions(
  ctx: AuthContext,
  userId: string,
  source: EventSource = CLI_SOURCE,
): Promise<void> {
  // Sessions first, through the sessions service, so cached copies (Redis) are revoked too; then the row
  // (accounts, keys and memberships go with it: the foreign keys cascade).
  await revokeUserSessions(ctx, userId);
  await removeUser(ctx, userId, source);
}
