import * as z from "zod";
import { findUserByEmail } from "../../../db/repositories/users.ts";
import { AuthError } from "../../../errors.ts";
import { actorFor, assertAdminPermission, removeUser, setUserPassword, setUserRole } from "../../../services/admin.ts";
import { LISTABLE_USER_FIELDS, listUsers } from "../../../services/admin-list-users.ts";
import { prepareUsernameForSignUp } from "../../../services/usernames.ts";
import { assertPasswordLength, createUser, pickAdditionalFields, toUserWire } from "../../../services/users.ts";
import { defineRoute } from "../../route.ts";
import { isValidEmail, StatusSchema, SuccessSchema, UserSchema } from "../schemas.ts";

// Admin routes over users. Every one checks the caller's admin permission before touching anything.

const RoleInput = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const UserResponse = z.object({ user: UserSchema });

export const adminCreateUser = defineRoute({
  method: "POST",
  path: "/admin/create-user",
  summary: "Create a user with a password (admin)",
  description: "data may carry emailVerified, image, username, displayUsername and configured extra fields.",
  tags: ["Admin"],
  auth: "session-or-server",
  body: z.object({
    email: z.string(),
    password: z.string(),
    name: z.string(),
    role: RoleInput.optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  response: UserResponse,
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { user: ["create"] });
    const email = body.email.trim().toLowerCase();
    if (!isValidEmail(email)) throw new AuthError("INVALID_EMAIL");
    assertPasswordLength(ctx, body.password);
    const data = body.data ?? {};
    const username = await prepareUsernameForSignUp(ctx, {
      username: typeof data.username === "string" ? data.username : undefined,
      displayUsername: typeof data.displayUsername === "string" ? data.displayUsername : undefined,
    });
    // The admin plugin answers a taken email with 400, where sign-up answers 422.
    const taken = () => new AuthError("USER_ALREADY_EXISTS", { status: 400 });
    if (await findUserByEmail(ctx.db, email)) throw taken();
    const user = await createUser(ctx, {
      email,
      name: body.name,
      password: body.password,
      image: typeof data.image === "string" ? data.image : null,
      emailVerified: data.emailVerified === true,
      role: body.role === undefined ? undefined : [body.role].flat().join(","),
      ...username,
      additional: pickAdditionalFields(ctx, data, "create"),
    }).catch((error: unknown) => {
      throw error instanceof AuthError && error.key === "USER_ALREADY_EXISTS" ? taken() : error;
    });
    return { user: toUserWire(ctx, user) };
  },
});

const fieldName = z.enum(LISTABLE_USER_FIELDS);
const count = z.coerce.number().int().min(0);

export const adminListUsers = defineRoute({
  method: "GET",
  path: "/admin/list-users",
  summary: "List users with search, filter, sort and paging (admin)",
  description: `limit and offset are echoed when given. Defaults: limit 100, offset 0, search on email with contains, filter on email with eq. Fields: ${LISTABLE_USER_FIELDS.join(", ")}.`,
  tags: ["Admin"],
  auth: "session-or-server",
  query: z.object({
    searchValue: z.string().optional(),
    searchField: z.enum(["email", "name"]).optional(),
    searchOperator: z.enum(["contains", "starts_with", "ends_with"]).optional(),
    limit: count.min(1).optional(),
    offset: count.optional(),
    sortBy: fieldName.optional(),
    sortDirection: z.enum(["asc", "desc"]).optional(),
    filterField: fieldName.optional(),
    filterValue: z.string().optional(),
    filterOperator: z.enum(["eq", "ne", "lt", "lte", "gt", "gte", "contains"]).optional(),
  }),
  response: z.object({ users: z.array(UserSchema), total: z.number(), limit: z.number().optional(), offset: z.number().optional() }),
  handler: async ({ ctx, query, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { user: ["list"] });
    const page = await listUsers(ctx, query);
    return { ...page, users: page.users.map((user) => toUserWire(ctx, user)) };
  },
});

export const adminSetRole = defineRoute({
  method: "POST",
  path: "/admin/set-role",
  summary: "Set a user's role or roles (admin)",
  tags: ["Admin"],
  auth: "session-or-server",
  body: z.object({ userId: z.string().min(1), role: RoleInput }),
  response: UserResponse,
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { user: ["set-role"] });
    return { user: toUserWire(ctx, await setUserRole(ctx, body.userId, body.role)) };
  },
});

export const adminRemoveUser = defineRoute({
  method: "POST",
  path: "/admin/remove-user",
  summary: "Delete a user with their sessions and accounts (admin)",
  tags: ["Admin"],
  auth: "session-or-server",
  body: z.object({ userId: z.string().min(1) }),
  response: SuccessSchema,
  handler: async ({ ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["delete"] });
    if (actor.kind === "user" && actor.userId === body.userId) throw new AuthError("YOU_CANNOT_REMOVE_YOURSELF");
    await removeUser(ctx, body.userId);
    return { success: true };
  },
});

export const adminSetUserPassword = defineRoute({
  method: "POST",
  path: "/admin/set-user-password",
  summary: "Set a user's password (admin)",
  tags: ["Admin"],
  auth: "session-or-server",
  body: z.object({ userId: z.string().min(1), newPassword: z.string() }),
  response: StatusSchema,
  handler: async ({ ctx, body, session, isServer }) => {
    assertAdminPermission(ctx, actorFor(isServer, session?.user), { user: ["set-password"] });
    assertPasswordLength(ctx, body.newPassword);
    await setUserPassword(ctx, body.userId, body.newPassword);
    return { status: true };
  },
});
