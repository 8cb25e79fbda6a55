import * as z from "zod";
import { actorFrom } from "../../../services/organizations/actor.ts";
import * as service from "../../../services/organizations/members.ts";
import { MemberSchema, MemberWithUserSchema } from "../../../wire/organization.ts";
import { coercedSingleLine, permissionMap, singleLine } from "../../fields.ts";
import { asActor } from "../../organization-actor.ts";
import { defineRoute } from "../../route.ts";
import { requestSource } from "../../security-log.ts";
import { tags } from "./shared.ts";

const role = z.union([singleLine().min(1), z.array(singleLine().min(1)).min(1)]);
const memberField = z.enum(["id", "userId", "role", "createdAt", "teamId"]);

export const listMembersRoute = defineRoute({
  method: "GET",
  path: "/organization/list-members",
  summary: "Members of an organization (the active one by default) with their users, paged",
  tags,
  auth: "session",
  query: z.object({
    organizationId: singleLine().optional(),
    limit: z.coerce.number().int().min(1).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    sortBy: memberField.optional(),
    sortDirection: z.enum(["asc", "desc"]).optional(),
    filterField: memberField.optional(),
    filterValue: singleLine().optional(),
    filterOperator: z.enum(["eq", "ne", "lt", "lte", "gt", "gte", "contains"]).optional(),
  }),
  response: z.object({ members: z.array(MemberWithUserSchema), total: z.number() }),
  handler: ({ c, ctx, query, session }) =>
    asActor(c, ctx, session, (actor) =>
      service.listMembers(ctx, actor, {
        organizationId: query.organizationId,
        limit: query.limit,
        offset: query.offset,
        sortBy: query.sortBy,
        sortDirection: query.sortDirection,
        filter:
          query.filterField && query.filterValue !== undefined
            ? { field: query.filterField, operator: query.filterOperator ?? "eq", value: query.filterValue }
            : undefined,
      }),
    ),
});

export const getActiveMemberRoute = defineRoute({
  method: "GET",
  path: "/organization/get-active-member",
  summary: "The caller's membership of the active organization",
  tags,
  auth: "session",
  response: MemberWithUserSchema,
  handler: ({ c, ctx, session }) => asActor(c, ctx, session, (actor) => service.getActiveMember(ctx, actor)),
});

export const getActiveMemberRoleRoute = defineRoute({
  method: "GET",
  path: "/organization/get-active-member-role",
  summary: "The role of the caller (or of another member) in the active organization",
  tags,
  auth: "session",
  query: z.object({ userId: singleLine().optional(), organizationId: singleLine().optional() }),
  response: z.object({ role: z.string() }),
  handler: ({ c, ctx, query, session }) =>
    asActor(c, ctx, session, (actor) => service.getActiveMemberRole(ctx, actor, query)),
});

export const updateMemberRoleRoute = defineRoute({
  method: "POST",
  path: "/organization/update-member-role",
  summary: "Change a member's role (one or several)",
  tags,
  auth: "session",
  body: z.object({ memberId: singleLine(), role, organizationId: singleLine().optional() }),
  response: MemberSchema,
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.updateMemberRole(ctx, actor, body)),
});

export const addMemberRoute = defineRoute({
  method: "POST",
  path: "/organization/add-member",
  summary: "Server call: add a user to an organization without an invitation",
  tags,
  auth: "optional-session",
  serverOnly: true,
  body: z.object({
    userId: coercedSingleLine(),
    role,
    organizationId: singleLine().optional(),
    teamId: singleLine().optional(),
  }),
  response: MemberSchema,
  handler: ({ c, ctx, body, session }) =>
    service.addMember(
      ctx,
      session ? actorFrom(session.user, session.session, requestSource(c, ctx, "user", session.user.id)) : null,
      body,
    ),
});

export const removeMemberRoute = defineRoute({
  method: "POST",
  path: "/organization/remove-member",
  summary: "Remove a member by id or email",
  tags,
  auth: "session",
  body: z.object({ memberIdOrEmail: singleLine().min(1), organizationId: singleLine().optional() }),
  response: z.object({ member: MemberWithUserSchema }),
  handler: ({ c, ctx, body, session }) => asActor(c, ctx, session, (actor) => service.removeMember(ctx, actor, body)),
});

export const leaveOrganizationRoute = defineRoute({
  method: "POST",
  path: "/organization/leave",
  summary: "Leave an organization",
  tags,
  auth: "session",
  body: z.object({ organizationId: singleLine() }),
  response: MemberWithUserSchema,
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) => service.leaveOrganization(ctx, actor, body.organizationId)),
});

export const hasPermissionRoute = defineRoute({
  method: "POST",
  path: "/organization/has-permission",
  summary: "Whether the caller's role in an organization grants the given permissions",
  tags,
  auth: "session",
  refusals: { USER_IS_NOT_A_MEMBER: "PERMISSION_CHECK_NOT_A_MEMBER" },
  body: z.object({
    organizationId: singleLine().optional(),
    permissions: permissionMap().optional(),
    permission: permissionMap().optional(),
  }),
  response: z.object({ error: z.null(), success: z.boolean() }),
  handler: ({ c, ctx, body, session }) =>
    asActor(c, ctx, session, (actor) =>
      service.checkPermission(ctx, actor, body.organizationId, body.permissions ?? body.permission ?? {}),
    ),
});

export const memberRoutes = [
  listMembersRoute,
  getActiveMemberRoute,
  getActiveMemberRoleRoute,
  updateMemberRoleRoute,
  addMemberRoute,
  removeMemberRoute,
  leaveOrganizationRoute,
  hasPermissionRoute,
];
