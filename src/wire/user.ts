import * as z from "zod";
import { IsoDateSchema } from "./common.ts";

// A user. The username and admin fields are there when those features are on; the extra user fields an
// operator configures come beside them (so the object is open).

export const UserSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  image: z.string().nullable(),
  createdAt: IsoDateSchema,
  updatedAt: IsoDateSchema,
  username: z.string().nullable().optional(),
  displayUsername: z.string().nullable().optional(),
  role: z.string().nullable().optional(),
  banned: z.boolean().nullable().optional(),
  banReason: z.string().nullable().optional(),
  banExpires: IsoDateSchema.nullable().optional(),
  /** With two-factor on: null until the user first turns it on, then true, false after disabling. */
  twoFactorEnabled: z.boolean().nullable().optional(),
});
export type User = z.output<typeof UserSchema>;

/** The fixed, smaller set of user fields some answers carry (verify-email, change-password, social sign-in). */
export const PublicUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  emailVerified: z.boolean(),
  createdAt: IsoDateSchema,
  updatedAt: IsoDateSchema,
});
export type PublicUser = z.output<typeof PublicUserSchema>;

/** The user as /sign-in/username answers it: the public fields and the username. */
export const UsernameSignInUserSchema = PublicUserSchema.extend({ username: z.string().nullable() });
export type UsernameSignInUser = z.output<typeof UsernameSignInUserSchema>;

/** A page of users (/admin/list-users); limit and offset are echoed when the caller gave them. */
export const UserListSchema = z.object({
  users: z.array(UserSchema),
  total: z.number(),
  limit: z.number().optional(),
  offset: z.number().optional(),
});
export type UserList = z.output<typeof UserListSchema>;

/** A user with the session token just started for them, or null when none was (sign-up, change-password). */
export const TokenAndUserSchema = z.object({ token: z.string().nullable(), user: UserSchema });
export type TokenAndUser = z.output<typeof TokenAndUserSchema>;
