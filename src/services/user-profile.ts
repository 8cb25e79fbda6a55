import type { AuthContext } from "../context.ts";
import { isUniqueViolationOn } from "../db/errors.ts";
import { toJSONColumn } from "../db/json-column.ts";
import type { UserUpdate } from "../db/schema.ts";
import { AuthError } from "../errors.ts";
import { withTransaction } from "../platform/transaction.ts";
import { type EventSource, recordSecurityEvent } from "./security-events.ts";
import { parseAdditional, pickAdditionalFields } from "./user-fields.ts";
import { assertValidUsername } from "./usernames.ts";
import { findUserByUsername, type UserRecord, updateUser } from "./users.ts";

// A user changing their own profile (update-user): name, image, username and the configured extra fields.
// The email is not among them: an address changes through change-email, which verifies it.

export interface ProfileInput {
  name?: string;
  image?: string | null;
  username?: string;
  displayUsername?: string;
  [field: string]: unknown;
}

/** What the input changes, validated (username rules and uniqueness, extra fields). */
async function profileChanges(ctx: AuthContext, user: UserRecord, input: ProfileInput): Promise<UserUpdate> {
  const changes: UserUpdate = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.image !== undefined) changes.image = input.image;
  if (ctx.config.username.enabled && input.username !== undefined) {
    assertValidUsername(ctx, input.username);
    const username = input.username.toLowerCase();
    const owner = await findUserByUsername(ctx, username);
    if (owner && owner.id !== user.id) throw new AuthError("USERNAME_IS_ALREADY_TAKEN");
    changes.username = username;
    changes.displayUsername = input.displayUsername ?? input.username;
  } else if (ctx.config.username.enabled && input.displayUsername !== undefined) {
    changes.displayUsername = input.displayUsername;
  }
  const additional = pickAdditionalFields(ctx, input, "update");
  if (Object.keys(additional).length > 0)
    changes.additionalFields = toJSONColumn({ ...parseAdditional(user), ...additional });
  return changes;
}

/** Apply the caller's changes to their own user; answers the updated user. */
export async function updateProfile(
  ctx: AuthContext,
  user: UserRecord,
  input: ProfileInput,
  source: EventSource,
): Promise<UserRecord> {
  if ("email" in input) throw new AuthError("EMAIL_CAN_NOT_BE_UPDATED");
  return saveOwnChanges(ctx, user, await profileChanges(ctx, user, input), source);
}

/**
 * Write validated changes to the caller's own user, with the `user_updated` event naming the fields that
 * changed in the same transaction (the profile form, the language choice).
 */
export async function saveOwnChanges(
  ctx: AuthContext,
  user: UserRecord,
  changes: UserUpdate,
  source: EventSource,
): Promise<UserRecord> {
  // Nothing to change is not a mistake (Better Auth answers it with {status: true}): the user stays as is.
  if (Object.keys(changes).length === 0) return user;
  let updated: UserRecord | undefined;
  try {
    // The event names the fields that changed, never their values.
    const event = { type: "user_updated", outcome: "success", fields: Object.keys(changes) } as const;
    updated = await withTransaction(ctx, async (tx) => {
      const row = await updateUser(tx, user.id, changes);
      if (row) await recordSecurityEvent(tx, { ...event, userId: user.id, source });
      return row;
    });
  } catch (error) {
    // Two users racing for one username: the unique index decides, with the same refusal as a visible duplicate.
    if (isUniqueViolationOn(error, "username")) throw new AuthError("USERNAME_IS_ALREADY_TAKEN");
    throw error;
  }
  if (!updated) throw new AuthError("USER_NOT_FOUND");
  return updated;
}
