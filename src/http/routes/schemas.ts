import * as z from "zod";

// Wire shapes shared by route definitions (for validation and the OpenAPI document).

export const UserSchema = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    image: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  });

export const SessionSchema = z
  .looseObject({
    id: z.string(),
    token: z.string(),
    userId: z.string(),
    expiresAt: z.string(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  });

export const SessionWithUserSchema = z.object({ session: SessionSchema, user: UserSchema }).nullable();
export const TokenUserSchema = z.object({ token: z.string().nullable(), user: UserSchema });
export const StatusSchema = z.object({ status: z.boolean() });
export const SuccessSchema = z.object({ success: z.boolean() });
export const ErrorBodySchema = z.object({ code: z.string(), message: z.string() });

const EMAIL = z.email();
export const isValidEmail = (email: string): boolean => EMAIL.safeParse(email).success;
