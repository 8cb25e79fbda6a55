import * as z from "zod";
import { AuthError } from "../../errors.ts";
import { listPasskeys, removePasskey, renamePasskey } from "../../services/passkeys/passkeys.ts";
import { assertRecentSignIn, isSessionFresh } from "../../services/sessions/sessions.ts";
import { PasskeySchema } from "../../wire/passkey.ts";
import { singleLine } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { requestSource } from "../security-log.ts";

// The caller's passkeys: list, rename, delete. Another user's passkey id reads as unknown (404
// PASSKEY_NOT_FOUND) on rename and delete alike; Better Auth 1.3.4 deletes it (docs/passwordless.md).

const tags = ["Passkeys"];

export const listUserPasskeysRoute = defineRoute({
  method: "GET",
  path: "/passkey/list-user-passkeys",
  summary: "The caller's passkeys",
  tags,
  auth: "session",
  response: z.array(PasskeySchema),
  handler: ({ ctx, session }) => listPasskeys(ctx, session.user.id),
});

export const updatePasskeyRoute = defineRoute({
  method: "POST",
  path: "/passkey/update-passkey",
  summary: "Rename one of the caller's passkeys",
  tags,
  auth: "session",
  body: z.object({ id: singleLine(), name: singleLine().max(256) }),
  response: z.object({ passkey: PasskeySchema }),
  handler: async ({ ctx, body, session }) => ({
    passkey: await renamePasskey(ctx, session.user.id, body.id, body.name),
  }),
});

export const deletePasskeyRoute = defineRoute({
  method: "POST",
  path: "/passkey/delete-passkey",
  summary: "Delete one of the caller's passkeys",
  description:
    "Needs a fresh session and a sign-in within account.freshAge: it removes a way to sign in. Answers null.",
  tags,
  auth: "session",
  body: z.object({ id: singleLine() }),
  response: z.null(),
  handler: async ({ c, ctx, body, session }) => {
    if (!isSessionFresh(ctx, session.session)) throw new AuthError("SESSION_NOT_FRESH");
    assertRecentSignIn(ctx, session.session);
    await removePasskey(ctx, session.user.id, body.id, requestSource(c, ctx, "user", session.user.id));
    return null;
  },
});

export const passkeyManagementRoutes = [listUserPasskeysRoute, updatePasskeyRoute, deletePasskeyRoute];
