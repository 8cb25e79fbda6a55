import * as z from "zod";
import { IsoDateSchema } from "./common.ts";
import { UserSchema } from "./user.ts";

// A session. `token` is the token its holder presents (get-session, sign-in) or, in listings, its handle
// (the stored hash, accepted by revoke-session, never a credential). The organization fields are there
// when organizations are on, impersonatedBy when the admin feature is.

export const SessionSchema = z.object({
  id: z.string(),
  token: z.string(),
  userId: z.string(),
  expiresAt: IsoDateSchema,
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: IsoDateSchema,
  updatedAt: IsoDateSchema,
  activeOrganizationId: z.string().nullable().optional(),
  activeTeamId: z.string().nullable().optional(),
  impersonatedBy: z.string().nullable().optional(),
});
export type Session = z.output<typeof SessionSchema>;

export const SessionWithUserSchema = z.object({ session: SessionSchema, user: UserSchema });
export type SessionWithUser = z.output<typeof SessionWithUserSchema>;
