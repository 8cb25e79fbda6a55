import * as z from "zod";
import { AuthError } from "../../../errors.ts";
import { actorFor, assertAdminPermission, removeUser, setUserPassword, setUserRole } from "../../../services/admin.ts";
import { LISTABLE_USER_FIELDS, listUsers } from "../../../services/admin-list-users.ts";
import { requireValidEmail } from "../../../services/email-address.ts";
import { pickAdditionalFields } from "../../../services/user-fields.ts";
import { prepareUsernameForSignUp } from "../../../services/usernames.ts";
import { assertPasswordLength, createUser, findUserByEmail, toUserWire } from "../../../services/users.ts";
import { StatusSchema, SuccessSchema } from "../../../wire/common.ts";
import { UserListSchema, UserSchema } from "../../../wire/user.ts";
import { jsonValue, singleLine } from "../../fields.ts";
import { defineRoute } from "../../route.ts";
import { adminRequestSource } from "../../security-log.ts";
import { TARGET_USER_REFUSALS } from "./shared.ts";

// Admin routes over users. Every one checks the caller's admin permission before touching anything.

const RoleInput = z.union([singleLine().min(1), z.array(singleLine().min(1)).min(1)]);
const UserResponse = z.object({ user: UserSchema });

export const adminCreateUser = defineRoute({
  method: "POST",
  path: "/admin/create-user",
  summary: "Create a user with a password (admin)",
  description: "data may carry emailVerified, image, username, displayUsername and configured extra fields.",
  tags: ["Admin"],
  auth: "session-or-server",
  body: z.object({
    email: singleLine(),
    password: z.string(),
    name: singleLine(),
    role: RoleInput.optional(),
    data: z
      .object({
        image: singleLine().nullish(),
        username: singleLine().optional(),
        displayUsername: singleLine().optional(),
      })
      .catchall(jsonValue())
      .optional(),
  }),
  response: UserResponse,
  // The admin plugin answers a taken email with 400, where sign-up answers 422.
  refusals: { USER_ALREADY_EXISTS: "ADMIN_USER_ALREADY_EXISTS" },
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["create"] });
    const email = requireValidEmail(body.email);
    assertPasswordLength(ctx, body.password);
    const data = body.data ?? {};
    const username = await prepareUsernameForSignUp(ctx, {
      username: typeof data.username === "string" ? data.username : undefined,
      displayUsername: typeof data.displayUsername === "string" ? data.displayUsername : undefined,
    });
    if (await findUserByEmail(ctx, email)) throw new AuthError("USER_ALREADY_EXISTS");
    const user = await createUser(ctx, {
      email,
      name: body.name,
      password: body.password,
      image: typeof data.image === "string" ? data.image : null,
      emailVerified: data.emailVerified === true,
      role: body.role === undefined ? undefined : [body.role].flat().join(","),
      ...username,
      additional: pickAdditionalFields(ctx, data, "create"),
      event: (created) => ({
        type: "user_created",
        outcome: "success",
        userId: created.id,
        source: adminRequestSource(c, ctx, actor),
      }),
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
    searchValue: singleLine().optional(),
    searchField: z.enum(["email", "name"]).optional(),
    searchOperator: z.enum(["contains", "starts_with", "ends_with"]).optional(),
    limit: count.min(1).optional(),
    offset: count.optional(),
    sortBy: fieldName.optional(),
    sortDirection: z.enum(["asc", "desc"]).optional(),
    filterField: fieldName.optional(),
    filterValue: singleLine().optional(),
    filterOperator: z.enum(["eq", "ne", "lt", "lte", "gt", "gte", "contains"]).optional(),
  }),
  response: UserListSchema,
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
  refusals: TARGET_USER_REFUSALS,
  auth: "session-or-server",
  body: z.object({ userId: singleLine().min(1), role: RoleInput }),
  response: UserResponse,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["set-role"] });
    return { user: toUserWire(ctx, await setUserRole(ctx, body.userId, body.role, adminRequestSource(c, ctx, actor))) };
  },
});

export const adminRemoveUser = defineRoute({
  method: "POST",
  path: "/admin/remove-user",
  summary: "Delete a user with their sessions and accounts (admin)",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session-or-server",
  body: z.object({ userId: singleLine().min(1) }),
  response: SuccessSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["delete"] });
    if (actor.kind === "user" && actor.userId === body.userId) throw new AuthError("YOU_CANNOT_REMOVE_YOURSELF");
    await removeUser(ctx, body.userId, adminRequestSource(c, ctx, actor));
    return { success: true };
  },
});

export const adminSetUserPassword = defineRoute({
  method: "POST",
  path: "/admin/set-user-password",
  summary: "Set a user's password (admin)",
  tags: ["Admin"],
  refusals: TARGET_USER_REFUSALS,
  auth: "session-or-server",
  body: z.object({ userId: singleLine().min(1), newPassword: z.string() }),
  response: StatusSchema,
  handler: async ({ c, ctx, body, session, isServer }) => {
    const actor = actorFor(isServer, session?.user);
    assertAdminPermission(ctx, actor, { user: ["set-password"] });
    assertPasswordLength(ctx, body.newPassword);
    await setUserPassword(ctx, body.userId, body.newPassword, adminRequestSource(c, ctx, actor));
    return { status: true };
  },
});
