import * as z from "zod";
import { updateUser } from "../../db/repositories/users.ts";
import type { UserUpdate } from "../../db/schema.ts";
import { AuthError } from "../../errors.ts";
import { isUniqueViolationOn } from "../../db/errors.ts";
import { assertValidUsername } from "../../services/usernames.ts";
import { parseAdditional, pickAdditionalFields } from "../../services/users.ts";
import { setSessionDataCookie } from "../cookies.ts";
import { defineRoute } from "../route.ts";
import { StatusSchema } from "./schemas.ts";
import { findUserByUsername } from "../../db/repositories/users.ts";

export const updateUserRoute = defineRoute({
  method: "POST",
  path: "/update-user",
  summary: "Update the caller's name, image, username or configured extra fields",
  description: "The email cannot be changed here (use /change-email).",
  tags: ["User"],
  auth: "session",
  body: z.looseObject({
    name: z.string().optional(),
    image: z.string().nullable().optional(),
    username: z.string().optional(),
    displayUsername: z.string().optional(),
  }),
  response: StatusSchema,
  handler: async ({ c, ctx, body, session }) => {
    if ("email" in body) throw new AuthError("EMAIL_CAN_NOT_BE_UPDATED");
    const user = session!.user;
    const changes: UserUpdate = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.image !== undefined) changes.image = body.image;
    if (ctx.config.username.enabled && body.username !== undefined) {
      assertValidUsername(ctx, body.username);
      const username = body.username.toLowerCase();
      const owner = await findUserByUsername(ctx.db, username);
      if (owner && owner.id !== user.id) throw new AuthError("USERNAME_IS_ALREADY_TAKEN");
      changes.username = username;
      changes.displayUsername = body.displayUsername ?? body.username;
    } else if (ctx.config.username.enabled && body.displayUsername !== undefined) {
      changes.displayUsername = body.displayUsername;
    }
    const additional = pickAdditionalFields(ctx, body, "update");
    if (Object.keys(additional).length > 0) changes.additionalFields = JSON.stringify({ ...parseAdditional(user), ...additional });
    if (Object.keys(changes).length === 0) throw new AuthError("VALIDATION_ERROR", { message: "No fields to update" });
    changes.updatedAt = ctx.now();
    let updated;
    try {
      updated = await updateUser(ctx.db, user.id, changes);
    } catch (error) {
      if (isUniqueViolationOn(error, "username")) throw new AuthError("USERNAME_IS_ALREADY_TAKEN");
      throw error;
    }
    if (!updated) throw new AuthError("USER_NOT_FOUND");
    setSessionDataCookie(c, ctx, { session: session!.session, user: updated });
    return { status: true };
  },
});
